/** The database backends a suite runs against: embedded PGlite always, PostgreSQL when reachable. */
import type { Database } from '../../src/db/database.js';
import { createPostgresTestDatabase, createTestDatabase, postgresTestUrl } from './db.js';

export interface Backend {
  name: 'pglite' | 'postgres';
  create(): Promise<Database>;
}

export async function backends(): Promise<Backend[]> {
  const list: Backend[] = [{ name: 'pglite', create: createTestDatabase }];
  const url = await postgresTestUrl();
  if (url) list.push({ name: 'postgres', create: createPostgresTestDatabase });
  else if (process.env.GATEHOUSE_TESTS_PGLITE_ONLY !== '1')
    console.warn('[gatehouse tests] PostgreSQL not reachable at 127.0.0.1:5432: PostgreSQL variants skipped (set TEST_DATABASE_URL to run them).');
  return list;
}
