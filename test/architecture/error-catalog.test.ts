/**
 * Issue #26 item 2: one error catalog (src/core/error-catalog.ts). Every code has one status, every
 * code the server answers with is in it, every code in it is answered (or said to come from the
 * client or node's parser), and docs/api.md §8.2 is the catalog's table. `fail(code, …)` and
 * `new AppError(code, status, …)` take only catalog codes at their status, so tsc proves the
 * thrown codes; this test covers the answers written by hand (`json(404, { error: 'not_found' … })`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOG, type ErrorEntry, isErrorCode, statusOf } from '../../src/core/error-catalog.js';
import { API_DOC, documentedTable, errorCodesTable } from '../../scripts/error-codes-doc.js';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
const CATALOG_FILE = 'core/error-catalog.ts';
const entries = Object.entries(ERROR_CATALOG as Record<string, ErrorEntry>);

/** Server source (the SDK is the client, generated code is not ours), path relative to src/ -> text. */
function serverSources(dir = SRC, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    const rel = relative(SRC, full).split('\\').join('/');
    if (entry.isDirectory()) {
      if (!/^(sdk|generated|graphql-client\/generated)$/.test(rel)) serverSources(full, out);
    } else if (rel.endsWith('.ts') && !rel.endsWith('.spec.ts')) out.set(rel, readFileSync(full, 'utf8'));
  }
  return out;
}

describe('the error catalog', () => {
  const sources = serverSources();

  it('gives every code one HTTP error status, declared once', () => {
    const text = sources.get(CATALOG_FILE) ?? '';
    const declared = [...text.matchAll(/^ {2}([A-Za-z_]+): \{/gm)].map(m => m[1]);
    expect(declared.filter((code, i) => declared.indexOf(code) !== i)).toEqual([]);
    expect(declared.sort()).toEqual(Object.keys(ERROR_CATALOG).sort());
    for (const [code, entry] of entries) {
      expect(Number.isInteger(entry.status) && entry.status >= 400 && entry.status <= 599, code).toBe(true);
      expect(entry.meaning.trim().length, `${code} says what it means`).toBeGreaterThan(0);
      expect(entry.meaning, `${code}: one line, no table cell break`).not.toMatch(/[\n|]/);
    }
  });

  it('holds every code an answer written by hand carries, at the status it is sent with', () => {
    const wrong: string[] = [];
    const check = (where: string, code: string, status?: number) => {
      if (!isErrorCode(code)) wrong.push(`${where}: ${code} is not in the catalog`);
      else if (status !== undefined && statusOf(code) !== status)
        wrong.push(`${where}: ${code} sent as ${status}, the catalog says ${statusOf(code)}`);
    };
    // The identity provider's own answers are OAuth protocol errors (RFC 6749), not catalog codes.
    for (const [path, text] of sources) {
      if (path === CATALOG_FILE || path.startsWith('identity-provider/')) continue;
      for (const m of text.matchAll(/\b(?:json|writeJson)\(\s*(\d{3}),\s*\{\s*error:\s*'([A-Za-z_]+)'/g)) check(path, m[2], Number(m[1]));
      for (const m of text.matchAll(/\bcode:\s*'([A-Za-z_]+)',\s*status:\s*(\d{3})\b/g)) check(path, m[1], Number(m[2]));
      for (const m of text.matchAll(/\bstatus:\s*(\d{3}),\s*reason:\s*'[^']*',\s*code:\s*'([A-Za-z_]+)'/g)) check(path, m[2], Number(m[1]));
      for (const m of text.matchAll(/\b(?:fail|AppError|ProviderError|badRequest|notFound)\(\s*'([A-Za-z_]+)'/g)) check(path, m[1]);
    }
    expect(wrong).toEqual([]);
  });

  it('has no code the server never answers, unless the client or the HTTP parser reports it', () => {
    const others = [...sources]
      .filter(([path]) => path !== CATALOG_FILE)
      .map(([, text]) => text)
      .join('\n');
    const unused = entries
      .filter(([code, entry]) => entry.origin !== 'client' && !others.includes(`'${code}'`) && !others.includes(`"${code}"`))
      .map(([code]) => code);
    expect(unused).toEqual([]);
  });

  it('is the table of docs/api.md §8.2 (npm run docs:errors writes it)', () => {
    expect(documentedTable(readFileSync(API_DOC, 'utf8'))).toBe(errorCodesTable());
  });
});
