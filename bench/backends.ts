/**
 * The databases a benchmark run uses, created fresh and removed afterwards: a temporary PGlite
 * data directory, or a scratch PostgreSQL database `gh_bench_<random>` on the local server.
 * Children receive them the way Gatehouse is configured: DATA_DIR or DATABASE_URL.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { redactUrl as redact } from '../src/db/postgres.js';

export type BackendName = 'pglite' | 'postgres';

export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
const PROBE_TIMEOUT_MS = 2_000;

export interface Backend {
  name: BackendName;
  /** For the report, e.g. "PostgreSQL 15.20 at 127.0.0.1:5432 (gh_bench_…)". */
  label: string;
  /** The child's environment: exactly one of DATA_DIR and DATABASE_URL is set. */
  env: Record<string, string | undefined>;
  /** What the DB floor does per request, for the report. */
  floorQuery: string;
  drop(): Promise<void>;
}

export type Prepared = Backend | { name: BackendName; skipped: string };

export function prepareBackend(name: BackendName, postgresUrl = DEFAULT_POSTGRES_URL): Promise<Prepared> {
  return name === 'pglite' ? preparePGlite() : preparePostgres(postgresUrl);
}

async function preparePGlite(): Promise<Backend> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'gh-bench-pglite-'));
  return {
    name: 'pglite',
    label: `embedded, file-backed data dir ${dir}`,
    env: { DATA_DIR: dir, DATABASE_URL: undefined },
    floorQuery: 'node:http + 1 in-process PGlite query',
    drop: () => rm(dir, { recursive: true, force: true }),
  };
}

async function preparePostgres(adminUrl: string): Promise<Prepared> {
  let version: string;
  try {
    version = await withClient(adminUrl, async client => (await client.query('SHOW server_version')).rows[0].server_version);
  } catch (error) {
    return { name: 'postgres', skipped: `PostgreSQL not reachable at ${redact(adminUrl)}: ${(error as Error).message}` };
  }
  const database = `gh_bench_${randomBytes(6).toString('hex')}`;
  await withClient(adminUrl, client => client.query(`CREATE DATABASE "${database}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    name: 'postgres',
    label: `${version} at ${url.host} (scratch database ${database})`,
    env: { DATABASE_URL: url.toString(), DATA_DIR: undefined },
    floorQuery: 'node:http + 1 prepared query through a pg pool',
    // FORCE ends sessions a child's pool may not have closed yet.
    drop: () => withClient(adminUrl, client => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)).then(() => {}),
  };
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => {});
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}
