/**
 * What a membership change does to the rows a member linked into a resource (docs/api.md §12).
 * Called inside the membership transition that makes the change (src/membership/membership-store.service.ts),
 * so the links move in the same transaction as the membership row and under its resource lock.
 *
 * A member's links are the resource's context links of rows they created. Their originals (their
 * own rows) are never touched here.
 */
import { type SharePolicy, memberRemovalPlan } from './lifecycle.rules.js';
import { fail } from '../errors.js';
import { sqlStateOf } from '../db/sql-values.js';
import { Prisma } from '../generated/prisma/client.js';
import type { SchemaIR } from '../schema/index.js';
import type { Tx } from '../core/deps.js';
import { type RawBuilder, type Sql, sql, sqlOf } from '../db/sql.js';

/**
 * True when a write failed because the principal it names is gone: an account deletion committed
 * while the write was in flight (its credential was checked just before). `constraint` names the
 * foreign key, e.g. `rows_creator_id_fkey` or `memberships_principal_id_fkey`.
 */
export function violatesForeignKey(error: unknown, constraint: string): boolean {
  if (!(error instanceof Error)) return false;
  // P2003 from Prisma's own queries; SQLSTATE 23503 from a raw statement (through Prisma or the driver).
  const prismaOwn = error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003';
  if (!prismaOwn && sqlStateOf(error) !== '23503') return false;
  const meta = error instanceof Prisma.PrismaClientKnownRequestError ? error.meta : undefined;
  return error.message.includes(constraint) || JSON.stringify(meta ?? {}).includes(constraint);
}

/** The answer to a request whose own account was deleted while it ran (docs/api.md §8.2). */
export const accountDeleted = () =>
  fail('account_deleted', 'The account this credential belongs to has been deleted; sign up again to start a new one.');

export interface LifecycleResource {
  id: string;
  deploymentId: string;
  type: string;
}

/**
 * Applies each shared table's `onMemberRemove` to `principalId`'s visible links in `resource`:
 * `retain` copies the rows into resource ownership (new rows in the link's room, keeping their
 * author, content and timestamps, so they sort where they did) and drops the links; `hide`
 * soft-hides the links; `remove` (and a table the type no longer shares) drops them. Costs one
 * indexed query when the member linked nothing.
 */
export async function applyMemberRemoval(tx: Sql, resource: LifecycleResource, principalId: string): Promise<void> {
  /** The member's visible links in the resource (`l`) joined to their rows (`r`). */
  const visibleLinks = () =>
    tx
      .selectFrom('rows as r')
      .innerJoin('row_links as l', 'l.row_id', 'r.id')
      .where('r.creator_id', '=', principalId)
      .where('l.resource_id', '=', resource.id)
      .where('l.hidden', '=', false);
  const linked = await visibleLinks().select('r.table_name').distinct().execute();
  if (linked.length === 0) return;
  const deployment = await tx.selectFrom('deployments').select('schema').where('id', '=', resource.deploymentId).executeTakeFirst();
  const shares = (deployment?.schema as SchemaIR | undefined)?.resources?.[resource.type]?.shares ?? [];
  const plan = memberRemovalPlan(
    shares,
    linked.map(l => l.table_name),
  );
  if (plan.retain.length > 0) {
    await tx
      .insertInto('rows')
      .columns(['id', 'deployment_id', 'table_name', 'creator_id', 'resource_id', 'room_id', 'data', 'created_at', 'updated_at'])
      .expression(
        visibleLinks()
          .select([
            sql<string>`gen_random_uuid()`.as('id'),
            'r.deployment_id',
            'r.table_name',
            'r.creator_id',
            'l.resource_id',
            'l.room_id',
            'r.data',
            'r.created_at',
            'r.updated_at',
          ])
          .where('r.table_name', 'in', plan.retain),
      )
      .execute();
  }
  if (plan.hide.length > 0) {
    await tx
      .updateTable('row_links as l')
      .from('rows as r')
      .set({ hidden: true })
      .whereRef('l.row_id', '=', 'r.id')
      .where('r.creator_id', '=', principalId)
      .where('l.resource_id', '=', resource.id)
      .where('r.table_name', 'in', plan.hide)
      .execute();
  }
  // Whatever is not hidden now goes: the `remove` tables, and the `retain` ones just copied.
  await tx
    .deleteFrom('row_links as l')
    .using('rows as r')
    .whereRef('l.row_id', '=', 'r.id')
    .where('r.creator_id', '=', principalId)
    .where('l.resource_id', '=', resource.id)
    .where('l.hidden', '=', false)
    .execute();
}

/**
 * Whether `applyMemberRemoval` can be one more part of the transition's write statement: every
 * table the type shares drops its links (`remove`), so whatever the member linked, the links go.
 * A `hide` or `retain` table (or shares not known) needs the full plan, read per linked table.
 */
export const removalIsDropOnly = (shares: readonly SharePolicy[] | undefined): boolean =>
  shares?.every(share => share.onMemberRemove === 'remove') === true;

/** `applyMemberRemoval` when `removalIsDropOnly`: the member's visible links in the resource go. */
export const dropVisibleLinks = (resourceId: string, principalId: string, when: RawBuilder<unknown>) => sql`
  DELETE FROM row_links l USING rows w
  WHERE l.row_id = w.id AND w.creator_id = ${principalId} AND l.resource_id = ${resourceId} AND NOT l.hidden AND ${when}`;

/** `restoreHiddenLinks` as one part of a write statement. */
export const unhideLinks = (resourceId: string, principalId: string, when: RawBuilder<unknown>) => sql`
  UPDATE row_links l SET hidden = false FROM rows w
  WHERE l.row_id = w.id AND w.creator_id = ${principalId} AND l.resource_id = ${resourceId} AND l.hidden AND ${when}`;

/**
 * A member who is active again (join, accept, link claim, auto-join) sees their hidden links
 * reappear: the `hide` policy's promise. Retained copies stay the resource's (nothing is given back).
 */
export async function restoreHiddenLinks(tx: Tx, resourceId: string, principalId: string): Promise<void> {
  await sqlOf(tx)
    .updateTable('row_links as l')
    .from('rows as r')
    .set({ hidden: false })
    .whereRef('l.row_id', '=', 'r.id')
    .where('r.creator_id', '=', principalId)
    .where('l.resource_id', '=', resourceId)
    .where('l.hidden', '=', true)
    .execute();
}
