/**
 * The server commands (`serve`, `idp`) start from one JavaScript file built from `src/` with
 * esbuild, instead of compiling every module through tsx's loader on each start: measured 2.3 s
 * to healthy from sources against 0.8 s from the build when it came (bench/startup.ts), and less
 * memory.
 *
 * npm packages are bundled too, except those listed in EXTERNAL: Node resolving, reading and linking
 * each of the hundreds of files they would load was ~0.3 s of a 0.9 s restart (0.6-0.7 s since).
 *
 * The build is kept in `dist/server/<key>/` under a key made of every source file's path, size and
 * modification time, npm's lock files and this file, so an edit, a checkout, an upgrade, an
 * `npm install` or a change of the options builds again on the next start (about 1 s) and nothing
 * stale is ever run.
 * Any failure (no esbuild, a read-only install) falls back to the sources through tsx.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Packages loaded from node_modules as installed, not bundled: they read files beside their modules
 * (WebAssembly, engines, views, worker scripts), are large and loaded lazily, must be the one
 * instance another external package uses (pg, with Prisma's adapter), or are optional peers.
 */
export const EXTERNAL =
  /^(@electric-sql\/pglite|@prisma\/|prisma$|pglite-prisma-adapter|pino|thread-stream|sonic-boom|oidc-provider|@aws-sdk\/|@smithy\/|ioredis|@graphql-yoga\/redis-event-target|tsx|esbuild|pg$|pg-|bufferutil|utf-8-validate)/;

const keepExternal = {
  name: 'gatehouse-external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, args => {
      if (args.path.startsWith('node:')) return { path: args.path, external: true };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return EXTERNAL.test(name) ? { path: args.path, external: true } : undefined;
    });
  },
};

/**
 * npm's record of the installed tree (rewritten by every install) in the node_modules the bundled
 * packages come from, which is the parent project's when Gatehouse is installed as a dependency.
 */
function installedTreeRecord(root) {
  try {
    const graphql = createRequire(path.join(root, 'package.json')).resolve('graphql/package.json');
    return path.join(graphql.slice(0, graphql.lastIndexOf(`${path.sep}node_modules${path.sep}`)), 'node_modules', '.package-lock.json');
  } catch {
    return null;
  }
}

/** The key of the current sources, installed packages and build options: any added, removed, resized or touched file changes it. */
async function buildKey(root) {
  const sources = path.join(root, 'src');
  const entries = await readdir(sources, { recursive: true, withFileTypes: true });
  const files = entries.filter(entry => entry.isFile()).map(entry => path.join(entry.parentPath, entry.name));
  const stats = await Promise.all(files.map(async file => [path.relative(sources, file), await stat(file)]));
  // This file is part of the key, so a change of the build's options builds again too.
  const hash = createHash('sha256')
    .update(`${process.version}\n`)
    .update(await readFile(fileURLToPath(import.meta.url)));
  for (const record of [path.join(root, 'package-lock.json'), installedTreeRecord(root)]) {
    const { size, mtimeMs } = (record && (await stat(record).catch(() => null))) ?? {};
    hash.update(`${record}\0${size}\0${mtimeMs}\n`);
  }
  for (const [file, { size, mtimeMs }] of stats.sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`${file}\0${size}\0${mtimeMs}\n`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * esbuild's options for the server (and for the benchmark children, bench/spawn-server.ts, so they
 * run as users run Gatehouse): ESM for this Node, npm packages bundled but EXTERNAL, no keepNames.
 */
export function buildOptions(outdir) {
  return {
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Each dynamic import stays a chunk of its own, loaded when first needed along with the
    // packages it imports (the embedded database, the identity provider, the schema engine).
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    plugins: [keepExternal],
    // Bundled CommonJS modules call require (builtins, optional peers).
    banner: { js: "import { createRequire as __ghCreateRequire } from 'node:module'; const require = __ghCreateRequire(import.meta.url);" },
    // No keepNames: it would set `.name` on every named closure as it is made, 8 times per GraphQL
    // request inside the bundled packages. Unset, a name changes only where two modules' top-level
    // names collide (a few functions, no class of src/), and stack traces are mapped.
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'silent',
  };
}

/** The built CLI entry for the current sources, building it first when missing; null when it cannot be had. */
export async function serverBuild(root = packageRoot) {
  const sources = path.join(root, 'src');
  const outDir = path.join(root, 'dist', 'server');
  try {
    const key = await buildKey(root);
    const dir = path.join(outDir, key);
    const entry = path.join(dir, 'main.mjs');
    if (
      await stat(entry).then(
        () => true,
        () => false,
      )
    )
      return entry;
    const { build } = await import('esbuild');
    // Built in a directory of its own and renamed: of two starts building at once, one rename wins
    // and the other finds the same build in place.
    const scratch = path.join(outDir, `.building-${process.pid}`);
    try {
      const { metafile } = await build({ ...buildOptions(scratch), entryPoints: [path.join(sources, 'cli', 'main.ts')], metafile: true });
      // What went into the build and what it loads from node_modules (tests read it; so can people).
      await writeFile(path.join(scratch, 'metafile.json'), JSON.stringify(metafile));
      await rename(scratch, dir).catch(error => {
        if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      });
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
    await removeOldBuilds(outDir);
    return entry;
  } catch {
    return null;
  }
}

/**
 * Keeps the newest few builds. A server loads its chunks lazily, so the build of one still running
 * should stay; a server started from a build older than the last KEPT_BUILDS would fail its first
 * lazy load and need a restart.
 */
const KEPT_BUILDS = 3;

async function removeOldBuilds(outDir) {
  const names = (await readdir(outDir).catch(() => [])).filter(name => !name.startsWith('.'));
  const dated = await Promise.all(names.map(async name => [name, (await stat(path.join(outDir, name))).mtimeMs]));
  const old = dated.sort((a, b) => b[1] - a[1]).slice(KEPT_BUILDS);
  await Promise.all(old.map(([name]) => rm(path.join(outDir, name), { recursive: true, force: true })));
}
