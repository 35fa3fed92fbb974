/**
 * The `gatehouse` CLI against a server started here. Commands run in-process through main(), each
 * with only the environment given (as a child with a clean environment would have), its own output
 * buffers, directory and signal source. Three cases spawn `node bin/gatehouse.mjs` to prove the
 * shipped command end to end: --help, a TypeScript schema outside the repository that imports
 * 'gatehouse/schema' (the bin's resolve hooks), and `serve` holding a data directory (its own pid
 * in the lock, released on SIGTERM).
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { type App, buildApp } from '../../src/server.js';
import { createPostgresScratchDatabase, createTestDatabase, postgresTestUrl, type ScratchPostgresDatabase } from '../helpers/db.js';

const postgresUrl = await postgresTestUrl();

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'bin', 'gatehouse.mjs');
const sampleJson = path.join(root, 'examples', 'sample-schema.json');
/** For schema files run in-process: vitest has no bin resolve hooks for 'gatehouse/schema'. */
const schemaModule = path.join(root, 'src', 'schema', 'index.ts');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command line in-process to completion. */
async function gatehouse(args: string[], env: Record<string, string> = {}, cwd = root): Promise<Run> {
  const run = startGatehouse(args, env, cwd);
  const code = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

/**
 * Starts a command line in-process: `line` is its first line on stdout, `signal` delivers SIGTERM
 * or SIGINT as the process would receive it, `exited` is its exit code.
 */
function startGatehouse(args: string[], env: Record<string, string> = {}, cwd = root) {
  let stdout = '';
  let stderr = '';
  let firstLine!: (line: string) => void;
  const line = new Promise<string>(resolve => (firstLine = resolve));
  const signals = new EventEmitter();
  let finished = false;
  const exited = main(
    args,
    { ...env },
    {
      stdout: { write: (text: string) => ((stdout += text), stdout.includes('\n') && firstLine(stdout.split('\n')[0])) },
      stderr: { write: (text: string) => (stderr += text) },
      cwd,
      signals,
      exit: code => {
        throw new Error(`the command asked to exit at once with ${code}`);
      },
    },
  );
  exited.finally(() => (finished = true)).catch(() => {});
  return {
    exited,
    /** The first line, or a rejection naming the exit code when the command ends without printing one. */
    get line() {
      return Promise.race([line, exited.then(code => Promise.reject(new Error(`gatehouse ${args[0]} exited with ${code}: ${stderr}`)))]);
    },
    /** Sent only while it runs (a second signal while it stops would ask for an immediate exit). */
    signal: (name: 'SIGTERM' | 'SIGINT') => finished || signals.emit(name),
    stdout: () => stdout,
    stderr: () => stderr,
  };
}

/** Spawns the real bin (only what the command needs in its environment: nothing leaks in from the developer's shell). */
function spawnCli(args: string[], env: Record<string, string> = {}, cwd = root) {
  const base = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TMPDIR: tmpdir() };
  return spawn(process.execPath, [bin, ...args], { cwd, env: { ...base, ...env } });
}

/** Runs the bin to completion, asynchronously (a sync spawn would block this process's server). */
function spawnToCompletion(args: string[], env: Record<string, string> = {}, cwd = root): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, env, cwd);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', chunk => (stdout += chunk));
    child.stderr.on('data', chunk => (stderr += chunk));
    child.on('error', reject);
    child.on('close', code => resolve({ code, stdout, stderr }));
  });
}

/** A direct API call, to compare the CLI with the server it talks to. */
async function post(path: string, token: string, body: unknown) {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The one JSON object a --json run prints. */
function parseJson(run: Run) {
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout);
}

const SCHEMA_TS = `import { defineSchema } from 'gatehouse/schema';

export default defineSchema({
  tables: { notes: t => t.text('body').notNull().timestamps() },
  resources: { board: r => r.visibility('members').defaultRole('writer').shares('notes') },
});
`;

let app: App;
let database: Database;
let url: string;
let developer: { developerId: string; token: string };
let api: Record<string, string>;
/** Outside the repository: no node_modules/gatehouse above it, no package.json. */
let scratch: string;

beforeAll(async () => {
  // The migrated template database: no initdb or migration run here.
  database = await createTestDatabase();
  app = await buildApp({ config: loadConfig({ DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'silent' }), database });
  ({ url } = await app.start());
  developer = await app.services.principals.createDeveloperToken('cli@example.test');
  api = { GATEHOUSE_URL: url, GATEHOUSE_DEV_TOKEN: developer.token };
  scratch = await mkdtemp(path.join(tmpdir(), 'gatehouse-cli-'));
});

