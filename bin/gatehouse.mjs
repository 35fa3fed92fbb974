#!/usr/bin/env node
/**
 * The `gatehouse` command. The package ships TypeScript sources, so tsx compiles them on load;
 * the resolve hook lets a user's schema file anywhere on disk import 'gatehouse/schema'.
 */
import { register as registerHooks } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
// Registered after tsx so it runs first (hooks chain last-in, first-out) and hands tsx a
// specifier it can resolve.
registerHooks('../src/cli/resolve-hooks.mjs', import.meta.url);

const { main } = await import('../src/cli/main.ts');
const code = await main(process.argv.slice(2));
// Exit as soon as the command is done: a library's stray timer must not hold the process (the
// Prisma schema engine's WASM leaves a 10 s one behind after every migration run).
await Promise.all([process.stdout, process.stderr].map(stream => new Promise(resolve => stream.write('', resolve))));
process.exit(code);
