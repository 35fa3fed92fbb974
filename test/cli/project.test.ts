/**
 * Issue 28 items 4-6 from the command line: `gatehouse init` then deploy and test-session reading
 * gatehouse.json; login, logout and whoami with their file modes; typegen checked by tsc; the
 * removal commands' confirmation. Commands run in-process through main() against a server here.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/database.js';
import { type App, buildApp } from '../../src/server.js';
import { createTestDatabase } from '../helpers/db.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Schema files run in-process: vitest has no bin resolve hooks for 'gatehouse/schema'. */
const schemaModule = path.join(root, 'src', 'schema', 'index.ts');

let app: App;
let database: Database;
let url: string;
let token: string;
let developerId: string;
let scratch: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({ config: loadConfig({ DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'silent' }), database });
  ({ url } = await app.start());
  ({ token, developerId } = await app.services.principals.createDeveloperToken('project@example.test'));
  scratch = await mkdtemp(path.join(tmpdir(), 'gatehouse-project-'));
});

afterAll(async () => {
  await app?.stop();
  await database?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** One command line in-process; `answers` are what a person types at each question (none: no terminal). */
async function gatehouse(args: string[], env: Record<string, string>, cwd: string, answers?: string[], stdin = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const asked: string[] = [];
  const code = await main(args, env, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    cwd,
    readStdin: async () => stdin,
    ask: async question => {
      asked.push(question);
      return answers ? (answers.shift() ?? '') : null;
    },
  });
  return { code, stdout, stderr: stderr + asked.map(q => `[asked] ${q}`).join('\n') };
}

const api = () => ({ GATEHOUSE_URL: url, GATEHOUSE_DEV_TOKEN: token });

async function newApp(name: string): Promise<{ id: string; clientIds: string[] }> {
  const run = await gatehouse(['apps', 'create', name, '--json'], api(), scratch);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

describe('init, then deploy and test-session from gatehouse.json', () => {
  it('scaffolds the project, refuses to overwrite without --force, and the other commands need no --app', async () => {
    const created = await newApp('Init app');
    const dir = path.join(scratch, 'my-app');
    const init = await gatehouse(['init', 'my-app', '--app', created.id, '--json'], api(), scratch);
    expect(init.code).toBe(0);
    expect(JSON.parse(init.stdout).files).toEqual([
      'gatehouse.json',
      'gatehouse.schema.ts',
      path.join('site', 'index.html'),
      path.join('site', 'app.js'),
    ]);
    expect(JSON.parse(await readFile(path.join(dir, 'gatehouse.json'), 'utf8'))).toEqual({
      app: created.id,
      env: 'dev',
      schema: 'gatehouse.schema.ts',
      site: 'site',
      gateway: url,
    });
    // The page under the origin's strict CSP: no inline script; the SDK from the same origin, createClient() bare.
    const page = await readFile(path.join(dir, 'site', 'index.html'), 'utf8');
    expect(page).toContain('<script type="module" src="/app.js"></script>');
    expect(page).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
    const script = await readFile(path.join(dir, 'site', 'app.js'), 'utf8');
    expect(script).toContain("import { createClient } from '/_osg/sdk/client.js';");
    expect(script).toContain('createClient();');
    expect(script).toContain('.select().live()');
    expect(script).toContain('auth.signIn()');

    // A second init refuses, names what exists, and writes nothing.
    await writeFile(path.join(dir, 'gatehouse.schema.ts'), '// mine\n');
    const again = await gatehouse(['init', '--app', 'app_other'], api(), dir);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('gatehouse.json, gatehouse.schema.ts, site/index.html, site/app.js already exist');
    expect(await readFile(path.join(dir, 'gatehouse.schema.ts'), 'utf8')).toBe('// mine\n');
    const forced = await gatehouse(['init', '--app', created.id, '--force'], api(), dir);
    expect(forced.code).toBe(0);
    const schema = await readFile(path.join(dir, 'gatehouse.schema.ts'), 'utf8');
    // In-process, 'gatehouse/schema' resolves through the source path (the bin's hooks do it for users).
    await writeFile(path.join(dir, 'gatehouse.schema.ts'), schema.replace("'gatehouse/schema'", JSON.stringify(schemaModule)));

    // deploy: app, env and schema from gatehouse.json; the new environment needs a yes.
    const refused = await gatehouse(['deploy'], api(), dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`app ${created.id} has no environment 'dev'`);
    expect(refused.stderr).toContain('--create-env');
    const asked = await gatehouse(['deploy', '--json'], api(), path.join(dir, 'site'), ['y']);
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout.split('\n')[0])).toMatchObject({ appId: created.id, env: 'dev', tables: ['tasks'], resourceTypes: ['board'] });
    // A typo'd environment is refused, not created.
    const typo = await gatehouse(['deploy', '--env', 'dve'], api(), dir, ['n']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("has no environment 'dve' (it has: dev)");

    const session = await gatehouse(['test-session', '--user', 'alice', '--json'], api(), dir);
    expect(session.code).toBe(0);
    expect(JSON.parse(session.stdout)).toMatchObject({ env: 'dev', user_id: `test:${created.id}:alice` });
    // A flag overrides the file.
    const other = await gatehouse(['test-session', '--user', 'alice', '--app', 'app_nope'], api(), dir);
    expect(other.code).toBe(1);
  });

  it('without gatehouse.json or --app, commands say both ways to give an app', async () => {
    const run = await gatehouse(['test-session', '--user', 'x'], api(), scratch);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no app given: pass --app <id>, or set "app" in gatehouse.json/);
  });
});

