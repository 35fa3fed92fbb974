/** Resource creation and the read views of docs/api.md §2.2. */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type MemberRow, type ViewMode, currentMemberFor } from './membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import { type StoredVisibility, type VisibilityName, canView, compileVisibility } from './visibility.rules.js';
import { fail } from '../errors.js';
import type { ExpressionBuilder } from 'kysely';
import { type DB, type Sql, prepare, sql } from '../db/sql.js';
import { memberRow } from '../bus/event-bus.js';
import { newId } from '../lib/secrets.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import type { Bound } from '../core/bind-deps.js';
import { accountDeleted, violatesForeignKey } from './lifecycle.service.js';
import { resourceNotFound } from './membership-store.service.js';
import { decodeCursor, LIST_PAGE, type PageInput, pageLimit, pageOf } from '../core/pages.js';
import { reserveQuota } from '../billing/quotas.service.js';
import { isReservedType, reservedTypeError } from './resources.rules.js';

export interface ResourceView {
  id: string;
  type: string;
  name: string;
  visibility: StoredVisibility;
  discoverable: boolean;
  memberCount: number;
  createdAt: Date;
  currentMember?: MemberRow;
}

export interface ResourcePage {
  resources: ResourceView[];
  nextCursor: string | null;
}

/** A resource as the reads select it, with the caller's membership when they asked for it. */
interface ResourceSqlRow {
  id: string;
  deployment_id: string;
  type: string;
  name: string;
  visibility: StoredVisibility;
  discoverable: boolean;
  member_count: number;
  created_at: Date;
  role: Role | null;
  state: MemberRow['state'] | null;
  expires_at: Date | null;
}

export const BROWSE_PAGE = { default: 20, max: 100 } as const;

/** Keyset over (createdAt DESC, id DESC), as epoch ms and id. */
const resourceKey = (row: ResourceSqlRow) => [row.created_at.getTime(), row.id] as const;

const RESOURCE_COLUMNS = ['r.id', 'r.deployment_id', 'r.type', 'r.name', 'r.visibility', 'r.discoverable', 'r.member_count', 'r.created_at'] as const;
const MEMBER_COLUMNS = ['m.role', 'm.state', 'm.expires_at'] as const;

/** Resources with the caller's membership in each (none: nulls). */
const withMembership = (db: Sql, principalId: string) =>
  db
    .selectFrom('resources as r')
    .leftJoin('memberships as m', join => join.onRef('m.resource_id', '=', 'r.id').on('m.principal_id', '=', principalId))
    .select([...RESOURCE_COLUMNS, ...MEMBER_COLUMNS]);

// The hot reads: built and compiled once (`prepare`), run with each call's values.
const getById = prepare(2, (db, id: string, principalId: string) => withMembership(db, principalId).where('r.id', '=', id));
const getStatic = prepare(4, (db, deploymentId: string, type: string, slug: string, principalId: string) =>
  withMembership(db, principalId).where('r.deployment_id', '=', deploymentId).where('r.type', '=', type).where('r.static_slug', '=', slug),
);

/** The caller's resources, newest first: one prepared statement per shape (a type asked for, a cursor given). */
const listShapes = [false, true].map(typed =>
  [false, true].map(paged =>
    prepare(6, (db, principalId: string, deploymentId: string, type: string, afterAt: Date, afterId: string, take: number) =>
      db
        .selectFrom('memberships as m')
        .innerJoin('resources as r', 'r.id', 'm.resource_id')
        .select([...RESOURCE_COLUMNS, ...MEMBER_COLUMNS])
        .where('m.principal_id', '=', principalId)
        .where('m.state', '=', 'active')
        .where('r.deployment_id', '=', deploymentId)
        .$if(typed, query => query.where('r.type', '=', type))
        .$if(paged, query => query.where(eb => eb(eb.refTuple('r.created_at', 'r.id'), '<', eb.tuple(afterAt, afterId))))
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(take),
    ),
  ),
);

