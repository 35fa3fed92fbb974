/**
 * Writes the table of docs/api.md §8.2 from the error catalog (src/core/error-catalog.ts), between
 * its two markers; `--check` fails when the committed table differs. One row per code, by status.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ERROR_CATALOG, type ErrorEntry } from '../src/core/error-catalog.js';

export const API_DOC = fileURLToPath(new URL('../docs/api.md', import.meta.url));
export const BEGIN = '<!-- error-codes: begin (generated from src/core/error-catalog.ts: npm run docs:errors) -->';
export const END = '<!-- error-codes: end -->';

const WHO: Record<NonNullable<ErrorEntry['origin']>, string> = {
  client: ' (reported by the SDK, never sent by the server)',
  parser: " (answered for node's HTTP parser)",
};

/** The §8.2 table the catalog gives. */
export function errorCodesTable(): string {
  const entries = Object.entries(ERROR_CATALOG as Record<string, ErrorEntry>).sort(([, a], [, b]) => a.status - b.status);
  const rows = entries.map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.meaning}${e.origin ? WHO[e.origin] : ''} |`);
  return ['| Status | Code | When |', '| ------ | ---- | ---- |', ...rows].join('\n');
}

/** The table between the markers of `doc`, or null when a marker is missing. */
export function documentedTable(doc: string): string | null {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) return null;
  return doc.slice(begin + BEGIN.length, end).trim();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(API_DOC, 'utf8');
  const current = documentedTable(doc);
  if (current === null) {
    console.error(`docs/api.md lacks the markers ${BEGIN} … ${END} in §8.2.`);
    process.exit(1);
  }
  const table = errorCodesTable();
  if (process.argv.includes('--check')) {
    if (current !== table) {
      console.error('docs/api.md §8.2 differs from the error catalog: run `npm run docs:errors` and commit it.');
      process.exit(1);
    }
    console.log('docs/api.md §8.2 matches the error catalog.');
  } else {
    writeFileSync(API_DOC, `${doc.slice(0, doc.indexOf(BEGIN))}${BEGIN}\n${table}\n${doc.slice(doc.indexOf(END))}`);
    console.log(`wrote the §8.2 table of ${API_DOC}`);
  }
}
