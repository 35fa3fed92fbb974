/**
 * Live feeds of docs/api.md §6 as async iterables, one per subscription. Each listens to its topic
 * before checking the gate, so nothing committed between the check and the stream is lost.
 */
import type { PrincipalCaller } from '../domain/caller.js';
import { rosterAccess } from '../domain/visibility.js';
import { AppError, forbidden } from '../errors.js';
import type { EventOf, GrantEvent, MembershipEvent, Topic } from '../realtime/event-bus.js';
import { badRequest } from '../errors.js';
import { FeedQueue } from '../realtime/feed-queue.js';
import type { ServiceDeps } from './deps.js';
import { resourceNotFound } from './membership-store.js';
import type { LiveRow, RowService } from './rows.js';

/** Whether the event removes the subscriber from the roster they are watching. */
const endsMembership = (event: MembershipEvent, userId: string) =>
  event.row.userId === userId && (event.op === 'delete' || event.row.state !== 'active');

export function createFeedService(deps: ServiceDeps, rows: RowService) {
  /** The members-list gate: active members only (404 hides members-only resources). */
  async function requireRosterAccess(caller: PrincipalCaller, resourceId: string) {
    const resource = await deps.prisma.resource.findUnique({
      where: { id: resourceId },
      select: { deploymentId: true, visibility: true, memberships: { where: { principalId: caller.principal.id }, select: { state: true } } },
    });
    if (!resource || resource.deploymentId !== caller.deployment.id) throw resourceNotFound(resourceId);
    const access = rosterAccess(resource.visibility, resource.memberships[0] ?? null);
    if (access === 'hidden') throw resourceNotFound(resourceId);
    if (access === 'not_member') throw forbidden('not_resource_member', 'Only active members can follow the member list.');
  }

  /**
   * A feed of `topic` for `caller`: events that pass `keep` are queued for the subscriber; the
   * feed ends after an event `last` marks final, and fails when the caller's credential expires.
   */
  function follow<T extends Topic>(
    caller: PrincipalCaller,
    topic: T,
    keep: (event: EventOf<T>) => boolean,
    last: (event: EventOf<T>) => boolean,
  ): FeedQueue<EventOf<T>> {
    let timer: NodeJS.Timeout | undefined;
    const queue: FeedQueue<EventOf<T>> = new FeedQueue(() => {
      clearTimeout(timer);
      unlisten();
    });
    const unlisten = deps.bus.listen(topic, event => {
      if (!keep(event)) return;
      queue.push(event);
      if (last(event)) queue.end();
    });
    if (caller.expiresAt) {
      // setTimeout caps at ~24.8 days; credentials that live longer never reach it in one connection.
      const ms = Math.min(Math.max(caller.expiresAt - deps.now().getTime(), 0), 2 ** 31 - 1);
      timer = setTimeout(() => queue.fail(new AppError('token_expired', 401, 'Your credential expired: refresh it and subscribe again.')), ms);
    }
    return queue;
  }

  return {
    requireRosterAccess,

    /** `members.live()`: one resource's roster; ends after the subscriber's own removal. */
    async members(caller: PrincipalCaller, resourceId: string): Promise<AsyncIterable<MembershipEvent>> {
      const feed = follow(
        caller,
        `member:${resourceId}`,
        () => true,
        event => endsMembership(event, caller.principal.id),
      );
      try {
        await requireRosterAccess(caller, resourceId);
      } catch (error) {
        await feed.return();
        throw error;
      }
      return feed;
    },

    /** `resources.live()`: the caller's own rows across every resource of this app environment. */
    resources(caller: PrincipalCaller): AsyncIterable<MembershipEvent> {
      return follow(
        caller,
        `principal:${caller.principal.id}`,
        event => event.deploymentId === caller.deployment.id,
        () => false,
      );
    },

    /**
     * Live rows (docs/api.md §6): a table's changes in a user or resource scope, filtered by a
     * select's `where`, each judged for this subscriber when it arrives (src/services/rows.ts
     * liveJudge), in commit order.
     */
    async rows(caller: PrincipalCaller, input: { table?: unknown }): Promise<AsyncIterable<LiveRow>> {
      if (typeof input.table !== 'string' || !input.table) throw badRequest('invalid_argument', 'input.table: a table name is required.');
      // Listening before the gate, so nothing committed between the check and the stream is lost.
      const events = follow(
        caller,
        `rows:${caller.deployment.id}:${input.table}`,
        () => true,
        () => false,
      );
      let judge: Awaited<ReturnType<RowService['liveJudge']>>;
      try {
        judge = await rows.liveJudge(caller, input);
      } catch (error) {
        await events.return();
        throw error;
      }
      const out: FeedQueue<LiveRow> = new FeedQueue(() => void events.return());
      (async () => {
        for await (const event of events) {
          const seen = await judge(event);
          if (seen) out.push(seen);
        }
        out.end();
      })().catch(error => out.fail(error));
      return out;
    },

    /**
     * The rooms feed (docs/api.md §10.4): the caller's own room grants across every resource of
     * this app environment; its snapshot is `GET /v1/resources/grants`.
     */
    rooms(caller: PrincipalCaller): AsyncIterable<GrantEvent> {
      return follow(
        caller,
        `grants:${caller.principal.id}`,
        event => event.deploymentId === caller.deployment.id,
        () => false,
      );
    },
  };
}

export type FeedService = ReturnType<typeof createFeedService>;
