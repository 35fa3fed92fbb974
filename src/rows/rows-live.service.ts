/**
 * The live row feed (`rowsLive`, docs/api.md §6 "Live rows"): a select's scope, table and where,
 * kept live. A change is judged against each subscriber's access at the moment it arrives, and
 * that judging is the expensive part of fan-out, so it is shared:
 *
 * - Subscriptions with the same caller, scope, room and where form one group: a change is judged
 *   once per group, and the group's subscriptions all receive the same change object (serialised
 *   once too, src/feeds/shared-subscribe.service.ts).
 * - The roles a change needs (each distinct subscriber's resource role and room grants) are read
 *   through one DataLoader per change: one batch of statements, not one lookup per subscription.
 * - Groups are judged and changes handed out in batches, yielding to the event loop in between, so
 *   a change for thousands of subscribers never holds the process (other requests get turns).
 * - ROWS_LIVE_MAX_PER_RESOURCE bounds the subscriptions on one resource per process.
 *
 * Changes of one table are dispatched one after another, so each subscription sees them in commit order.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import DataLoader from 'dataloader';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { Role } from '../core/roles.rules.js';
import { readReach, ruleFor, visitorRole } from './rows.rules.js';
import { type Condition, parseWhere, rowMatches } from './row-values.rules.js';
import { effectiveRole } from '../rooms/rooms.rules.js';
import { fail } from '../errors.js';
import { logger } from '../lib/logger.js';
import type { RowEvent } from '../bus/event-bus.js';
import { FEED_BUFFER_LIMIT } from '../feeds/feed-queue.service.js';
import { type FeedChange, SnapshotFeed } from '../feeds/snapshot-feed.service.js';
import type { SchemaIR } from '../schema/index.js';
import type { AppService } from '../apps/apps.service.js';
import type { ServiceDeps } from '../core/deps.js';
import { FEED_SNAPSHOT_MAX, type FeedOptions, type ReadSnapshot, snapshotTooLarge } from '../feeds/feeds.service.js';
import { roomRolesOf } from '../rooms/rooms.service.js';
import { type DbOperation, ROWS_MAX_LIMIT, parseOperation, querySignature } from './rows-input.service.js';
import type { RowService } from './rows.service.js';
import { type Binding, bindingIn, userBinding } from './row-binding.service.js';
import { type ResourceRef, type Roles, loadResource, roomOf } from '../membership/writer-standing.service.js';

export type RowOut = Record<string, unknown>;

/** Groups judged per turn of the event loop; their role lookups are one batch. */
export const ROWS_LIVE_JUDGE_BATCH = 100;
/** Subscriptions a judged change is handed to per turn of the event loop. */
export const ROWS_LIVE_DELIVERY_BATCH = 100;

/** A subscription's query, compiled once: what a change is judged against. */
interface LiveQuery {
  /** Same key, same judgement: caller, scope, room and where. */
  key: string;
  me: string;
  /** The resource of a resource scope; null for the caller's own rows. */
  resource: ResourceRef | null;
  /** A resource scope's room: undefined for every room, null for the default room. */
  room: string | null | undefined;
  conditions: Condition[];
  rule: ReturnType<typeof ruleFor>;
  defaultRole: Role;
}

interface Group {
  query: LiveQuery;
  feeds: Set<SnapshotFeed<RowOut>>;
}

/** The subscriptions of one `rows:<deploymentId>:<table>` topic and the changes waiting for them. */
interface TableFeeds {
  groups: Map<string, Group>;
  backlog: RowEvent[];
  draining: boolean;
  unlisten: () => void;
}

/** Counters for tests and diagnostics: how much work the fan-out did. */
export interface LiveRowStats {
  /** Changes dispatched to at least one group. */
  changes: number;
  /** Judgements made (one per group a change reached). */
  judgements: number;
  /** Batched role lookups (each a fixed number of statements). */
  roleLookups: number;
  /** Turns given back to the event loop while dispatching. */
  yields: number;
  /** The longest the fan-out held the event loop in one go, in ms (the bench reports it; tests never assert time). */
  longestTurnMs: number;
}

