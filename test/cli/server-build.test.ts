/**
 * The server commands start from a build of `src/` (bin/server-build.mjs): built on first use,
 * reused while the sources are unchanged, built again after any change, and never fatal (null
 * sends the bin back to the sources). Run on a copy of the sources, so this repository's own
 * build directory and sources are left alone.
 */
import { builtinModules } from 'node:module';
import { cp, mkdtemp, readFile, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTERNAL, serverBuild } from '../../bin/server-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the server build', () => {
  let copy: string;
  beforeAll(async () => {
    copy = await mkdtemp(path.join(os.tmpdir(), 'gh-server-build-'));
    await cp(path.join(root, 'src'), path.join(copy, 'src'), { recursive: true });
    await cp(path.join(root, 'package.json'), path.join(copy, 'package.json'));
    await cp(path.join(root, 'prisma'), path.join(copy, 'prisma'), { recursive: true });
    await symlink(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  }, 60_000);
  afterAll(() => rm(copy, { recursive: true, force: true }));

  const builds = async () => (await readdir(path.join(copy, 'dist', 'server'))).filter(name => !name.startsWith('.')).sort();

  it('is built once per state of the sources and runs the CLI from the package root', async () => {
    const first = (await serverBuild(copy)) as string;
    expect(first).toMatch(new RegExp(`^${copy}/dist/server/[0-9a-f]{16}/main\\.mjs$`));
    expect(await serverBuild(copy)).toBe(first);
    expect(await builds()).toHaveLength(1);
    // The bundle finds package.json (and with it prisma/) from dist/server/<key>/.
    const { version } = await import(pathToFileURL(first).href);
    expect(version()).toBe((await import(pathToFileURL(path.join(root, 'package.json')).href, { with: { type: 'json' } })).default.version);
  }, 60_000);

  it('is built again when a source file changes, keeping the newest three builds', async () => {
    const seen = new Set([await serverBuild(copy)]);
    const touched = path.join(copy, 'src', 'config.ts');
    for (let i = 1; i <= 3; i++) {
      await utimes(touched, new Date(), new Date(Date.now() + i * 1000));
      seen.add(await serverBuild(copy));
    }
    expect(seen.size).toBe(4);
    expect(await builds()).toHaveLength(3);
  }, 60_000);

  it('bundles the npm packages but those that must load from node_modules (EXTERNAL)', async () => {
    const dir = path.dirname((await serverBuild(copy)) as string);
    const { outputs } = JSON.parse(await readFile(path.join(dir, 'metafile.json'), 'utf8')) as {
      outputs: Record<string, { imports: { path: string; external?: boolean }[] }>;
    };
    const loaded = new Set(Object.values(outputs).flatMap(output => output.imports.filter(i => i.external).map(i => i.path)));
    const packageOf = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const unexpected = [...loaded].filter(s => !s.startsWith('node:') && !builtinModules.includes(packageOf(s)) && !EXTERNAL.test(packageOf(s)));
    expect(unexpected).toEqual([]);
    // The bundled ones are really inside: GraphQL and Yoga are not loaded by name.
    expect([...loaded].map(packageOf)).not.toContain('graphql');
    expect([...loaded].map(packageOf)).toContain('@electric-sql/pglite');
  }, 60_000);

  it('is built again after an npm install (the lock file changes)', async () => {
    const lock = path.join(copy, 'package-lock.json');
    await writeFile(lock, '{}\n');
    const before = await serverBuild(copy);
    await utimes(lock, new Date(), new Date(Date.now() + 60_000));
    expect(await serverBuild(copy)).not.toBe(before);
  }, 60_000);

  it('answers null, not an error, when the sources do not build (the bin then runs them through tsx)', async () => {
    await writeFile(path.join(copy, 'src', 'broken.ts'), 'export const = ;\n');
    await writeFile(path.join(copy, 'src', 'cli', 'main.ts'), `import '../broken.js';\n`, { flag: 'a' });
    expect(await serverBuild(copy)).toBeNull();
  }, 60_000);
});
