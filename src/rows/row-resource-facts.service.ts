/**
 * What a row-store call into a resource is judged by, read in one statement (row-write.sql.ts
 * `writerFacts`): the resource, the scope's room, and the caller's roles, as loadResource, roomOf
 * and roomRoles (src/membership/writer-standing.service.ts, src/rooms) read them in four. Errors
 * keep their order: the caller throws them as it judges (the resource, the table, the room...).
 */
import { LRUCache } from 'lru-cache';
import type { PrincipalCaller } from '../core/caller.rules.js';
import { fail } from '../errors.js';
import type { Sql } from '../db/sql.js';
import { resourceNotFound } from '../membership/membership-store.service.js';
import type { ResourceRef, Roles } from '../membership/writer-standing.service.js';
import { invalidRoom, roomRef } from '../rooms/rooms.service.js';
import { type WriterFactsRow, grantsOf, lockedWriterFacts, lockedWriterFactsLocking, writerFacts } from './row-write.sql.js';
import type { SchemaIR } from '../schema/index.js';
import type { StoragePayer } from '../billing/metering.service.js';
import { type Binding, bindingIn } from './row-binding.service.js';
import type { DbOperation } from './rows-input.service.js';

export interface ResourceFacts {
  resource: ResourceRef;
  /** The caller's active role and room grants, read without a lock. */
  roles: Roles;
  /** The scope's room: null for the default room (or none named); throws roomOf's errors for a bad one. */
  room(): string | null;
  /** With `lock`: the transaction's id (the resource row is locked FOR KEY SHARE). */
  xid?: string;
}

/** A resource's app environment and type, which never change once it exists. */
interface ResourceKind {
  deploymentId: string;
  type: string;
}

/**
 * Resources their callers wrote to as active members, for the one-statement insert
 * (row-fast-insert.service.ts) to choose its table without a statement of its own. Keyed by
 * caller too: a caller who never wrote there as a member never makes that statement, so its
 * timing tells nobody that a resource they cannot read exists. The statement checks every fact
 * again, so an entry can only make it fall back to the transaction path, never write where it
 * should not.
 */
const knownResources = new LRUCache<string, ResourceKind>({ max: 10_000 });

const knownKey = (resourceId: string, principalId: string) => `${resourceId}\0${principalId}`;

export const knownResource = (resourceId: string, principalId: string): ResourceKind | undefined =>
  knownResources.get(knownKey(resourceId, principalId));

/**
 * Who pays for the bytes at rest of resources written here lately, as their one-statement writes
 * found it: passed to the next write's statement, which then checks only that the resource's owner
 * (which alone decides the payer) is the same, instead of finding the payer again. Forgotten when
 * that check fails (or the payer fell short).
 */
const storagePayers = new LRUCache<string, StoragePayer>({ max: 10_000 });

export const knownStoragePayer = (resourceId: string): StoragePayer | undefined => storagePayers.get(resourceId);
export const rememberStoragePayer = (resourceId: string, payer: StoragePayer): void => void storagePayers.set(resourceId, payer);
export const forgetStoragePayer = (resourceId: string): void => void storagePayers.delete(resourceId);

/**
 * After a statement checked `resourceId`'s storage payer: the payer it answered is remembered; the
 * one `passed` in is forgotten when it answered none (the resource's owner changed). `checked`
 * undefined: no statement checked one.
 */
export function storagePayerChecked(resourceId: string, passed: StoragePayer | null | undefined, checked: StoragePayer | null | undefined): void {
  if (checked) rememberStoragePayer(resourceId, checked);
  else if (checked === null && passed) forgetStoragePayer(resourceId);
}

/**
 * A resource the caller wrote to as a member (knownResource), of a type the deployed schema has,
 * and `table` there: what a write can assume before its facts are read, for a statement that
 * checks them again. Null for anything else (a resource not known so, a table the type does not hold).
 */