const invalidOperation = (message: string) => fail('invalid_operation', message);

/** Whether a change can concern the group at all (before any role is read). */
function reaches(query: LiveQuery, event: RowEvent): boolean {
  return query.resource ? event.resourceId === query.resource.id : event.own && event.creatorId === query.me;
}

/** A change to the caller's own rows, as their user-scope select reads it (no roomId or resourceId). */
function judgeOwn(query: LiveQuery, event: RowEvent): FeedChange<RowOut> | null {
  const { roomId: _room, resourceId: _resource, ...row } = event.row;
  if (event.op === 'delete') return { op: 'delete', row: { id: row.id }, snapshot: false };
  if (rowMatches(row, query.conditions)) return { op: event.op, row, snapshot: false };
  return event.op === 'update' ? { op: 'delete', row: { id: row.id }, snapshot: false } : null;
}

/**
 * A change in a resource as the subscriber sees it with `roles`: an update that takes the row out
 * of sight (another room, out of the filter) is a delete, one that brings it into sight an insert.
 */
function judgeInResource(query: LiveQuery, event: RowEvent, roles: Roles): FeedChange<RowOut> | null {
  const resource = query.resource!;
  const base = roles.resourceRole ?? visitorRole(resource.visibility, query.defaultRole);
  const sees = (room: string | null) => {
    if (query.room !== undefined && room !== query.room) return false;
    const reach =
      room === null
        ? readReach(query.rule, base)
        : readReach(query.rule, effectiveRole(roles.resourceRole, roles.grants.get(room) ?? null, false), roles.resourceRole);
    return reach === 'all' || (reach === 'own' && event.creatorId === query.me);
  };
  const row = event.row;
  const gone: FeedChange<RowOut> = { op: 'delete', row: { id: row.id }, snapshot: false };
  // With the resource gone its members have no role left: the feed hears what a visitor could read,
  // and its own rows (their ids are no news to it), never the ids of rows it could not read.
  const ownGone = event.resourceGone && event.creatorId === query.me && (query.room === undefined || query.room === event.roomId);
  if (event.op === 'delete' && ownGone) return gone;
  if (event.op === 'delete') return sees(event.roomId) ? gone : null;
  const now = sees(event.roomId) && rowMatches(row, query.conditions);
  if (event.op === 'insert') return now ? { op: 'insert', row, snapshot: false } : null;
  const before = sees(event.previousRoomId);
  if (now) return { op: before || event.previousRoomId === event.roomId ? 'update' : 'insert', row, snapshot: false };
  return before ? gone : null;
}

