/** Resource creation and the read views of docs/api.md §2.2. */
import type { PrincipalCaller } from '../core/caller.rules.js';
import { type MemberRow, type ViewMode, currentMemberFor } from './membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import { type StoredVisibility, type VisibilityName, canView, compileVisibility } from './visibility.rules.js';
import { fail } from '../errors.js';
import { Prisma } from '../generated/prisma/client.js';
import { memberRow } from '../bus/event-bus.js';
import { newId } from '../lib/secrets.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
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

interface ResourceSqlRow {
  id: string;
  deployment_id: string;
  type: string;
  name: string;
  visibility: StoredVisibility;
  discoverable: boolean;
  member_count: number;
  /** Epoch ms (selected so: the columns are timestamp without time zone). */
  created_at: number;
  role: Role | null;
  state: MemberRow['state'] | null;
  expires_at: number | null;
}

export const BROWSE_PAGE = { default: 20, max: 100 } as const;

/** Keyset over (createdAt DESC, id DESC), as epoch ms and id. */
const resourceKey = (row: ResourceSqlRow) => [row.created_at, row.id] as const;

const RESOURCE_COLUMNS = `r.id, r.deployment_id, r.type, r.name, r.visibility::text AS visibility, r.discoverable, r.member_count,
  (extract(epoch FROM r.created_at) * 1000)::float8 AS created_at`;

// The hot reads run as one lean statement each (deps.query); timestamps come back as epoch ms.
const LEAN_COLUMNS = `${RESOURCE_COLUMNS},
  m.role::text AS role, m.state::text AS state, (extract(epoch FROM m.expires_at) * 1000)::float8 AS expires_at`;

const GET_SQL = `SELECT ${LEAN_COLUMNS}
  FROM resources r LEFT JOIN memberships m ON m.resource_id = r.id AND m.principal_id = $2
  WHERE r.id = $1`;

/**
 * A page of the caller's resources: $4/$5 the last entry's created_at (epoch ms) and id, or nulls.
 * The key goes back to a timestamp by integer arithmetic, exact by construction (to_timestamp
 * takes a float); an integer that is not one is refused with the cursor (src/core/pages.ts).
 */
const LIST_SQL = `SELECT ${LEAN_COLUMNS}
  FROM memberships m JOIN resources r ON r.id = m.resource_id
  WHERE m.principal_id = $1 AND m.state = 'active' AND r.deployment_id = $2 AND ($3::text IS NULL OR r.type = $3)
    AND ($4::bigint IS NULL OR (r.created_at, r.id) < (TIMESTAMP 'epoch' + $4::bigint * INTERVAL '1 millisecond', $5::text))
  ORDER BY r.created_at DESC, r.id DESC
  LIMIT $6`;

const STATIC_SQL = `SELECT ${LEAN_COLUMNS}
  FROM resources r LEFT JOIN memberships m ON m.resource_id = r.id AND m.principal_id = $4
  WHERE r.deployment_id = $1 AND r.type = $2 AND r.static_slug = $3`;

function view(row: ResourceSqlRow, mode: ViewMode, now: Date): ResourceView {
  const live = row.state && (row.state === 'active' || (row.expires_at && new Date(row.expires_at) > now));
  const currentMember = currentMemberFor(mode, live ? { role: row.role!, state: row.state! } : null);
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    visibility: row.visibility,
    discoverable: row.discoverable,
    memberCount: Number(row.member_count),
    createdAt: new Date(row.created_at),
    ...(currentMember ? { currentMember } : {}),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, ch => `\\${ch}`);