afterAll(async () => {
  await app?.stop();
  await database?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('idp (the identity provider on its own port)', () => {
  const gatewayValues = {
    OIDC_CONSENT_URL: 'http://127.0.0.1:4000/auth/consent',
    OIDC_INTROSPECTION_CLIENT_ID: 'gatehouse-gateway',
    OIDC_INTROSPECTION_CLIENT_SECRET: 'a-secret-of-enough-length',
    OIDC_ADMIN_TOKEN: 'an-admin-token-of-enough-length',
  };
  /** The gateway's database both runs share (the first migrates it). */
  let gatewayDatabase: ScratchPostgresDatabase | undefined;
  beforeAll(async () => {
    if (postgresUrl) gatewayDatabase = await createPostgresScratchDatabase();
  });
  afterAll(() => gatewayDatabase?.drop());

  it('names every missing variable and exits 2', async () => {
    const run = await gatehouse(['idp', '--json']);
    expect(run.code).toBe(2);
    const body = parseJson(run);
    expect(body.error).toBe('invalid_config');
    for (const name of ['DATABASE_URL', 'OIDC_CONSENT_URL', 'OIDC_INTROSPECTION_CLIENT_ID', 'OIDC_ADMIN_TOKEN']) expect(body.message).toContain(name);
  });

  it.skipIf(!postgresUrl)(
    'IDP_PORT=0: takes the issuer from the port it bound, serves discovery from the shared database, stops cleanly on SIGTERM',
    async () => {
      const idp = startGatehouse(['idp', '--json'], { ...gatewayValues, DATABASE_URL: gatewayDatabase!.url, IDP_PORT: '0', LOG_LEVEL: 'silent' });
      try {
        const { url: served, issuer } = JSON.parse(await idp.line);
        expect(served).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);
        expect(issuer).toBe(served);
        const discovery = (await (await fetch(`${served}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
        expect(discovery).toMatchObject({
          issuer,
          authorization_endpoint: `${issuer}/oauth2/auth`,
          token_endpoint: `${issuer}/oauth2/token`,
          introspection_endpoint: `${issuer}/oauth2/introspect`,
          code_challenge_methods_supported: ['S256'],
        });
        idp.signal('SIGTERM');
        expect(await idp.exited).toBe(0);
      } finally {
        idp.signal('SIGTERM');
        await idp.exited.catch(() => {});
      }
    },
  );

  it.skipIf(!postgresUrl)('an explicit IDP_ISSUER is the issuer, whatever port it binds', async () => {
    const issuer = 'https://id.example.test';
    const idp = startGatehouse(['idp', '--json'], {
      ...gatewayValues,
      DATABASE_URL: gatewayDatabase!.url,
      IDP_PORT: '0',
      IDP_ISSUER: issuer,
      LOG_LEVEL: 'silent',
    });
    try {
      const printed = JSON.parse(await idp.line);
      expect(printed.issuer).toBe(issuer);
      const discovery = (await (await fetch(`${printed.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(discovery.issuer).toBe(issuer);
    } finally {
      idp.signal('SIGTERM');
      expect(await idp.exited).toBe(0);
    }
  });
});

describe('migrate and dev-token create (database bootstrap)', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'gatehouse-cli-data-'));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('migrate applies every migration to a new data directory, then nothing', async () => {
    const first = await gatehouse(['migrate', '--json'], { DATA_DIR: dataDir });
    expect(first.code).toBe(0);
    expect(parseJson(first).applied.length).toBeGreaterThan(0);

    const again = await gatehouse(['migrate'], { DATA_DIR: dataDir });
    expect(again.code).toBe(0);
    expect(again.stdout.trim()).toBe('The database is up to date.');
  }, 120_000);

  it('dev-token create prints only a developer token; --json adds the developer', async () => {
    const plain = await gatehouse(['dev-token', 'create', '--developer', 'Boot@Example.test'], { DATA_DIR: dataDir });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^ghd_\S+\n$/);

    const json = await gatehouse(['dev-token', 'create', '--developer', 'boot@example.test', '--json'], { DATA_DIR: dataDir });
    expect(json.code).toBe(0);
    const body = parseJson(json);
    expect(Object.keys(body).sort()).toEqual(['developerId', 'email', 'token']);
    expect(body.email).toBe('boot@example.test');
    expect(body.token).toMatch(/^ghd_/);
    expect(body.token).not.toBe(plain.stdout.trim());
  }, 120_000);

  it('wallet credit tops up a developer opening the database itself (no server holds it)', async () => {
    const run = await gatehouse(['wallet', 'credit', '--developer', 'boot@example.test', '--usd', '10', '--json'], { DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    // The starting credit ($5) first, then the top-up.
    expect(parseJson(run)).toMatchObject({ balanceUsd: '15.00' });
    const bad = await gatehouse(['wallet', 'credit', '--developer', 'boot@example.test', '--usd', '-3'], { DATA_DIR: dataDir });
    expect(bad.code).toBe(2);
  }, 120_000);

  it('item 28: with GATEHOUSE_URL naming a server that does not hold DATA_DIR, dev-token create refuses instead of writing where it cannot be seen', async () => {
    const run = await gatehouse(['dev-token', 'create', '--developer', 'trap@example.test'], { DATA_DIR: dataDir, GATEHOUSE_URL: url });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`none holds DATA_DIR ${dataDir}`);
    expect(run.stderr).toContain(`GATEHOUSE_URL=${url}`);
    // Nothing answering there: the command writes DATA_DIR itself and says so.
    const alone = await gatehouse(['dev-token', 'create', '--developer', 'alone@example.test'], {
      DATA_DIR: dataDir,
      GATEHOUSE_URL: 'http://127.0.0.1:9',
    });
    expect(alone.code).toBe(0);
    expect(alone.stderr).toBe(
      `gatehouse: developer token for alone@example.test created in the embedded database in DATA_DIR ${dataDir} (no server holds it).\n`,
    );
  }, 120_000);

  it('dev-token create rejects a bad email as a usage error without opening the database', async () => {
    const run = await gatehouse(['dev-token', 'create', '--developer', 'not-an-email'], { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: --developer must be an email address/);
  });

  it('while a real `gatehouse serve` holds DATA_DIR: dev-token create goes through it, migrate is refused naming its pid; SIGTERM releases', async () => {
    // A child process (the bin end to end): the lock must name another live process. PORT=0: the
    // OS picks the port and serve prints the URL it listens on.
    const child = spawnCli(['serve', '--json'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' });
    const exited = new Promise(resolve => child.on('close', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', chunk => resolve(String(chunk)));
        child.once('close', code => reject(new Error(`serve exited with ${code}`)));
      });
      const { url: served } = JSON.parse(line);
      expect((await fetch(`${served}/healthz`)).status).toBe(200);
      const lock = JSON.parse(await readFile(path.join(dataDir, 'gatehouse.lock'), 'utf8'));
      expect(lock).toMatchObject({ pid: child.pid, command: 'serve', url: served });
      // The bin re-executes serve in place (same pid, above) with the server's Node flags (bin/server-flags.mjs).
      const cmdline = await readFile(`/proc/${child.pid}/cmdline`, 'utf8');
      expect(cmdline).toMatch(/--v8-pool-size=[1-4]\0/);
      if (Number(process.versions.node.split('.')[0]) < 24) expect(cmdline).toContain('--experimental-async-context-frame');
      // ... and its environment: glibc's fixed mmap threshold (4 MiB unless the user set one).
      const environ = await readFile(`/proc/${child.pid}/environ`, 'utf8');
      expect(environ).toContain(`\0MALLOC_MMAP_THRESHOLD_=${process.env.MALLOC_MMAP_THRESHOLD_ ?? 4 * 1024 * 1024}\0`);

      const created = await gatehouse(['dev-token', 'create', '--developer', 'while-serving@example.test', '--json'], { DATA_DIR: dataDir });
      expect(created.code).toBe(0);
      const { token } = parseJson(created);
      // Item 28: it says which server made it; GATEHOUSE_URL naming another server (this file's own) is refused, naming both.
      const said = await gatehouse(['dev-token', 'create', '--developer', 'while-serving@example.test'], {
        DATA_DIR: dataDir,
        GATEHOUSE_URL: served,
      });
      expect(said.code).toBe(0);
      expect(said.stderr).toBe(
        `gatehouse: developer token for while-serving@example.test created through the server at ${served} (pid ${child.pid}), which holds DATA_DIR ${dataDir}.\n`,
      );
      const elsewhere = await gatehouse(['dev-token', 'create', '--developer', 'while-serving@example.test', '--json'], {
        DATA_DIR: dataDir,
        GATEHOUSE_URL: url,
      });
      expect(elsewhere.code).toBe(2);
      expect(parseJson(elsewhere)).toEqual({
        error: 'server_mismatch',
        message: expect.stringContaining(`held by the server at ${served} (pid ${child.pid}), not the one GATEHOUSE_URL names`),
      });
      // The token is in the server's database, not in a copy that a second process threw away.
      const apps = await fetch(`${served}/dev/apps`, { headers: { authorization: `Bearer ${token}` } });
      expect(apps.status).toBe(200);
      const credited = await gatehouse(['wallet', 'credit', '--developer', 'while-serving@example.test', '--usd', '2.5', '--json'], {
        DATA_DIR: dataDir,
      });
      expect(credited.code).toBe(0);
      expect(parseJson(credited)).toMatchObject({ balanceUsd: '7.50' });

      const migrated = await gatehouse(['migrate', '--json'], { DATA_DIR: dataDir });
      expect(migrated.code).toBe(1);
      expect(parseJson(migrated)).toEqual({
        error: 'data_dir_in_use',
        message: expect.stringContaining(`in use by gatehouse serve pid ${child.pid}`),
      });

      // The endpoint wants the secret from DATA_DIR.
      const guessed = await fetch(`${served}/dev/bootstrap/developer-token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-gatehouse-bootstrap-secret': 'guess' },
        body: JSON.stringify({ developer: 'x@example.test' }),
      });
      expect(guessed.status).toBe(403);
      expect(((await guessed.json()) as { error: string }).error).toBe('bootstrap_secret_mismatch');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(readFile(path.join(dataDir, 'gatehouse.lock'))).rejects.toThrow(/ENOENT/);
      await expect(readFile(path.join(dataDir, 'bootstrap.secret'))).rejects.toThrow(/ENOENT/);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('apps, deploy and test-session over HTTP', () => {
  let appId: string;

  it('apps create prints the app; --json prints the server object', async () => {
    const json = await gatehouse(
      ['apps', 'create', 'CLI app', '--origin', 'http://localhost:5173', '--redirect-uri', 'http://localhost:5173/callback', '--json'],
      api,
    );
    expect(json.code).toBe(0);
    const app = parseJson(json);
    expect(app).toMatchObject({ name: 'CLI app', origins: ['http://localhost:5173'], environments: [] });
    expect(app.id).toMatch(/^app_/);
    appId = app.id;

    const text = await gatehouse(['apps', 'create', 'Second app'], api);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Created app "Second app": app_\S+\n/);
  });

  it('apps list shows both apps', async () => {
    const run = await gatehouse(['apps', 'list', '--json'], api);
    expect(run.code).toBe(0);
    const names = parseJson(run).apps.map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(['CLI app', 'Second app']));
  });

  it("deploys a TypeScript schema outside the repo that imports 'gatehouse/schema' (the real bin, default file name)", async () => {
    await writeFile(path.join(scratch, 'gatehouse.schema.ts'), SCHEMA_TS);
    const text = await spawnToCompletion(['deploy', '--app', appId, '--env', 'dev', '--create-env'], api, scratch);
    expect(text.stderr).toBe(`gatehouse: server ${url} (GATEHOUSE_URL)\n`);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`to app ${appId}, env dev (version 1)`);
    expect(text.stdout).toMatch(/resource types: board\n\s+tables:\s+notes\n$/);
  }, 60_000);

  it('deploys a schema file named relative to the working directory; --json prints the server response', async () => {
    await writeFile(path.join(scratch, 'relative.schema.ts'), SCHEMA_TS.replace("'gatehouse/schema'", JSON.stringify(schemaModule)));
    const json = await gatehouse(['deploy', 'relative.schema.ts', '--app', appId, '--env', 'dev', '--json'], api, scratch);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(parseJson(json)).toMatchObject({ appId, env: 'dev', version: 2, resourceTypes: ['board'], tables: ['notes'] });
  });

  it('deploys a .json schema IR', async () => {
    const ir = JSON.parse(await readFile(sampleJson, 'utf8'));
    const run = await gatehouse(['deploy', sampleJson, '--app', appId, '--env', 'staging', '--create-env', '--json'], api);
    expect(run.code).toBe(0);
    const body = parseJson(run);
    expect(body).toMatchObject({ appId, env: 'staging', version: 1 });
    expect(body.resourceTypes).toEqual(Object.keys(ir.resources).sort());
    expect(body.deploymentId).toEqual(expect.any(String));
  });

  it('reports every problem of an invalid TypeScript schema, exit 1', async () => {
    const file = path.join(scratch, 'invalid.ts');
    await writeFile(
      file,
      `import { defineSchema } from ${JSON.stringify(schemaModule)};\nexport default defineSchema({ resources: { r: (r: any) => r.shares('missing') } });\n`,
    );
    const run = await gatehouse(['deploy', file, '--app', appId, '--env', 'dev'], api);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: Invalid app schema \(1 problem\):\n.*resources\.r\.shares.*missing/);
  });

  it("item 32: deploy --json of a schema the server refuses keeps the server's list of problems", async () => {
    const file = path.join(scratch, 'refused.json');
    await writeFile(file, JSON.stringify({ version: 1, tables: {}, resources: { board: { visibility: { default: 'nope', allow: ['nope'] } } } }));
    const run = await gatehouse(['deploy', file, '--app', appId, '--env', 'dev', '--json'], api);
    expect(run.code).toBe(1);
    const body = parseJson(run);
    expect(body).toMatchObject({ error: 'invalid_schema', message: expect.stringContaining('Invalid app schema') });
    expect(body.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('resources.board'), message: expect.any(String) })]),
    );
  });

  it('test-session prints only a test token; --json prints the docs/api.md §3 response', async () => {
    const plain = await gatehouse(['test-session', '--app', appId, '--user', 'alice'], api);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toMatch(/^gst_\S+\n$/);

    const json = await gatehouse(['test-session', '--app', appId, '--user', 'alice', '--json'], api);
    expect(json.code).toBe(0);
    const session = parseJson(json);
    expect(Object.keys(session).sort()).toEqual(['env', 'expires_at', 'payer', 'token', 'user_id']);
    expect(session).toMatchObject({ env: 'dev', payer: developer.developerId });
    expect(session.user_id).toMatch(new RegExp(`:${appId}:alice$`));
    expect(session.token).toMatch(/^gst_/);

    // The printed token is a working credential for that test user.
    expect((await post('/v1/resources', plain.stdout.trim(), { type: 'board', name: 'Plans' })).status).toBe(200);
  });

  it("budget shows the wallet and each test environment's budget; budget set changes one", async () => {
    const shown = await gatehouse(['budget', '--app', appId, '--json'], api);
    expect(shown.code).toBe(0);
    const view = parseJson(shown);
    expect(view.apps).toEqual([
      expect.objectContaining({ appId, envs: expect.arrayContaining([expect.objectContaining({ env: 'dev', limitUsd: '2.00' })]) }),
    ]);
    const set = await gatehouse(['budget', 'set', '--app', appId, '--env', 'dev', '--usd', '3.5'], api);
    expect(set.code).toBe(0);
    expect(set.stdout).toBe(`Budget of dev in ${appId}: $3.50 a month.\n`);
    const text = await gatehouse(['budget', '--app', appId], api);
    expect(text.stdout).toMatch(/^Wallet: \$\d+\.\d+ \(month \d{4}-\d{2}\)\n/);
    expect(text.stdout).toContain('env dev: $');
    expect(text.stdout).toContain('of $3.50');
  });

  it("budget --by-day prints spend per day by class for the project's environment and the app's signed-in users", async () => {
    const project = await mkdtemp(path.join(scratch, 'spend-'));
    await writeFile(path.join(project, 'gatehouse.json'), JSON.stringify({ app: appId, env: 'dev' }));
    const json = await gatehouse(['budget', '--by-day', '--days', '3', '--json'], api, project);
    expect(json.code, json.stderr).toBe(0);
    const view = parseJson(json);
    expect(view.env).toMatchObject({ appId, env: 'dev', days: [expect.any(Object), expect.any(Object), expect.any(Object)] });
    expect(view.users).toMatchObject({ appId, env: null, since: view.env.since, until: view.env.until });
    const text = await gatehouse(['budget', '--by-day', '--days', '3'], api, project);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe(`dev environment of ${appId} (your wallet), ${view.env.since} to ${view.env.until} (UTC days, dollars):`);
    expect(lines[1]).toMatch(/^day\s+reads\s+writes\s+transfer\s+storage\s+total$/);
    expect(lines[2]).toMatch(new RegExp(`^${view.env.since}\\s+\\d`));
    expect(lines[5]).toMatch(new RegExp(`^total\\s+.*${view.env.total.totalUsd.replace('.', '\\.')}$`));
    expect(text.stdout).toContain(`Signed-in users of ${appId}, every environment (their wallets)`);
    expect((await gatehouse(['budget', '--by-day', '--days', 'lots'], api, project)).code).toBe(2);
    expect((await gatehouse(['budget', '--days', '3'], api, project)).code).toBe(2);
  });

  it("a server error exits 1 with the server's message (unknown app)", async () => {
    const direct = await post('/dev/apps/app_missing/test-users', developer.token, { name: 'bob', env: 'dev' });
    expect(direct.status).toBe(404);

    const text = await gatehouse(['test-session', '--app', 'app_missing', '--user', 'bob'], api);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe(`gatehouse: server ${url} (GATEHOUSE_URL)\nerror: ${direct.body.message}\n`);

    const json = await gatehouse(['deploy', sampleJson, '--app', 'app_missing', '--env', 'dev', '--json'], api);
    expect(json.code).toBe(1);
    expect(parseJson(json)).toEqual({ error: direct.body.error, message: expect.any(String) });
  });

  it('a rejected or wrong developer token is a server error, and the token is never printed', async () => {
    const run = await gatehouse(['apps', 'list'], { ...api, GATEHOUSE_DEV_TOKEN: 'ghd_not-a-real-token' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^gatehouse: server .*\nerror: /);
    expect(run.stderr + run.stdout).not.toContain('ghd_not-a-real-token');
  });

  it('item 28: a developer token this server does not know names the server in the way out', async () => {
    const run = await gatehouse(['apps', 'list'], { ...api, GATEHOUSE_DEV_TOKEN: 'ghd_made-for-another-server' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`refused by the server at ${url}`);
    expect(run.stderr).toContain(`GATEHOUSE_URL=${url} gatehouse dev-token create --developer <email>`);
  });

  it('item 28: every HTTP command says which server it used (stderr; not with --json)', async () => {
    const text = await gatehouse(['apps', 'list'], api);
    expect(text.stderr).toBe(`gatehouse: server ${url} (GATEHOUSE_URL)\n`);
    const json = await gatehouse(['apps', 'list', '--json'], api);
    expect(json.stderr).toBe('');
  });
});

describe('usage errors', () => {
  it('a missing GATEHOUSE_DEV_TOKEN says what to do, exit 2', async () => {
    const text = await gatehouse(['apps', 'list'], { GATEHOUSE_URL: url });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(
      /^error: GATEHOUSE_DEV_TOKEN is not set and you are not logged in to \S+\. Run `gatehouse login --developer <email>`.*gatehouse dev-token create --developer <email>/,
    );

    const json = await gatehouse(['test-session', '--app', 'a', '--user', 'u', '--json'], { GATEHOUSE_URL: url });
    expect(json.code).toBe(2);
    expect(parseJson(json)).toEqual({ error: 'missing_dev_token', message: expect.stringContaining('GATEHOUSE_DEV_TOKEN') });
  });

  it.each([
    [['apps', 'list', '--bogus'], /Unknown option '--bogus'/],
    [['deploy', 'x.json', '--env', 'dev'], /no app given: pass --app <id>/],
    [['test-session', '--app', 'a'], /--user is required/],
    [['test-session', '--app'], /--app/],
    [['apps', 'create'], /missing argument <name>/],
    [['apps', 'create', 'a', 'b'], /unexpected argument 'b'/],
    [['apps'], /'gatehouse apps' needs a subcommand/],
    [['frobnicate'], /unknown command 'frobnicate'/],
  ])('gatehouse %j exits 2', async (args, message) => {
    const run = await gatehouse(args, api);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain(developer.token);
  });

  it('with --json a usage error is one JSON object on stdout', async () => {
    const run = await gatehouse(['apps', 'list', '--bogus', '--json'], api);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('');
    expect(parseJson(run)).toEqual({ error: 'usage', message: expect.stringContaining("Unknown option '--bogus'") });
  });

  it('a schema file that does not exist is a usage error', async () => {
    const empty = await mkdtemp(path.join(scratch, 'empty-'));
    const run = await gatehouse(['deploy', '--app', 'a', '--env', 'dev'], api, empty);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`schema file not found: ${path.join(empty, 'gatehouse.schema.ts')}`);
  });

  it('--help prints the command usage and exits 0 (the real bin)', async () => {
    const run = await spawnToCompletion(['deploy', '--help']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Usage: gatehouse deploy \[schemaFile\] \[options\]/);
    expect(run.stdout).toContain('--app <id>');
  }, 60_000);
});
