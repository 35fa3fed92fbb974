/** The test-database helpers other suites build on: isolation, reset and cleanup. */
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createPostgresTestDatabase, createTestDatabase, POSTGRES_SKIP_REASON, postgresTestUrl, resetDatabase } from '../helpers/db.js';

const pgUrl = await postgresTestUrl();
if (!pgUrl) console.warn(`[test/db/test-databases] ${POSTGRES_SKIP_REASON}`);

async function addDeveloper(db: Database, id: string): Promise<void> {
  await db.prisma.developer.create({ data: { id, email: `${id}@example.test` } });
}

function helperContract(name: string, create: () => Promise<Database>) {
  describe(`test databases on ${name}`, () => {
    it('are migrated and isolated from each other', async () => {
      const [a, b] = await Promise.all([create(), create()]);
      try {
        await addDeveloper(a, 'dev_a');
        expect(await a.prisma.developer.count()).toBe(1);
        expect(await b.prisma.developer.count()).toBe(0);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    it('can be emptied between tests, keeping the migration history', async () => {
      const db = await create();
      try {
        await addDeveloper(db, 'dev_reset');
        await db.prisma.app.create({ data: { id: 'app_reset', name: 'r', developerId: 'dev_reset' } });
        await resetDatabase(db);
        expect(await db.prisma.developer.count()).toBe(0);
        expect(await db.prisma.app.count()).toBe(0);
        const history = await db.prisma.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM _prisma_migrations`;
        expect(Number(history[0].n)).toBeGreaterThan(0);
      } finally {
        await db.close();
      }
    });

    it('can be closed more than once', async () => {
      const db = await create();
      await Promise.all([db.close(), db.close()]);
      await db.close();
    });
  });
}

helperContract('PGlite', createTestDatabase);

describe.skipIf(!pgUrl)('PostgreSQL', () => {
  helperContract('PostgreSQL', createPostgresTestDatabase);

  it('drops the database on close', async () => {
    const db = await createPostgresTestDatabase();
    const [{ name }] = await db.prisma.$queryRaw<{ name: string }[]>`SELECT current_database() AS name`;
    await db.close();
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: pgUrl });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      expect(rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