export function createLiveRows(deps: ServiceDeps, rows: RowService, apps: AppService) {
  const tables = new Map<string, TableFeeds>();
  /** rowsLive subscriptions per resource on this process. */
  const perResource = new Map<string, number>();
  const maxPerResource = deps.config.rowsLive.maxPerResource;
  const stats: LiveRowStats = { changes: 0, judgements: 0, roleLookups: 0, yields: 0, longestTurnMs: 0 };
  /** When the fan-out last got the event loop back (a turn starts at a change or after a yield or an await). */
  let turnStart = 0;
  const endTurn = () => {
    stats.longestTurnMs = Math.max(stats.longestTurnMs, performance.now() - turnStart);
  };
  const yieldTurn = async () => {
    stats.yields++;
    endTurn();
    await nextTurn();
    turnStart = performance.now();
  };

  async function compile(caller: PrincipalCaller, schema: SchemaIR, op: DbOperation): Promise<LiveQuery> {
    const me = caller.principal.id;
    const scopeKey = (binding: Binding, resource: ResourceRef | null, room: string | null | undefined) => {
      const conditions = parseWhere(binding.name, binding.table, op.where);
      return { conditions, key: querySignature([me, resource?.id ?? null, room === undefined ? '*' : room, binding.name, conditions]) };
    };
    if (op.scope.kind === 'user') {
      const binding = userBinding(schema, op.table);
      return { ...scopeKey(binding, null, undefined), me, resource: null, room: undefined, rule: [], defaultRole: 'reader' };
    }
    if (op.scope.kind !== 'resource') throw invalidOperation("live rows follow a user or a resource scope, not { kind: 'type' }.");
    const resource = await loadResource(deps.prisma, caller, op.scope.resourceId);
    const binding = bindingIn(schema, resource.type, op.table);
    const room = op.scope.roomId === undefined ? undefined : await roomOf(deps.prisma, resource.id, op.scope.roomId);
    return {
      ...scopeKey(binding, resource, room),
      me,
      resource,
      room,
      rule: ruleFor('read', binding.override, binding.table.access),
      defaultRole: schema.resources[resource.type]?.defaultRole ?? 'reader',
    };
  }

  /** Judges `event` for every group it can concern and hands out the changes, in batches. */
  async function dispatch(feeds: TableFeeds, event: RowEvent): Promise<void> {
    turnStart = performance.now();
    const groups = [...feeds.groups.values()].filter(group => reaches(group.query, event));
    if (groups.length === 0) return;
    stats.changes++;
    const resourceId = event.resourceId;
    // One loader per change: its roles are read once, as they are when the change is judged.
    const roles =
      resourceId === null
        ? null
        : new DataLoader<string, Roles>(
            async ids => {
              stats.roleLookups++;
              const found = await roomRolesOf(deps.prisma, resourceId, ids);
              return ids.map(id => found.get(id)!);
            },
            { maxBatchSize: ROWS_LIVE_JUDGE_BATCH },
          );
    let handed = 0;
    for (let start = 0; start < groups.length; start += ROWS_LIVE_JUDGE_BATCH) {
      const batch = groups.slice(start, start + ROWS_LIVE_JUDGE_BATCH);
      endTurn();
      const judged = await Promise.all(
        batch.map(async ({ query }) => {
          stats.judgements++;
          return query.resource ? judgeInResource(query, event, await roles!.load(query.me)) : judgeOwn(query, event);
        }),
      );
      turnStart = performance.now();
      for (const [i, change] of judged.entries()) {
        if (!change) continue;
        for (const feed of batch[i].feeds) {
          feed.offer(change, event.xid);
          if (++handed % ROWS_LIVE_DELIVERY_BATCH === 0) await yieldTurn();
        }
      }
      if (start + ROWS_LIVE_JUDGE_BATCH < groups.length) await yieldTurn();
    }
    endTurn();
  }

  /** Every feed of the table fails with `error` (a backlog past its bound, a failed role lookup). */
  function failAll(feeds: TableFeeds, error: unknown) {
    for (const group of [...feeds.groups.values()]) for (const feed of [...group.feeds]) feed.queue.fail(error);
  }

  async function drain(feeds: TableFeeds): Promise<void> {
    feeds.draining = true;
    try {
      while (feeds.backlog.length) {
        const event = feeds.backlog.shift()!;
        try {
          await dispatch(feeds, event);
        } catch (error) {
          logger.error({ err: error }, 'live rows: a change could not be judged');
          failAll(feeds, fail('feed_failed', 'This live feed stopped on a server error; subscribe again.'));
        }
      }
    } finally {
      feeds.draining = false;
    }
  }

  function tableFeeds(topic: `rows:${string}`): TableFeeds {
    let feeds = tables.get(topic);
    if (feeds) return feeds;
    const created: TableFeeds = { groups: new Map(), backlog: [], draining: false, unlisten: () => {} };
    created.unlisten = deps.bus.listen(topic, event => {
      if (created.backlog.length >= FEED_BUFFER_LIMIT) {
        // The fan-out cannot keep up with this table's writes: its subscribers start over.
        created.backlog.length = 0;
        failAll(created, fail('slow_consumer', `This feed fell more than ${FEED_BUFFER_LIMIT} events behind and was closed; subscribe again.`));
        return;
      }
      created.backlog.push(event);
      if (!created.draining) void drain(created);
    });
    tables.set(topic, (feeds = created));
    return feeds;
  }

  /** Adds `feed` to its group (listening from now on); the returned function takes it out again. */
  function register(topic: `rows:${string}`, query: LiveQuery, feed: SnapshotFeed<RowOut>): () => void {
    const resourceId = query.resource?.id;
    if (resourceId !== undefined) {
      const count = perResource.get(resourceId) ?? 0;
      if (count >= maxPerResource) {
        throw fail(
          'too_many_row_feeds',
          `This resource already has ${maxPerResource} live row feeds on this server (ROWS_LIVE_MAX_PER_RESOURCE): close one, or share one feed between views.`,
        );
      }
      perResource.set(resourceId, count + 1);
    }
    const feeds = tableFeeds(topic);
    let group = feeds.groups.get(query.key);
    if (!group) feeds.groups.set(query.key, (group = { query, feeds: new Set() }));
    group.feeds.add(feed);
    let registered = true;
    return () => {
      if (!registered) return;
      registered = false;
      group.feeds.delete(feed);
      if (group.feeds.size === 0 && feeds.groups.get(query.key) === group) feeds.groups.delete(query.key);
      if (feeds.groups.size === 0 && tables.get(topic) === feeds) {
        feeds.unlisten();
        tables.delete(topic);
      }
      if (resourceId !== undefined) {
        const left = (perResource.get(resourceId) ?? 1) - 1;
        if (left > 0) perResource.set(resourceId, left);
        else perResource.delete(resourceId);
      }
    };
  }

  return {
    /**
     * A `rowsLive` subscription: checked as its select is (its errors), then the snapshot (every
     * row the select reaches, in its order) and every later change as this subscriber sees it.
     */
    async follow(caller: PrincipalCaller, input: unknown, options: FeedOptions, readSnapshot: ReadSnapshot): Promise<{ feed: SnapshotFeed<RowOut> }> {
      const op = parseOperation({ ...(typeof input === 'object' && input !== null ? input : {}), op: 'select' });
      if (op.scope.kind === 'type') throw invalidOperation("live rows follow a user or a resource scope, not { kind: 'type' }.");
      // Read before any transaction below: on the embedded database a query outside it would wait on it.
      const { schema } = await apps.deployment(caller.deployment.id);
      const query = await compile(caller, schema, op);
      let unregister = () => {};
      const feed = new SnapshotFeed<RowOut>(() => unregister());
      unregister = register(`rows:${caller.deployment.id}:${op.table}`, query, feed);
      const select = { ...op, cursor: undefined, limit: ROWS_MAX_LIMIT };
      try {
        if (options.snapshot === false) {
          await rows.selectOn(deps.prisma, caller, schema, { ...select, limit: 1 });
          feed.start(null, []);
        } else {
          const { snapshot, value } = await readSnapshot(async tx => {
            const all: RowOut[] = [];
            for (let cursor: string | undefined; ; ) {
              const page = await rows.selectOn(tx, caller, schema, { ...select, cursor });
              all.push(...(page.rows ?? []));
              if (all.length > FEED_SNAPSHOT_MAX) throw snapshotTooLarge('This select', 'narrow its where (or subscribe with snapshot: false).');
              if (!page.nextCursor) return all;
              cursor = page.nextCursor;
            }
          });
          feed.start(snapshot, value);
        }
      } catch (error) {
        await feed.queue.return();
        throw error;
      }
      return { feed };
    },

    stats(): LiveRowStats {
      return { ...stats };
    },
  };
}

export type LiveRows = ReturnType<typeof createLiveRows>;
