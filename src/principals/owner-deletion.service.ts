/**
 * Step 2 of account deletion (src/principals/account-deletion.service.ts): each table's
 * `onOwnerDelete` applied to the rows the deleted principals created, in every app (docs/api.md §12).
 */
import { ownerDeletionPlan } from '../membership/lifecycle.rules.js';
import type { SchemaIR } from '../schema/index.js';
import type { Tx } from '../core/deps.js';
import { sql, sqlOf } from '../db/sql.js';

/** Rows of the (deployment, table) pairs in `keys`, each written `deployment table`. */
const tableKeyIn = (keys: string[], alias?: 'r') => {
  const column = (name: string) => sql.ref(alias ? `${alias}.${name}` : name);
  return sql<boolean>`${column('deployment_id')} || ' ' || ${column('table_name')} IN (${sql.join(keys)})`;
};

/** Step 2: each table's onOwnerDelete on every row the doomed principals created. */
export async function applyOwnerDeletion(tx: Tx, doomed: string[]) {
  // Hidden links (onMemberRemove: hide) only waited for their member to come back.
  const db = sqlOf(tx);
  await db
    .deleteFrom('row_links as l')
    .using('rows as r')
    .whereRef('l.row_id', '=', 'r.id')
    .where('r.creator_id', 'in', doomed)
    .where('l.hidden', '=', true)
    .execute();
  const tables = await db.selectFrom('rows').select(['deployment_id', 'table_name']).distinct().where('creator_id', 'in', doomed).execute();
  if (tables.length === 0) return;
  const deploymentIds = [...new Set(tables.map(t => t.deployment_id))];
  const schemas = await tx.deployment.findMany({ where: { id: { in: deploymentIds } }, select: { id: true, schema: true } });
  // Policies are per (deployment, table): one key list per policy, matched as `deployment table`.
  const keys = { remove: [] as string[], tombstone: [] as string[], retain: [] as string[] };
  for (const { id, schema } of schemas) {
    const plan = ownerDeletionPlan(
      (schema as unknown as SchemaIR).tables ?? {},
      tables.filter(t => t.deployment_id === id).map(t => t.table_name),
    );
    for (const policy of ['remove', 'tombstone', 'retain'] as const) keys[policy].push(...plan[policy].map(table => `${id} ${table}`));
  }
  if (keys.remove.length > 0) {
    await db.deleteFrom('rows').where('creator_id', 'in', doomed).where(tableKeyIn(keys.remove)).execute();
  }
  if (keys.retain.length > 0) {
    // One independent copy per resource an own row is linked into, in the link's room.
    await db
      .insertInto('rows')
      .columns(['id', 'deployment_id', 'table_name', 'creator_id', 'resource_id', 'room_id', 'data', 'created_at', 'updated_at'])
      .expression(
        db
          .selectFrom('rows as r')
          .innerJoin('row_links as l', 'l.row_id', 'r.id')
          .select([
            sql<string>`gen_random_uuid()`.as('id'),
            'r.deployment_id',
            'r.table_name',
            sql<null>`NULL`.as('creator_id'),
            'l.resource_id',
            'l.room_id',
            'r.data',
            'r.created_at',
            'r.updated_at',
          ])
          .where('r.creator_id', 'in', doomed)
          .where('r.resource_id', 'is', null)
          .where(tableKeyIn(keys.retain, 'r')),
      )
      .execute();
    await db.deleteFrom('rows').where('creator_id', 'in', doomed).where('resource_id', 'is', null).where(tableKeyIn(keys.retain)).execute();
  }
  if (keys.tombstone.length > 0) {
    // An own row linked nowhere would be content nobody can ever read again.
    await db
      .deleteFrom('rows as r')
      .where('r.creator_id', 'in', doomed)
      .where('r.resource_id', 'is', null)
      .where(tableKeyIn(keys.tombstone, 'r'))
      .where(eb => eb.not(eb.exists(eb.selectFrom('row_links as l').select(sql`1`.as('one')).whereRef('l.row_id', '=', 'r.id'))))
      .execute();
  }
  // What is left (retain's rows in resources, tombstone's rows) stays, authored by the deleted-user profile.
  await db.updateTable('rows').set({ creator_id: null }).where('creator_id', 'in', doomed).execute();
}
