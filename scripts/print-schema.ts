/** Prints the GraphQL SDL to schema/schema.graphql; `--check` fails when the committed file is stale. */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../src/graphql/schema.js';

const target = fileURLToPath(new URL('../schema/schema.graphql', import.meta.url));
const sdl = `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {}
  if (current !== sdl) {
    console.error('schema/schema.graphql is stale: run `npm run schema:print` and commit it.');
    process.exit(1);
  }
  console.log('schema/schema.graphql is up to date.');
} else {
  writeFileSync(target, sdl);
  console.log(`wrote ${target}`);
}