/** Entries after a cursor's key in (created_at DESC, id DESC) order. */
const afterKey = (after: readonly [number, string]) => (eb: ExpressionBuilder<{ r: DB['resources'] }, 'r'>) =>
  eb(eb.refTuple('r.created_at', 'r.id'), '<', eb.tuple(new Date(after[0]), after[1]));

function view(row: ResourceSqlRow, mode: ViewMode, now: Date): ResourceView {
  const live = row.state && (row.state === 'active' || (row.expires_at && row.expires_at > now));
  const currentMember = currentMemberFor(mode, live ? { role: row.role!, state: row.state! } : null);
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    visibility: row.visibility,
    discoverable: row.discoverable,
    memberCount: Number(row.member_count),
    createdAt: row.created_at,
    ...(currentMember ? { currentMember } : {}),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, ch => `\\${ch}`);

/** What creating a resource needs: the caller's deployment (its schema) from `apps`. */
export type ResourceCreateDeps = Pick<ServiceDeps, 'now' | 'sqlTransaction' | 'config' | 'bus'> & { apps: Pick<AppService, 'deployment'> };

export async function create(
  deps: ResourceCreateDeps,
  caller: PrincipalCaller,
  input: { type: string; name: string; visibility?: VisibilityName | null },
) {
  if (isReservedType(input.type)) throw reservedTypeError(input.type, 'create');
  const deployment = await deps.apps.deployment(caller.deployment.id);
  const def = deployment.schema.resources[input.type];
  if (!def) {
    const known = Object.keys(deployment.schema.resources).sort().join(', ') || 'none';
    throw fail('unknown_type', `Unknown resource type '${input.type}' (this app declares: ${known}).`);
  }
  const chosen = input.visibility ?? def.visibility.default;
  if (!def.visibility.allow.includes(chosen)) {
    throw fail('visibility_not_allowed', `Type '${input.type}' does not allow visibility '${chosen}' (allowed: ${def.visibility.allow.join(', ')}).`);
  }
  const now = deps.now();
  const id = newId('res');
  const pair = compileVisibility(chosen);
  const updatedAt = new Date();
  const created = await deps
    .sqlTransaction(async tx => {
      // Creates are not metered: the quota per person and app bounds them (docs/api.md §9.6).
      await reserveQuota(tx, deps.config.quotas, 'resources', caller);
      // The resource and its owner's membership in one statement: the membership's foreign
      // key to the new resource is checked at the end of the statement.
      return tx
        .with('created', db =>
          db
            .insertInto('resources')
            .values({
              id,
              deployment_id: deployment.id,
              type: input.type,
              name: input.name,
              visibility: pair.visibility,
              discoverable: pair.discoverable,
              owner_principal: caller.principal.id,
              member_count: 1,
              created_at: now,
            })
            .returning('id'),
        )
        .insertInto('memberships')
        .columns(['resource_id', 'principal_id', 'role', 'state', 'created_at', 'updated_at'])
        .expression(db =>
          db
            .selectFrom('created')
            .select([
              'id',
              sql<string>`${caller.principal.id}::text`.as('principal_id'),
              sql<Role>`'owner'::"Role"`.as('role'),
              sql<MemberRow['state']>`'active'::"MembershipState"`.as('state'),
              sql<Date>`${now}::timestamp(3)`.as('created_at'),
              sql<Date>`${updatedAt}::timestamp(3)`.as('updated_at'),
            ]),
        )
        .returning(sql<string>`pg_current_xact_id()::text`.as('xid'))
        .executeTakeFirstOrThrow();
    })
    .catch(error => {
      // The caller's account was deleted while this request ran (docs/api.md §8.2).
      throw violatesForeignKey(error, 'memberships_principal_id_fkey') ? accountDeleted() : error;
    });
  // Stamped with its transaction (src/bus/commit-order.ts).
  deps.bus.publish([{ op: 'insert', deploymentId: deployment.id, row: memberRow(id, caller.principal.id, 'owner', 'active'), xid: created.xid }]);
  return {
    id,
    type: input.type,
    name: input.name,
    visibility: pair.visibility,
    discoverable: pair.discoverable,
    memberCount: 1,
    createdAt: now,
    currentMember: { role: 'owner', state: 'active' },
  } satisfies ResourceView;
}

