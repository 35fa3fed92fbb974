/**
 * The statements of the row store's hot writes (issue 27 item 1), each built once (`prepare`) and
 * of one shape whatever the number of rows: a list of rows travels as one jsonb parameter, so 1
 * and 100 rows are the same named statement on the driver (src/db/pg-statements.ts). Times go
 * as UTC ISO text (`toISOString()`), the columns' convention, on every path (Prisma's too).
 */
import type { Role } from '../core/roles.rules.js';
import type { StoredVisibility } from '../membership/visibility.rules.js';
import type { CompiledQuery } from 'kysely';
import { type RawBuilder, type Sql, prepare, sql } from '../db/sql.js';

/** A raw statement as `prepare` wants it: compiled by its compile-only Kysely. */
const compiled =
  <R>(statement: RawBuilder<R>) =>
  (db: Sql): { compile(): CompiledQuery<R> } => ({ compile: () => statement.compile(db) });

/** A caller's room grants as the statements return them: [room id, role] pairs (json), null for none. */
type GrantPairs = [string, Role][] | string | null;

/** The grants of a statement's json column (a driver may leave json as text). */
export const grantsOf = (pairs: GrantPairs): Map<string, Role> =>
  new Map(pairs === null ? [] : typeof pairs === 'string' ? (JSON.parse(pairs) as [string, Role][]) : pairs);

/** A write's facts before any lock: the resource, the caller's membership and grants, the scope's room. */
export interface WriterFactsRow {
  deployment_id: string;
  type: string;
  visibility: StoredVisibility;
  role: Role | null;
  state: string | null;
  grants: GrantPairs;
  /** The resource of the scope's room record (null: no such room, or no room named). */
  room_resource: string | null;
}

/** Grants count only for an active member (a pending one has no role); their foreign key is the membership. */
const grantsOfMember = (resourceId: unknown, me: unknown) =>
  sql`CASE WHEN m.state = 'active' THEN (SELECT json_agg(json_build_array(g.room_id, g.role::text)) FROM room_grants g
        WHERE g.resource_id = ${resourceId} AND g.principal_id = ${me}) END`;

/** The facts statement's columns: what loadResource, roomOf and roomRoles read. */
const factsOf = (resourceId: unknown, me: unknown, room: unknown) =>
  sql`SELECT r.deployment_id, r.type, r.visibility::text AS visibility, m.role::text AS role, m.state::text AS state,
        ${grantsOfMember(resourceId, me)} AS grants,
        (SELECT rm.resource_id FROM rooms rm WHERE rm.id = ${room}) AS room_resource`;

/** One statement for what loadResource, roomOf and roomRoles read: the resource, the room, the caller's roles. */
export const writerFacts = prepare<[resourceId: string, me: string, room: string | null], WriterFactsRow>(3, (db, resourceId, me, room) =>
  compiled(
    sql<WriterFactsRow>`${factsOf(resourceId, me, room)}
      FROM resources r LEFT JOIN memberships m ON m.resource_id = r.id AND m.principal_id = ${me}
      WHERE r.id = ${resourceId}`,
  )(db),
);

/**
 * The same facts for a write on the driver path, locked, with the transaction's id (src/bus/commit-order.ts
 * stamps the write's events with it). The resource row first, FOR KEY SHARE (a leave or removal
 * locks it FOR UPDATE first, so one waits for the other); then the caller's membership and room
 * grants FOR SHARE, which READ COMMITTED re-reads at their newest version when a change committed
 * while the write waited: a member who just left, or lost the role or grant, is seen so. A grant
 * given meanwhile is not seen, as if the write ran first.
 *
 * `locking` (lockedWriterFactsLocking): then, once the resource row is locked, the unique-key locks
 * `locks` names (a JSON array of lockUniqueKeys' keys), in its order: an upsert's, taken here
 * rather than in a statement of their own. Only a later statement of the transaction sees what an
 * upsert it waited for wrote (its snapshot is taken after the lock), and the upsert's is later.
 */
