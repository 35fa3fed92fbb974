/**
 * The first `gatehouse serve` on a machine, as a new user meets it: it says what it does while it
 * prepares the embedded database (seconds of initdb), then where everything is and the next
 * command; `GET /` answers a small page linking them (JSON for `Accept: application/json`).
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

let root: string;
let stdout = '';
let stderr = '';
let url: string;
let exited: Promise<number>;
const signals = new EventEmitter();

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'gatehouse-first-start-'));
  let listening!: (line: string) => void;
  const firstLine = new Promise<string>(resolve => (listening = resolve));
  // A machine that never ran Gatehouse: no cluster template cached yet.
  const env = { DATA_DIR: path.join(root, 'data'), GATEHOUSE_CACHE_DIR: path.join(root, 'cache'), PORT: '0', LOG_LEVEL: 'warn' };
  exited = main(['serve'], env, {
    stdout: { write: (text: string) => ((stdout += text), stdout.includes('\n') && listening(stdout.split('\n')[0])) },
    stderr: { write: (text: string) => (stderr += text) },
    signals,
    exit: code => {
      throw new Error(`asked to exit at once with ${code}`);
    },
  });
  const line = await Promise.race([firstLine, exited.then(code => Promise.reject(new Error(`serve exited with ${code}: ${stderr}`)))]);
  url = /listening on (http:\/\/\S+)/.exec(line)![1];
}, 300_000);

afterAll(async () => {
  signals.emit('SIGTERM');
  await exited;
  await rm(root, { recursive: true, force: true });
});

describe('the first start', () => {
  it('says what it does while it prepares the database, before it listens', () => {
    expect(stderr).toContain('Initialising a PostgreSQL cluster for the embedded database (once per machine');
    expect(stderr).toContain('Applying the database migrations to it');
    expect(stderr).toContain(`Creating the embedded database in ${path.join(root, 'data')}`);
  });

  it('then prints where everything is and the next command', () => {
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`Gatehouse listening on ${url} (PGlite at ${path.join(root, 'data')})`);
    expect(stdout).toContain(`${url}/v1/`);
    expect(stdout).toContain(`${url}/openapi.json`);
    expect(stdout).toContain(`${url}/graphql  (open it in a browser for GraphiQL)`);
    expect(stdout).toContain('npx gatehouse dev-token create --developer you@example.com');
  });

  it('GET / is a page linking them for a browser', async () => {
    const page = await fetch(`${url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const body = await page.text();
    for (const link of ['href="/graphql"', 'href="/openapi.json"', 'href="/healthz"', 'gatehouse dev-token create']) expect(body).toContain(link);
  });

  it('and JSON for Accept: application/json', async () => {
    const answer = await fetch(`${url}/`, { headers: { accept: 'application/json' } });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      name: 'gatehouse',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      rest: '/v1',
      openapi: '/openapi.json',
      graphql: '/graphql',
      graphiql: true,
      healthz: '/healthz',
      next: 'npx gatehouse dev-token create --developer you@example.com',
    });
  });
});
