/**
 * What the REST shims share (each feature declares its own in its `*.routes.ts`): input pieces,
 * the documented response shapes (docs/api.md §2.2; the OpenAPI document's, and test/api/openapi.test.ts
 * checks real answers against them) and the GraphQL fragments their stored operations select.
 *
 * Operations are `graphql()` documents from the generated client (codegen.ts): `npm run codegen`
 * checks each one against schema/schema.graphql and types its variables and result, so each route's
 * `variables` and `respond` are checked against the operation they serve.
 */
import { z } from 'zod';
import { ROLES } from '../core/roles.rules.js';
import { graphql } from '../graphql-client/generated/index.js';
import type { DbResultFieldsFragment, ResourceFieldsFragment } from '../graphql-client/generated/graphql.js';
import { DB_OPS, DB_SCOPE_KINDS } from '../rows/rows-input.service.js';

export const role = z.enum(ROLES, { message: `must be one of ${ROLES.join(', ')}` });
export const id = z.string({ message: 'must be a string' }).min(1, 'must not be empty');
export const optionalUser = z.strictObject({ userId: id.optional() });
/** Length and characters are the room service's (docs/api.md §10.2); here only the type. */
export const roomBody = z.strictObject({ name: z.string({ message: 'is required and must be a string' }) });
export const ok = () => ({ ok: true });
/** `limit` (1 to `max`) and `cursor` (a previous page's nextCursor) of a paged list. */
export const pageQuery = (max: number) => ({
  limit: z.coerce
    .number({ message: 'must be a number' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`)
    .optional(),
  cursor: z.string().optional(),
});
/** docs/api.md §11.1: the service checks which fields each op takes and what they hold; here only their JSON types. */
export const dbOperation = z.strictObject({
  scope: z.strictObject({
    kind: z.enum(DB_SCOPE_KINDS, { message: `must be one of ${DB_SCOPE_KINDS.join(', ')}` }),
    resourceId: id.optional(),
    roomId: id.optional(),
    type: id.optional(),
  }),
  table: z.string({ message: 'is required and must be a string' }),
  op: z.enum(DB_OPS, { message: `must be one of ${DB_OPS.join(', ')}` }),
  values: z.unknown().optional(),
  where: z.unknown().optional(),
  orderBy: z.strictObject({ column: z.string({ message: 'must be a string' }), direction: z.enum(['asc', 'desc']).optional() }).optional(),
  limit: z.number({ message: 'must be a number' }).int('must be an integer').optional(),
  cursor: z.string({ message: 'must be a string' }).optional(),
  ids: z.array(id).optional(),
  destination: id.optional(),
  onConflict: z
    .union([z.string(), z.array(z.string())], { message: 'must be a column name or a list of them' })
    .transform(value => (typeof value === 'string' ? [value] : value))
    .optional(),
});
/** select: the page; insert, update, delete, upsert: the rows as written; link, unlink, moveRoom: ok. */
export const dbAnswer = (r: DbResultFieldsFragment) =>
  r.op === 'select' ? { rows: r.rows ?? [], nextCursor: r.nextCursor ?? null } : r.rows ? { rows: r.rows } : { ok: true };
export const okState = (r: { state?: string | null }) => ({ ok: true, state: r.state });

/** Every row-store route can answer these (docs/api.md §11, §8.2). */
export const DB_ERRORS = [
  'invalid_cursor',
  'too_many_rows',
  'payment_required',
  'unknown_type',
  'unknown_table',
  'table_not_in_scope',
  'invalid_operation',
  'unknown_column',
  'invalid_value',
  'missing_value',
  'column_not_writable',
  'virtual_room_id',
  'row_too_large',
  'invalid_filter',
  'invalid_order',
  'resource_not_found',
  'not_resource_member',
  'access_denied',
  'room_forbidden',
  'invalid_room',
  'room_not_found',
  'row_not_found',
  'unique_violation',
  'account_deleted',
] as const;

/** Response shapes (docs/api.md §2.2): what `respond` returns, for the OpenAPI document; test/api/openapi.test.ts checks real answers against them. */
export const roleOut = z.enum(ROLES);
export const stateOut = z.enum(['active', 'invited', 'requested']);
export const timestamp = z.string().describe('ISO-8601, UTC');
/** A principal's public profile (docs/api.md §5.6). */
export const profileOut = z.object({ id: z.string(), handle: z.string().nullable(), displayName: z.string().nullable() });
/** The caller (GraphQL `me`): `email` only for yourself, when known. */
export const meOut = z.object({
  id: z.string(),
  kind: z.enum(['user', 'agent']),
  handle: z.string().nullable(),
  displayName: z.string().nullable(),
  email: z.string().nullable(),
  profile: z.object({ handle: z.string().nullable(), displayName: z.string().nullable() }),
});

graphql(`
  fragment MeFields on Principal {
    id
    kind
    handle
    displayName
    email
    profile { handle displayName }
  }
`);
export const resourceOut = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  visibility: z.enum(['members', 'public']),
  discoverable: z.boolean(),
  memberCount: z.number().int(),
  currentMember: z.object({ role: roleOut, state: stateOut }).optional().describe('Your own row: always on list rows, on fetch only when active'),
});
export const roomOut = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  currentGrant: z.object({ role: roleOut }).nullable().describe('Your own grant (spec 2.7); in the default room your resource role'),
  effectiveRole: roleOut.nullable(),
});
export const invitationOut = z.object({
  resourceId: z.string(),
  type: z.string(),
  name: z.string(),
  role: roleOut,
  invitedBy: z.string().nullable(),
  expiresAt: timestamp,
});
export const okOut = z.object({ ok: z.literal(true) });

export const okStateOut = z.object({ ok: z.literal(true), state: stateOut.nullable() });
export const dbRow = z.record(z.string(), z.unknown()).describe("A row: the deployed table's columns (docs/api.md §11.3)");
export const dbAnswerOut = z.union([
  z.object({ rows: z.array(dbRow), nextCursor: z.string().nullable() }).describe('select: one page'),
  z.object({ rows: z.array(dbRow) }).describe('insert, update, delete, upsert: the rows as written'),
  okOut.describe('link, unlink, moveRoom'),
]);
export const appOut = z.object({
  id: z.string(),
  name: z.string(),
  origins: z.array(z.string()),
  clientIds: z.array(z.string()),
  environments: z.array(z.string()),
  createdAt: timestamp,
});

graphql(`
  fragment ResourceFields on Resource {
    id
    type
    name
    visibility
    discoverable
    memberCount
    currentMember { role state }
  }
`);
graphql(`
  fragment RoomFields on Room {
    id
    name
    isDefault
    currentGrant { role }
    effectiveRole
  }
`);
graphql(`
  fragment DbResultFields on DbResult {
    op
    rows
    nextCursor
  }
`);
graphql(`
  fragment TransitionFields on MembershipResult {
    ok
    resourceId
    state
    role
  }
`);

/** docs/api.md §2.2: the view has no createdAt; currentMember only where the service set one. */
export const resourceView = (r: ResourceFieldsFragment & { createdAt?: unknown }) => {
  const { createdAt: _createdAt, currentMember, ...rest } = r;
  return currentMember ? { ...rest, currentMember } : rest;
};