export function createResourceService(deps: ServiceDeps, apps: AppService) {
  const { prisma } = deps;

  return {
    async create(caller: PrincipalCaller, input: { type: string; name: string; visibility?: VisibilityName | null }) {
      if (isReservedType(input.type)) throw reservedTypeError(input.type, 'create');
      const deployment = await apps.deployment(caller.deployment.id);
      const def = deployment.schema.resources[input.type];
      if (!def) {
        const known = Object.keys(deployment.schema.resources).sort().join(', ') || 'none';
        throw fail('unknown_type', `Unknown resource type '${input.type}' (this app declares: ${known}).`);
      }
      const chosen = input.visibility ?? def.visibility.default;
      if (!def.visibility.allow.includes(chosen)) {
        throw fail(
          'visibility_not_allowed',
          `Type '${input.type}' does not allow visibility '${chosen}' (allowed: ${def.visibility.allow.join(', ')}).`,
        );
      }
      const now = deps.now();
      const id = newId('res');
      const pair = compileVisibility(chosen);
      // Timestamps as UTC ISO text: the columns are timestamp without time zone, as Prisma writes them.
      const at = now.toISOString();
      const updatedAt = new Date().toISOString();
      const created = await deps
        .sqlTransaction(async tx => {
          // Creates are not metered: the quota per person and app bounds them (docs/api.md §9.6).
          await reserveQuota(tx, deps.config.quotas, 'resources', caller);
          // The resource and its owner's membership in one statement: the membership's foreign
          // key to the new resource is checked at the end of the statement.
          const [row] = await tx.$queryRaw<{ xid: string }[]>`
            WITH created AS (
              INSERT INTO resources (id, deployment_id, type, name, visibility, discoverable, owner_principal, member_count, created_at)
              VALUES (${id}, ${deployment.id}, ${input.type}, ${input.name}, ${pair.visibility}::"Visibility", ${pair.discoverable},
                      ${caller.principal.id}, 1, ${at}::timestamp(3))
              RETURNING id)
            INSERT INTO memberships (resource_id, principal_id, role, state, created_at, updated_at)
            SELECT id, ${caller.principal.id}, 'owner'::"Role", 'active'::"MembershipState", ${at}::timestamp(3), ${updatedAt}::timestamp(3) FROM created
            RETURNING pg_current_xact_id()::text AS xid`;
          return row;
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
        createdAt: new Date(at),
        currentMember: { role: 'owner', state: 'active' },
      } satisfies ResourceView;
    },

    /** docs/api.md §5.3, GET /v1/resources/:id: members, or anyone for a public resource. */
    async get(caller: PrincipalCaller, id: string): Promise<ResourceView> {
      const [row] = await deps.query<ResourceSqlRow>(GET_SQL, [id, caller.principal.id]);
      if (!row || row.deployment_id !== caller.deployment.id) throw resourceNotFound(id);
      if (!canView(row.visibility, row.state ? { state: row.state } : null)) throw resourceNotFound(id);
      return view(row, 'fetch', deps.now());
    },

    /** Resources where the caller is an active member, newest first, keyset-paginated. */
    async list(caller: PrincipalCaller, type?: string | null, input: PageInput = {}): Promise<ResourcePage> {
      const limit = pageLimit(input.limit, LIST_PAGE);
      const [afterAt, afterId] = input.cursor ? decodeCursor(input.cursor, ['number', 'string']) : [null, null];
      const rows = await deps.query<ResourceSqlRow>(LIST_SQL, [caller.principal.id, caller.deployment.id, type ?? null, afterAt, afterId, limit + 1]);
      const now = deps.now();
      const { entries, nextCursor } = pageOf(rows, limit, row => view(row, 'list', now), resourceKey);
      return { resources: entries, nextCursor };
    },

    /** Discoverable public resources, newest first, keyset-paginated. */
    async browse(caller: PrincipalCaller, input: { type?: string | null; query?: string | null } & PageInput): Promise<ResourcePage> {
      const limit = pageLimit(input.limit, BROWSE_PAGE);
      const after = input.cursor ? decodeCursor(input.cursor, ['number', 'string']) : null;
      const rows = await prisma.$queryRaw<ResourceSqlRow[]>`
        SELECT ${Prisma.raw(RESOURCE_COLUMNS)}, NULL AS role, NULL AS state, NULL AS expires_at
        FROM resources r
        WHERE r.deployment_id = ${caller.deployment.id} AND r.discoverable AND r.visibility = 'public'
          ${input.type ? Prisma.sql`AND r.type = ${input.type}` : Prisma.empty}
          ${input.query ? Prisma.sql`AND r.name ILIKE ${`%${escapeLike(input.query)}%`}` : Prisma.empty}
          ${after ? Prisma.sql`AND (r.created_at, r.id) < (TIMESTAMP 'epoch' + ${after[0]}::bigint * INTERVAL '1 millisecond', ${after[1]})` : Prisma.empty}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${limit + 1}`;
      const now = deps.now();
      const { entries, nextCursor } = pageOf(rows, limit, row => view(row, 'browse', now), resourceKey);
      return { resources: entries, nextCursor };
    },

    /** An app-owned singleton declared with static([...]); the same gate as fetch by id. */
    async static(caller: PrincipalCaller, type: string, slug: string): Promise<ResourceView> {
      const [row] = await deps.query<ResourceSqlRow>(STATIC_SQL, [caller.deployment.id, type, slug, caller.principal.id]);
      // A members-only singleton (like `_app`) answers a non-member exactly like a missing one.
      if (!row || !canView(row.visibility, row.state ? { state: row.state } : null)) {
        throw fail('static_not_found', `No static resource '${slug}' of type '${type}' in this app environment.`);
      }
      return view(row, 'static', deps.now());
    },
  };
}

export type ResourceService = ReturnType<typeof createResourceService>;
