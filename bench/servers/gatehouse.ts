/**
 * Gatehouse itself, as the CLI would start it (buildApp + loadConfig), on the database the
 * parent chose (DATABASE_URL, or a PGlite DATA_DIR), seeded and analyzed before it announces
 * its URL.
 * Flags: --rooms (the reader's rooms), --teams, --pairs (transition-cycle pairs, and connections
 * of the write rows), --delete-rows (notes per connection for the delete row).
 */
import { parseArgs } from 'node:util';
import { reclaimStartupMemory } from '../../src/lib/memory.js';
import { seedGatehouse } from './gatehouse-seed.js';
import { startGatehouse } from './gatehouse-child.js';
import { announce, main } from './lifecycle.js';

main(async () => {
  const { values } = parseArgs({
    options: {
      rooms: { type: 'string', default: '10' },
      teams: { type: 'string', default: '3' },
      pairs: { type: 'string', default: '100' },
      'delete-rows': { type: 'string', default: '0' },
    },
  });
  const { app, url } = await startGatehouse();
  const seed = await seedGatehouse(url, app.services, {
    rooms: Number(values.rooms),
    teams: Number(values.teams),
    pairs: Number(values.pairs),
    deleteRowsPerConnection: Number(values['delete-rows']),
  });
  // The floor insert writes the same table's rows directly, so it needs the deployment's id.
  const [resource] = await app.database.prisma.$queryRawUnsafe<{ deployment_id: string }[]>(
    'SELECT deployment_id FROM resources WHERE id = $1',
    seed.resourceId,
  );
  seed.notes.deploymentId = resource.deployment_id;
  // The delete row's notes, seq 1 and up, copied from the one the API wrote (as bench/servers/gatehouse-scale.ts seeds).
  if (seed.notes.deletable > 1)
    await app.database.prisma.$executeRawUnsafe(
      `INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
       SELECT gen_random_uuid(), deployment_id, table_name, creator_id, resource_id, room_id, jsonb_set(data, '{seq}', to_jsonb(i)), created_at, updated_at
       FROM rows, generate_series(1, $2::int - 1) AS i WHERE id = $1::uuid`,
      seed.notes.template,
      seed.notes.deletable,
    );
  // Statistics for the seeded tables, as autovacuum would gather on a running PostgreSQL: without
  // them the planner guesses one row per table and picks plans no steady-state server would.
  await app.database.prisma.$executeRawUnsafe('ANALYZE');
  // As `gatehouse serve` does once it has started (src/lib/memory.ts): here, after the seeding.
  if (!process.env.NO_RECLAIM) reclaimStartupMemory();
  announce({ url, database: app.database.describe(), seed });
});
