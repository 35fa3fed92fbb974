/**
 * Issue #25 item 1: the SDK installs and runs anywhere, tested the way users get it. `npm pack`
 * makes the tarballs of @gatehouse/client, @gatehouse/schema and gatehouse itself (building the
 * light packages as publishing would); each is installed with npm, from its cache where it can,
 * into a scratch project outside the repository. There:
 * - the light packages bring nothing but themselves and zod;
 * - an app's script runs under plain `node` against a real server this test starts: it defines
 *   its schema, deploys it, mints a test user, creates a resource, lists it, writes and reads a
 *   row, opens a live feed and meets a typed error;
 * - esbuild (for the browser) and Vite bundle that script with no TypeScript step of their own, and
 *   the bundles run;
 * - tsc type-checks strict consumers (a Node app, a bundler's browser app) against the
 *   declarations, library checks on, and the types are real (`@ts-expect-error` lines must err);
 * - the server's tarball installs (its postinstall generates Prisma's client where npm put Prisma)
 *   and `gatehouse/client` and `gatehouse/schema` work from it under plain node too.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, startTestApp } from '../helpers/app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const NODE_TYPES = path.dirname(path.dirname(require.resolve('@types/node/package.json')));

/** npm's own settings, without those `npm test` exports for the repository (its prefix, workspace, package). */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  for (const kept of ['npm_config_cache', 'npm_config_userconfig', 'npm_config_registry']) {
    if (process.env[kept]) env[kept] = process.env[kept];
  }
  return env;
}

