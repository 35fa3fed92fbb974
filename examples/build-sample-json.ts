/** Writes examples/sample-schema.json, the IR of examples/sample-schema.ts (a spec checks they agree). */
import { writeFileSync } from 'node:fs';
import schema from './sample-schema.js';

const target = new URL('./sample-schema.json', import.meta.url);
writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
