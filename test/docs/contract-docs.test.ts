/**
 * Issue #8 item 25: the repository documents its own contract (docs/api.md) and links nothing
 * outside itself. Also keeps the reference honest: every REST route and every error code the code
 * base answers with must appear in docs/api.md.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentedMethods } from '../../src/http/endpoint.js';
import { endpoints } from '../../src/http/routes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const apiDoc = readFileSync(path.join(root, 'docs/api.md'), 'utf8');

/** Files under `dir`, skipping dependencies, data and dot-directories. */
function walk(dir: string, keep: (file: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name.startsWith('.') ||
        ['node_modules', 'data', 'dist', 'coverage'].includes(entry.name) ||
        full.endsWith(path.join('src', 'generated'))
        ? []
        : walk(full, keep);
    return keep(full) ? [full] : [];
  });
}

describe('markdown links', () => {
  const markdown = walk(root, f => f.endsWith('.md'));

  it('every relative link in the repository resolves to a file inside it', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      const text = readFileSync(file, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^([a-z][a-z0-9+.-]*:|#)/i.test(target)) continue;
        const resolved = path.resolve(path.dirname(file), decodeURIComponent(target.split('#')[0]));
        const inside = resolved === root.replace(/\/$/, '') || resolved.startsWith(root);
        if (!inside || !existsSync(resolved)) broken.push(`${path.relative(root, file)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README links the API reference', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8')).toContain('](docs/api.md)');
  });
});

describe('docs/api.md', () => {
  it('lists every documented route of the route registry', () => {
    // Parameter names may differ (`:id`, `<path>`): compared as one placeholder.
    const shape = (route: string) => route.replace(/(?:\*\*)?:\w+|<\w+>/g, '*');
    const listed = new Set([...apiDoc.matchAll(/`((?:GET|HEAD|POST|PUT|PATCH|DELETE) \/[^`\s]*)`/g)].map(m => shape(m[1])));
    const missing = endpoints
      .flatMap(endpoint => documentedMethods(endpoint).map(method => `${method} ${endpoint.path}`))
      .filter(route => !listed.has(shape(route)));
    expect(missing).toEqual([]);
  });

  it('names every error code the server answers with', () => {
    // AppError and its helpers (badRequest, forbidden, …), provider errors, and literal `{ error: … }` answers.
    const call =
      /\b(?:AppError|ProviderError|fail|badRequest|forbidden|notFound|conflict)\(\s*(?:[\w.]+\s*\?\s*)?'([a-z_]+)'(?:\s*:\s*'([a-z_]+)')?/g;
    const literal = /\berror: '([a-z_]+)'/g;
    const constants = /\b(?:[A-Z_]+ = |[a-z]+: )'((?:query|too|introspection)_[a-z_]+)'/g;
    const codes = new Set<string>();
    for (const file of walk(path.join(root, 'src'), f => f.endsWith('.ts') && !f.endsWith('.spec.ts') && !f.includes(`${path.sep}cli${path.sep}`))) {
      const text = readFileSync(file, 'utf8');
      for (const pattern of [call, literal, constants]) {
        for (const m of text.matchAll(pattern)) for (const code of m.slice(1)) if (code) codes.add(code);
      }
    }
    expect(codes.size).toBeGreaterThan(40);
    expect([...codes].filter(code => !apiDoc.includes(`\`${code}\``)).sort()).toEqual([]);
  });
});