describe('login, logout, whoami', () => {
  it('keeps the token per gateway in a private file, says where it came from, and never prints it', async () => {
    const config = path.join(scratch, 'config');
    const env = { GATEHOUSE_URL: url, XDG_CONFIG_HOME: config };
    const none = await gatehouse(['whoami'], env, scratch);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`not logged in to ${url}`);

    const bad = await gatehouse(['login', '--token-stdin'], env, scratch, undefined, 'ghd_wrong\n');
    expect(bad.code).toBe(1);
    const login = await gatehouse(['login', '--token-stdin'], env, scratch, undefined, `${token}\n`);
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`Logged in to ${url} as project@example.test`);
    const file = path.join(config, 'gatehouse', 'credentials.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(file, 'utf8')).gateways[url]).toMatchObject({ token, developerId });

    const who = await gatehouse(['whoami', '--json'], env, scratch);
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toEqual({
      gateway: url,
      gatewaySource: 'GATEHOUSE_URL',
      developerId,
      email: 'project@example.test',
      tokenSource: 'login',
      credentialsFile: file,
    });
    // The stored login works for every command; the env var wins over it.
    expect((await gatehouse(['apps', 'list'], env, scratch)).code).toBe(0);
    const fromEnv = await gatehouse(['whoami'], { ...env, GATEHOUSE_DEV_TOKEN: token }, scratch);
    expect(fromEnv.stdout).toContain('Token:     from GATEHOUSE_DEV_TOKEN');
    for (const run of [login, who, fromEnv]) expect(run.stdout + run.stderr).not.toContain(token);

    const logout = await gatehouse(['logout'], env, scratch);
    expect(logout.stdout).toContain(`Logged out of ${url}`);
    expect(JSON.parse(await readFile(file, 'utf8')).gateways).toEqual({});
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await gatehouse(['whoami'], env, scratch)).code).toBe(2);
  });
});