/** docs/api.md §5.3, GET /v1/resources/:id: members, or anyone for a public resource. */
export async function get(deps: Pick<ServiceDeps, 'sql' | 'now'>, caller: PrincipalCaller, id: string): Promise<ResourceView> {
  const [row] = await getById(deps.sql, id, caller.principal.id);
  if (!row || row.deployment_id !== caller.deployment.id) throw resourceNotFound(id);
  if (!canView(row.visibility, row.state ? { state: row.state } : null)) throw resourceNotFound(id);
  return view(row, 'fetch', deps.now());
}

/** Resources where the caller is an active member, newest first, keyset-paginated. */
export async function list(
  deps: Pick<ServiceDeps, 'sql' | 'now'>,
  caller: PrincipalCaller,
  type?: string | null,
  input: PageInput = {},
): Promise<ResourcePage> {
  const limit = pageLimit(input.limit, LIST_PAGE);
  const after = input.cursor ? decodeCursor(input.cursor, ['number', 'string']) : null;
  const list = listShapes[type != null ? 1 : 0][after !== null ? 1 : 0];
  const rows = await list(deps.sql, caller.principal.id, caller.deployment.id, type ?? '', new Date(after?.[0] ?? 0), after?.[1] ?? '', limit + 1);
  const now = deps.now();
  const { entries, nextCursor } = pageOf(rows, limit, row => view(row, 'list', now), resourceKey);
  return { resources: entries, nextCursor };
}

/** Discoverable public resources, newest first, keyset-paginated. */
export async function browse(
  deps: Pick<ServiceDeps, 'sql' | 'now'>,
  caller: PrincipalCaller,
  input: { type?: string | null; query?: string | null } & PageInput,
): Promise<ResourcePage> {
  const limit = pageLimit(input.limit, BROWSE_PAGE);
  const after = input.cursor ? decodeCursor(input.cursor, ['number', 'string']) : null;
  const rows = await deps.sql
    .selectFrom('resources as r')
    .select([...RESOURCE_COLUMNS, sql<null>`NULL`.as('role'), sql<null>`NULL`.as('state'), sql<null>`NULL`.as('expires_at')])
    .where('r.deployment_id', '=', caller.deployment.id)
    .where('r.discoverable', '=', true)
    .where('r.visibility', '=', 'public')
    .$if(!!input.type, query => query.where('r.type', '=', input.type!))
    .$if(!!input.query, query => query.where('r.name', 'ilike', `%${escapeLike(input.query!)}%`))
    .$if(after !== null, query => query.where(afterKey(after!)))
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit + 1)
    .execute();
  const now = deps.now();
  const { entries, nextCursor } = pageOf(rows, limit, row => view(row, 'browse', now), resourceKey);
  return { resources: entries, nextCursor };
}

/** An app-owned singleton declared with static([...]); the same gate as fetch by id. */
export async function staticResource(
  deps: Pick<ServiceDeps, 'sql' | 'now'>,
  caller: PrincipalCaller,
  type: string,
  slug: string,
): Promise<ResourceView> {
  const [row] = await getStatic(deps.sql, caller.deployment.id, type, slug, caller.principal.id);
  // A members-only singleton (like `_app`) answers a non-member exactly like a missing one.
  if (!row || !canView(row.visibility, row.state ? { state: row.state } : null)) {
    throw fail('static_not_found', `No static resource '${slug}' of type '${type}' in this app environment.`);
  }
  return view(row, 'static', deps.now());
}

/** What `services.resources` offers; src/services.ts binds each to the server's dependencies. */
export const resourceOperations = { create, get, list, browse, static: staticResource };

export type ResourceService = Bound<typeof resourceOperations>;