const lockedFacts = (locking: boolean) => (db: Sql, resourceId: unknown, me: unknown, room: unknown, locks?: unknown) =>
  compiled(
    sql<WriterFactsRow & { xid: string }>`
      WITH res AS MATERIALIZED (
        SELECT r.id, r.deployment_id, r.type, r.visibility::text AS visibility, pg_current_xact_id()::text AS xid
        FROM resources r WHERE r.id = ${resourceId} FOR KEY SHARE),
      mem AS MATERIALIZED (
        SELECT m.role::text AS role, m.state::text AS state FROM memberships m
        WHERE m.resource_id = (SELECT id FROM res) AND m.principal_id = ${me} FOR SHARE),
      grants AS MATERIALIZED (
        SELECT g.room_id, g.role::text AS role FROM room_grants g
        WHERE g.resource_id = (SELECT id FROM res) AND g.principal_id = ${me} AND (SELECT state FROM mem) = 'active' FOR SHARE)${
          locking
            ? sql`,
      held AS MATERIALIZED (
        SELECT count(*) AS n FROM jsonb_array_elements_text(${locks}::jsonb) AS k(key)
        CROSS JOIN LATERAL pg_advisory_xact_lock(hashtextextended(k.key, 0)))`
            : sql``
        }
      SELECT res.deployment_id, res.type, res.visibility, mem.role, mem.state,
        CASE WHEN mem.state = 'active' THEN (SELECT json_agg(json_build_array(g.room_id, g.role)) FROM grants g) END AS grants,
        (SELECT rm.resource_id FROM rooms rm WHERE rm.id = ${room}) AS room_resource, res.xid${locking ? sql`, (SELECT n FROM held) AS held` : sql``}
      FROM res LEFT JOIN mem ON true`,
  )(db);

export const lockedWriterFacts = prepare<[resourceId: string, me: string, room: string | null], WriterFactsRow & { xid: string }>(
  3,
  lockedFacts(false),
);

export const lockedWriterFactsLocking = prepare<
  [resourceId: string, me: string, room: string | null, locks: string],
  WriterFactsRow & { xid: string }
>(4, lockedFacts(true));

/** Rows to insert: `rows` is JSON text of [[id, data], ...]. */
export const insertRowList = prepare<
  [deploymentId: string, table: string, creatorId: string, resourceId: string | null, roomId: string | null, now: string, rows: string],
  never
>(7, (db, deploymentId, table, creatorId, resourceId, roomId, now, rows) =>
  compiled(
    sql<never>`INSERT INTO rows (id, deployment_id, table_name, creator_id, resource_id, room_id, data, created_at, updated_at)
      SELECT (x.value ->> 0)::uuid, ${deploymentId}, ${table}, ${creatorId}, ${resourceId}::text, ${roomId}::text, x.value -> 1,
        ${now}::timestamp, ${now}::timestamp
      FROM jsonb_array_elements(${rows}::jsonb) AS x`,
  )(db),
);

/** Links of rows just inserted (a shared table's): `ids` is JSON text of the row ids. */
export const insertLinkList = prepare<[resourceId: string, roomId: string | null, linkedBy: string, now: string, ids: string], never>(
  5,
  (db, resourceId, roomId, linkedBy, now, ids) =>
    compiled(
      sql<never>`INSERT INTO row_links (row_id, resource_id, room_id, linked_by, created_at)
        SELECT x.id::uuid, ${resourceId}, ${roomId}::text, ${linkedBy}, ${now}::timestamp FROM jsonb_array_elements_text(${ids}::jsonb) AS x(id)`,
    )(db),
);

/** New data of rows: `rows` is JSON text of [[id, data], ...]. */
export const updateRowList = prepare<[now: string, rows: string], never>(2, (db, now, rows) =>
  compiled(
    sql<never>`UPDATE rows AS r SET data = x.value -> 1, updated_at = ${now}::timestamp
      FROM jsonb_array_elements(${rows}::jsonb) AS x WHERE r.id = (x.value ->> 0)::uuid`,
  )(db),
);

/** Deletes rows by id: `ids` is JSON text of the ids. */
export const deleteRowList = prepare<[ids: string], never>(1, (db, ids) =>
  compiled(sql<never>`DELETE FROM rows WHERE id IN (SELECT x.id::uuid FROM jsonb_array_elements_text(${ids}::jsonb) AS x(id))`)(db),
);