export function knownBinding(
  caller: PrincipalCaller,
  schema: SchemaIR,
  resourceId: string,
  table: string,
): { resource: ResourceKind & { id: string }; binding: Binding } | null {
  const known = knownResource(resourceId, caller.principal.id);
  if (!known || known.deploymentId !== caller.deployment.id || !Object.hasOwn(schema.resources, known.type)) return null;
  try {
    return { resource: { id: resourceId, ...known }, binding: bindingIn(schema, known.type, table) };
  } catch {
    return null;
  }
}

/** knownBinding for `op` in the resource's default room, where a one-statement write assumes it. Null for a named room. */
export function knownDefaultRoom(
  caller: PrincipalCaller,
  schema: SchemaIR,
  op: DbOperation,
): { resource: ResourceKind & { id: string }; binding: Binding } | null {
  if (op.scope.kind !== 'resource' || op.scope.roomId !== undefined) return null;
  return knownBinding(caller, schema, op.scope.resourceId, op.table);
}

/** The room error of a named room as roomOf answers it: no such room, or another resource's. */
const noRoom = (ref: string, resourceId: string) => fail('room_not_found', `No room ${ref} in resource ${resourceId}.`);

/**
 * 404 resource_not_found for a resource of another app environment or none. With `lock` (a write
 * on the driver path) the same statement locks the resource row FOR KEY SHARE (lockedWriterFacts),
 * and then the unique-key locks `uniqueLocks` names, added to `held` once taken (lockUniqueKeys
 * then takes only the others).
 */
export async function resourceFacts(
  db: Sql,
  caller: PrincipalCaller,
  resourceId: string,
  roomId: string | undefined,
  { lock = false, uniqueLocks = [], held }: { lock?: boolean; uniqueLocks?: readonly string[]; held?: Set<string> } = {},
): Promise<ResourceFacts> {
  // A malformed room id is refused once the resource is found (as roomOf does, after loadResource).
  let ref: string | null = null;
  let refError: unknown = null;
  if (roomId !== undefined) {
    try {
      ref = roomRef(resourceId, roomId);
    } catch (error) {
      refError = error;
    }
  }
  const locking = lock && held !== undefined && uniqueLocks.length > 0;
  const [row]: (WriterFactsRow & { xid?: string })[] = locking
    ? await lockedWriterFactsLocking(db, resourceId, caller.principal.id, ref, JSON.stringify(uniqueLocks))
    : await (lock ? lockedWriterFacts : writerFacts)(db, resourceId, caller.principal.id, ref);
  if (row && locking) for (const key of uniqueLocks) held.add(key);
  if (!row || row.deployment_id !== caller.deployment.id) throw resourceNotFound(resourceId);
  const resource: ResourceRef = { id: resourceId, deploymentId: row.deployment_id, type: row.type, visibility: row.visibility };
  const active = row.state === 'active' && row.role !== null;
  if (active) knownResources.set(knownKey(resourceId, caller.principal.id), { deploymentId: row.deployment_id, type: row.type });
  return {
    resource,
    roles: { resourceRole: active ? row.role : null, grants: active ? grantsOf(row.grants) : new Map() },
    room: () => {
      if (refError) throw refError;
      if (ref === null) return null;
      if (row.room_resource === null) throw noRoom(ref, resourceId);
      if (row.room_resource !== resourceId) throw invalidRoom(roomId!, resourceId);
      return ref;
    },
    ...(row.xid ? { xid: row.xid } : {}),
  };
}

/** roomOf on the SQL layer: `roomId` of a destination, null for the default room, else a room record of this resource. */
export async function roomIn(db: Sql, resourceId: string, roomId: string | undefined): Promise<string | null> {
  if (roomId === undefined) return null;
  const ref = roomRef(resourceId, roomId);
  if (ref === null) return null;
  const room = await db.selectFrom('rooms').select('resource_id').where('id', '=', ref).executeTakeFirst();
  if (!room) throw noRoom(ref, resourceId);
  if (room.resource_id !== resourceId) throw invalidRoom(roomId, resourceId);
  return ref;
}
