#!/usr/bin/env node
/**
 * The `gatehouse` command. The package ships TypeScript sources: the server commands run a build
 * of them (bin/server-build.mjs), the others compile them through tsx on load, where the resolve
 * hook lets a user's schema file anywhere on disk import 'gatehouse/schema'.
 */

// First, before anything loads: an older Node would fail later, or worse, seem to run.
const { refuseUnsupportedNode } = await import('./node-version.mjs');
refuseUnsupportedNode();

// What Gatehouse writes (the embedded database, its lock and secret, stored files, the cluster
// templates) is the user's alone: new files 0600 and directories 0700 unless a mode says otherwise.
process.umask(0o077);

// The server commands run with the Node flags and environment of bin/server-flags.mjs: re-executed
// in place (same pid, same stdio) with what is missing, before anything loads (glibc reads its
// malloc settings only at exec). GATEHOUSE_NO_REEXEC=1 opts out.
const SERVER_COMMANDS = new Set(['serve', 'idp']);
if (SERVER_COMMANDS.has(process.argv[2]) && typeof process.execve === 'function' && process.env.GATEHOUSE_NO_REEXEC !== '1') {
  const { serverEnv, serverNodeFlags } = await import('./server-flags.mjs');
  const missing = serverNodeFlags().filter(flag => !process.execArgv.includes(flag));
  const env = serverEnv();
  if (missing.length || Object.keys(env).length)
    process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...env });
}

// V8's compiled code for every module loaded, kept on disk between runs (in the OS temp dir).
(await import('node:module')).enableCompileCache?.();

/** The CLI from sources through tsx (every command but the servers, and their fallback). */
async function fromSources() {
  const { register: registerHooks } = await import('node:module');
  const { register: registerTsx } = await import('tsx/esm/api');
  registerTsx();
  // Registered after tsx so it runs first (hooks chain last-in, first-out) and hands tsx a
  // specifier it can resolve.
  registerHooks('../src/cli/resolve-hooks.mjs', import.meta.url);
  return import('../src/cli/main.ts');
}

/** The servers start from a build of the sources (bin/server-build.mjs); GATEHOUSE_NO_BUILD=1 runs them from sources. */
async function fromBuild() {
  const { serverBuild } = await import('./server-build.mjs');
  const file = await serverBuild();
  if (!file) return undefined;
  // Stack traces in logs name the source files and lines: the build's map, not those of the npm
  // packages left outside it (each read and indexed as its module loads). When Gatehouse is itself
  // installed under node_modules, its build is there too.
  const { setSourceMapsSupport } = await import('node:module');
  if (setSourceMapsSupport) setSourceMapsSupport(true, { nodeModules: /[\\/]node_modules[\\/]/.test(file), generatedCode: false });
  else process.setSourceMapsEnabled(true);
  return import(file);
}

const built = SERVER_COMMANDS.has(process.argv[2]) && process.env.GATEHOUSE_NO_BUILD !== '1' ? await fromBuild() : undefined;
const { main } = built ?? (await fromSources());
const code = await main(process.argv.slice(2));
// Exit as soon as the command is done: a library's stray timer must not hold the process (the
// Prisma schema engine's WASM leaves a 10 s one behind after every migration run).
await Promise.all([process.stdout, process.stderr].map(stream => new Promise(resolve => stream.write('', resolve))));
process.exit(code);