describe('typegen', () => {
  it('writes row types that tsc accepts for the right fields and refuses for a wrong one', async () => {
    const dir = await mkdtemp(path.join(root, '.typegen-'));
    try {
      const schemaFile = path.join(dir, 'schema.ts');
      await writeFile(
        schemaFile,
        `import { defineSchema } from ${JSON.stringify(schemaModule)};
export default defineSchema({
  tables: { tasks: t => t.text('title').notNull().boolean('done').notNull().default(false).bigint('size').timestamps() },
  resources: { board: r => r.shares('tasks') },
});
`,
      );
      const run = await gatehouse(['typegen', schemaFile, '--out', path.join(dir, 'types.ts')], {}, dir);
      expect(run.code).toBe(0);
      const types = await readFile(path.join(dir, 'types.ts'), 'utf8');
      expect(types).toContain('export interface TasksRow {');
      expect(types).toContain('  title: string;');
      expect(types).toContain('  size?: number | string | null;');
      await writeFile(
        path.join(dir, 'use.ts'),
        `import { createClient } from '../src/sdk/index.js';
import type { Tables } from './types.js';

const client = createClient<Tables>({ gatewayUrl: 'https://gatehouse.test', accessToken: 't' });
export async function titles(): Promise<string[]> {
  const rows = await client.table('tasks').select();
  const done: boolean = rows[0].done;
  void done;
  // @ts-expect-error: the schema has no 'titel' column
  void rows[0].titel;
  // @ts-expect-error: the schema has no 'taks' table
  client.table('taks');
  return rows.map(row => row.title);
}
// Untyped clients keep working with any table and a row type of their own.
const untyped = createClient({ gatewayUrl: 'https://gatehouse.test', accessToken: 't' });
export const anything = () => untyped.table<{ id: string; n: number }>('whatever').select();
`,
      );
      const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const flags = ['--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
      await promisify(execFile)(process.execPath, [tsc, ...flags, path.join(dir, 'use.ts')], { cwd: root });

      // The wrong field without the expect-error comment fails.
      const use = await readFile(path.join(dir, 'use.ts'), 'utf8');
      await writeFile(path.join(dir, 'use.ts'), use.replace("  // @ts-expect-error: the schema has no 'titel' column\n", ''));
      const failed = await promisify(execFile)(process.execPath, [tsc, ...flags, path.join(dir, 'use.ts')], { cwd: root }).catch(e => e);
      expect(failed.stdout).toMatch(/Property 'titel' does not exist on type 'TasksRow/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('apps delete, env delete, env reset', () => {
  it('ask to type the name, refuse without a terminal unless --yes, and want --confirm-prod for prod', async () => {
    const created = await newApp('Doomed');
    const ir = JSON.parse(await readFile(path.join(root, 'examples', 'sample-schema.json'), 'utf8'));
    const irFile = path.join(scratch, 'ir.json');
    await writeFile(irFile, JSON.stringify(ir));
    for (const env of ['dev', 'staging', 'prod']) {
      expect((await gatehouse(['deploy', irFile, '--app', created.id, '--env', env, '--create-env'], api(), scratch)).code).toBe(0);
    }

    const noTerminal = await gatehouse(['env', 'reset', 'dev', '--app', created.id], api(), scratch);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('Pass --yes');
    const wrong = await gatehouse(['env', 'delete', 'staging', '--app', created.id], api(), scratch, ['stagign']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Not confirmed: nothing was removed.');

    const reset = await gatehouse(['env', 'reset', 'dev', '--app', created.id], api(), scratch, ['dev']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/^Reset environment dev of app \S+: 0 row\(s\), 0 file\(s\), \d+ resource\(s\) and 0 test user\(s\) removed\.\n$/);
    const deleted = await gatehouse(['env', 'delete', 'staging', '--app', created.id, '--yes', '--json'], api(), scratch);
    expect(deleted.code).toBe(0);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ appId: created.id, environments: ['staging'] });

    const prod = await gatehouse(['env', 'delete', 'prod', '--app', created.id, '--yes'], api(), scratch);
    expect(prod.code).toBe(2);
    expect(prod.stderr).toContain('--confirm-prod');
    const appWithProd = await gatehouse(['apps', 'delete', created.id, '--yes'], api(), scratch);
    expect(appWithProd.code).toBe(2);
    const gone = await gatehouse(['apps', 'delete', created.id, '--confirm-prod'], api(), scratch, [created.id]);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toContain(`Deleted app ${created.id} (environments: dev, prod)`);
    const list = await gatehouse(['apps', 'list', '--json'], api(), scratch);
    expect(JSON.parse(list.stdout).apps.map((a: { id: string }) => a.id)).not.toContain(created.id);
  });
});