async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    return await promisify(execFile)(command, args, { ...options, env: options.env ?? npmEnv(), maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${[command, ...args].join(' ')} failed in ${options.cwd}:\n${stderr}\n${stdout}`.slice(0, 20_000));
  }
}

const npm = (args: string[], cwd: string) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd });
/** Installs from npm's cache when it holds the package (CI's `npm ci` filled it), else from the registry. */
const install = (specs: string[], cwd: string) => npm(['install', '--prefer-offline', ...specs], cwd);

interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

/** The installed tree of a project, as npm recorded it: package paths and their total bytes. */
async function installedTree(project: string): Promise<{ packages: string[]; bytes: number }> {
  const lock = JSON.parse(await readFile(path.join(project, 'node_modules', '.package-lock.json'), 'utf8'));
  const packages = Object.keys(lock.packages).map(key => key.replace(/^.*node_modules\//, ''));
  let bytes = 0;
  for (const entry of await readdir(path.join(project, 'node_modules'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(path.join(entry.parentPath, entry.name))).size;
  }
  return { packages: packages.sort(), bytes };
}

/** An app's script, plain JavaScript: its schema, its deployment, a test user, and the SDK at work. */
const FLOW = `import { createClient, GatehouseError } from '@gatehouse/client';
import { defineSchema } from '@gatehouse/schema';

const gateway = process.env.GATEWAY_URL;
const schema = defineSchema({
  resources: {
    board: resource => {
      resource.visibility('members');
      resource.owns('cards', table => {
        table.text('title').notNull();
        table.timestamps();
        table.access({ read: 'reader', create: 'writer', update: 'creator', delete: 'creator' });
      });
    },
  },
});

async function dev(method, route, body) {
  const res = await fetch(gateway + route, {
    method,
    headers: { authorization: 'Bearer ' + process.env.DEV_TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(method + ' ' + route + ': ' + res.status + ' ' + JSON.stringify(answer));
  return answer;
}

const app = await dev('POST', '/dev/apps', { name: process.env.APP_NAME });
await dev('PUT', '/dev/apps/' + app.id + '/deployments/dev', { schema });
const user = await dev('POST', '/dev/apps/' + app.id + '/test-users', { name: 'ada', env: 'dev' });

const client = createClient({ gatewayUrl: gateway, accessToken: user.token });
const session = await client.auth.getSession();
const board = await client.resource.create('board', { name: 'Launch' });
const boards = await client.resource.list({ type: 'board' });
const cards = client.resource(board.id).table('cards');
await cards.insert({ title: 'Ship it' });
const rows = await cards.select().eq('title', 'Ship it');
const feed = client.resource(board.id).members.live();
const status = await new Promise((resolve, reject) => {
  feed.on('status', s => s === 'live' && resolve(s));
  feed.on('error', reject);
});
feed.close();
const missing = await client.resource('res_missing').get().catch(error => error);
client.close();
console.log(JSON.stringify({
  signedIn: session.authenticated && session.userId === user.user_id,
  boards: boards.map(b => b.name),
  rows: rows.map(r => r.title),
  feed: status,
  error: missing instanceof GatehouseError ? missing.code : String(missing),
}));
`;
const FLOW_RESULT = { signedIn: true, boards: ['Launch'], rows: ['Ship it'], feed: 'live', error: 'resource_not_found' };

/** A strict TypeScript app's use of both packages; each @ts-expect-error must meet an error. */
const CONSUMER = `import { createClient, GatehouseError, type GatehouseClient, type Resource, type Row } from '@gatehouse/client';
import { defineSchema, type SchemaIR } from '@gatehouse/schema';

export const schema: SchemaIR = defineSchema({
  tables: { notes: t => t.text('body').notNull().timestamps() },
  resources: { board: r => r.visibility('members').defaultRole('writer').shares('notes') },
});
// @ts-expect-error: not a column type
defineSchema({ tables: { notes: t => t.varchar('body') } });

const client: GatehouseClient = createClient({ gatewayUrl: 'https://gatehouse.example', accessToken: async () => 'gst_token' });

export async function titles(): Promise<string[]> {
  const board: Resource = await client.resource.create('board', { name: 'Launch' });
  const members: number = board.memberCount;
  const rows: Row[] = await client.resource(board.id).table('notes').select().eq('body', 'x').limit(10);
  // @ts-expect-error: a resource needs a name
  await client.resource.create('board', {});
  // @ts-expect-error: not a role
  await client.resource(board.id).members.invite('usr_1', { role: 'emperor' });
  try {
    await client.resource('res_1').get();
  } catch (error) {
    if (error instanceof GatehouseError) return [error.code, String(error.status + members)];
  }
  return rows.map(row => row.id);
}
`;

/** The strictest usual settings, library checks included. */
const STRICT = {
  strict: true,
  noEmit: true,
  skipLibCheck: false,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  target: 'ES2022',
};
const TSCONFIGS = {
  // A Node.js app: Node's own resolution and types, no DOM.
  'tsconfig.node.json': { ...STRICT, module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], typeRoots: [NODE_TYPES] },
  // A browser app built by a bundler (Vite's defaults): the DOM, no Node types.
  'tsconfig.browser.json': { ...STRICT, module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: [] },
};

let ctx: TestContext;
let developerToken: string;
let scratch: string;
let light: string;
let server: string;
const packed: Record<string, Packed> = {};

/** Runs the app's script with `node` in `project`, against this test's server. */
async function runFlow(project: string, file: string) {
  const env = { ...npmEnv(), GATEWAY_URL: ctx.url, DEV_TOKEN: developerToken, APP_NAME: `${path.basename(project)} ${file}` };
  const { stdout } = await run(process.execPath, [file], { cwd: project, env });
  return JSON.parse(stdout);
}

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'gatehouse-packages-'));
  light = path.join(scratch, 'app');
  server = path.join(scratch, 'server-app');
  const tarballs = path.join(scratch, 'tarballs');
  for (const dir of [light, server, tarballs]) await mkdir(dir);
  for (const dir of [light, server]) {
    await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name: path.basename(dir), private: true, type: 'module' }));
  }

  // As `npm publish` would: each package's prepare (the light ones) or prepack (the root) builds first.
  const { stdout } = await npm(['pack', '--workspaces', '--include-workspace-root', '--pack-destination', tarballs, '--json'], ROOT);
  // The JSON list follows whatever the build scripts printed.
  for (const entry of JSON.parse(stdout.slice(stdout.search(/^\[/m))) as Packed[]) packed[entry.name] = entry;
  const tarball = (name: string) => path.join(tarballs, packed[name].filename);

  [ctx] = await Promise.all([
    startTestApp({ listen: true }),
    install([tarball('@gatehouse/client'), tarball('@gatehouse/schema')], light),
    install([tarball('gatehouse')], server),
  ]);
  developerToken = (await ctx.app.services.principals.createDeveloperToken('packages@example.test')).token;
  await writeFile(path.join(light, 'flow.mjs'), FLOW);
  await writeFile(
    path.join(server, 'flow.mjs'),
    FLOW.replaceAll("'@gatehouse/client'", "'gatehouse/client'").replaceAll("'@gatehouse/schema'", "'gatehouse/schema'"),
  );
}, 900_000);

afterAll(async () => {
  await ctx?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('the light packages, installed from their tarballs', () => {
  it('bring nothing but themselves and zod, and ship only their build', async () => {
    const { packages, bytes } = await installedTree(light);
    expect(packages).toEqual(['@gatehouse/client', '@gatehouse/schema', 'zod']);
    expect(bytes).toBeLessThan(12 * 1024 * 1024);
    for (const name of ['@gatehouse/client', '@gatehouse/schema']) {
      const files = packed[name].files.map(f => f.path);
      expect(files.filter(f => !f.startsWith('dist/')).sort(), name).toEqual(['README.md', 'package.json']);
      expect(files, name).toContain('dist/index.js');
      expect(
        files.some(f => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        name,
      ).toBe(false);
    }
    // One release: the server and the light packages carry one version.
    expect(new Set(Object.values(packed).map(p => p.version)).size).toBe(1);
    console.info(
      Object.values(packed)
        .map(p => `${p.name}: packed ${p.size} B, unpacked ${p.unpackedSize} B, ${p.files.length} files`)
        .concat(`light install: ${packages.length} packages, ${bytes} B`)
        .join('\n'),
    );
  });

  it('run an app under plain node against a real server', async () => {
    expect(await runFlow(light, 'flow.mjs')).toEqual(FLOW_RESULT);
  });

  it('bundle with esbuild for the browser, no TypeScript step, and the bundle runs', async () => {
    const result = await build({
      entryPoints: [path.join(light, 'flow.mjs')],
      absWorkingDir: light,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      outfile: path.join(light, 'flow.bundle.mjs'),
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter(input => /\.[cm]?tsx?$/.test(input))).toEqual([]);
    expect(inputs).toEqual(expect.arrayContaining([expect.stringContaining('node_modules/@gatehouse/client/dist/index.js')]));
    expect(await runFlow(light, 'flow.bundle.mjs')).toEqual(FLOW_RESULT);
  });

  it('bundle with Vite (the one vitest runs on), no TypeScript step, and the bundle runs', async () => {
    const vite: typeof import('vite') = await import(createRequire(require.resolve('vitest/package.json')).resolve('vite'));
    const outDir = path.join(light, 'vite-dist');
    await vite.build({
      root: light,
      configFile: false,
      logLevel: 'warn',
      build: { outDir, target: 'es2022', minify: false, lib: { entry: path.join(light, 'flow.mjs'), formats: ['es'], fileName: 'flow' } },
    });
    const code = await readFile(path.join(outDir, 'flow.js'), 'utf8');
    expect(code).not.toMatch(/^import\s/m);
    expect(await runFlow(light, 'vite-dist/flow.js')).toEqual(FLOW_RESULT);
  });

  // Each @ts-expect-error must meet an error (else TS2578), so the types are real, not `any`.
  it('type-check strict consumers, a Node app and a browser app, library checks on', async () => {
    await writeFile(path.join(light, 'consumer.ts'), CONSUMER);
    await Promise.all(
      Object.entries(TSCONFIGS).map(async ([file, compilerOptions]) => {
        await writeFile(path.join(light, file), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
        await run(process.execPath, [TSC, '-p', file], { cwd: light });
      }),
    );
  });
});

describe('the server package, installed from its tarball', () => {
  it('installs cleanly: its postinstall generates the Prisma client where npm put Prisma', async () => {
    const installed = path.join(server, 'node_modules', 'gatehouse');
    expect((await stat(path.join(installed, 'src', 'generated', 'prisma', 'client.ts'))).isFile()).toBe(true);
    const files = packed.gatehouse.files.map(f => f.path);
    expect(files).toEqual(expect.arrayContaining(['packages/client/dist/index.js', 'packages/schema/dist/index.js', 'bin/gatehouse.mjs']));
    expect(files.filter(f => f.startsWith('test/') || f.endsWith('.spec.ts') || f.startsWith('src/generated/'))).toEqual([]);
    const { stdout } = await run(path.join(server, 'node_modules', '.bin', 'gatehouse'), ['--version'], { cwd: server });
    expect(stdout.trim()).toBe(`gatehouse ${packed.gatehouse.version}`);
  });

  it('gatehouse/client and gatehouse/schema run the same app under plain node', async () => {
    expect(await runFlow(server, 'flow.mjs')).toEqual(FLOW_RESULT);
  });
});
