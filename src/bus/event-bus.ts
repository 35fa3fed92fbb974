/**
 * The bus membership changes travel on. Services publish after their transaction commits; the
 * bus routes each event to two topics (the resource's roster, the member's own rows). Delivery
 * runs over an event target: in-process by default, Redis pub/sub when REDIS_URL is set
 * (@graphql-yoga/redis-event-target), so a subscriber on one instance sees changes made on
 * another. The bus listens to the target once per topic and fans out to its subscribers from a
 * Set, so thousands of subscribers on one roster cost one transport subscription.
 */
import type { MembershipState } from '../membership/membership.rules.js';
import type { Role } from '../core/roles.rules.js';
import { logger } from '../lib/logger.js';
import type { Stamped } from './commit-order.js';
import { type BusHealth, namespacedTarget, watchRedis } from './redis-bus.js';

export interface MemberRowEvent {
  /** `<resourceId>:<userId>` (docs/api.md §6). */
  id: string;
  resourceId: string;
  userId: string;
  role: Role;
  state: MembershipState;
}

export interface MembershipEvent extends Stamped {
  op: 'insert' | 'update' | 'delete';
  deploymentId: string;
  row: MemberRowEvent;
}

/** A room grant as the rooms feed carries it (docs/api.md §10.4): exactly these three columns. */
export interface GrantRowEvent {
  resourceId: string;
  roomId: string;
  /** The grant itself; the effective role is min(resource role, grant). */
  role: Role;
}

export interface GrantEvent extends Stamped {
  op: 'insert' | 'update' | 'delete';
  deploymentId: string;
  /** Whose grant it is: the only subscriber that sees it. */
  principalId: string;
  row: GrantRowEvent;
}

/**
 * A row-store change (docs/api.md §6, live rows), after commit: where the row is seen from (a
 * resource, and its author's own rows) and the row as the row store reads it. Who may see it is
 * decided per subscriber (src/rows/rows.service.ts liveRows).
 */
export interface RowEvent extends Stamped {
  op: 'insert' | 'update' | 'delete';
  deploymentId: string;
  table: string;
  /** The resource it is seen in (owned there or linked into it); null for a user's own row alone. */
  resourceId: string | null;
  /** Its room in that resource (null: the default room), and where it was before a moveRoom. */
  roomId: string | null;
  previousRoomId: string | null;
  creatorId: string | null;
  /** Also a row of its author's own rows (a top-level table's row, not a resource's). */
  own: boolean;
  row: Record<string, unknown>;
  /** A delete because the resource itself went (its environment reset or deleted): no member has a role left to judge by. */
  resourceGone?: boolean;
}

/**
 * `member:<resourceId>` (a roster), `principal:<userId>` (one member's rows),
 * `grants:<userId>` (one principal's room grants) or `rows:<deploymentId>:<table>` (row changes).
 */
export type Topic = `member:${string}` | `principal:${string}` | `grants:${string}` | `rows:${string}`;

/** What a topic carries: grant events on `grants:*`, row events on `rows:*`, membership events on the others. */
export type EventOf<T extends Topic> = T extends `grants:${string}` ? GrantEvent : T extends `rows:${string}` ? RowEvent : MembershipEvent;

export type Listener = (event: MembershipEvent) => void;

interface Transport {
  target: EventTarget;
  /** Resolves once a topic listened to before the call receives what is published from then on. */
  settled(): Promise<void>;
  health?(): BusHealth;
  close(): Promise<void>;
}

export class EventBus {
  private readonly topics = new Map<string, { listeners: Set<(event: never) => void>; relay: (e: Event) => void }>();
  private readonly everything = new Set<Listener>();
  /** Told each event's delivery lag in seconds, once per topic it reaches here (/metrics). */
  private lagObserver: ((seconds: number) => void) | null = null;

  private constructor(
    private readonly transport: Transport,
    readonly kind: 'memory' | 'redis',
  ) {}

  static inProcess(): EventBus {
    return new EventBus({ target: new EventTarget(), settled: async () => {}, close: async () => {} }, 'memory');
  }

  /**
   * ioredis connects lazily and retries on its own; a lost connection and its recovery are logged
   * once each and reported by `health()` (src/bus/redis-bus.ts). Every channel is under
   * `namespace:` (one per deployment). Its packages are loaded only here: a process without
   * REDIS_URL never loads them (start-up and memory).
   */
  static async redis(url: string, { namespace }: { namespace: string }): Promise<EventBus> {
    const [{ createRedisEventTarget }, { Redis }] = await Promise.all([import('@graphql-yoga/redis-event-target'), import('ioredis')]);
    const publishClient = new Redis(url, { maxRetriesPerRequest: 3 });
    // Subscriptions wait for the connection however long it is down, then are made: a feed
    // started meanwhile attaches once Redis returns.
    const subscribeClient = new Redis(url, { maxRetriesPerRequest: null });
    const connection = watchRedis([publishClient, subscribeClient]);
    // The event target neither awaits nor catches its commands: a publish that fails while
    // Redis is down would be an unhandled rejection (which ends the process).
    const publisher = { publish: (channel: string, message: string) => publishClient.publish(channel, message).catch(connection.dropped) };
    const subscriber = {
      on: subscribeClient.on.bind(subscribeClient),
      subscribe: (channel: string) => subscribeClient.subscribe(channel).catch(connection.dropped),
      unsubscribe: (channel: string) => subscribeClient.unsubscribe(channel).catch(connection.dropped),
    };
    const target = createRedisEventTarget<CustomEvent>({
      publishClient: publisher as unknown as typeof publishClient,
      subscribeClient: subscriber as unknown as typeof subscribeClient,
    }) as unknown as EventTarget;
    return new EventBus(
      {
        target: namespacedTarget(target, namespace),
        health: connection.health,
        // The event target sends SUBSCRIBE without a promise; a PING on the same connection is
        // answered after it, so its reply means the subscription is in place (while Redis is
        // away, the subscribe connection waits for it, and so does this).
        settled: async () => {
          await subscribeClient.ping();
        },
        close: async () => {
          connection.stop();
          // quit() waits for the connection: while Redis is away it would wait without end.
          await Promise.allSettled([publishClient, subscribeClient].map(client => (client.status === 'ready' ? client.quit() : client.disconnect())));
        },
      },
      'redis',
    );
  }

  /** Whether events reach every instance: always in process; over Redis, while connected. */
  health(): BusHealth {
    return this.transport.health?.() ?? { kind: this.kind, ok: true };
  }

  /** Every event published by this instance (in-process consumers such as metrics or tests). */
  subscribe(listener: Listener): () => void {
    this.everything.add(listener);
    return () => this.everything.delete(listener);
  }

  /** Reports every event's publish-to-delivery lag to `observer` (one observer: the metrics). */
  observeLag(observer: (seconds: number) => void): void {
    this.lagObserver = observer;
  }

  /** Whether any feed listens on `topic` in this process (tests and diagnostics: a finished feed leaves none). */
  hasListeners(topic: Topic): boolean {
    return this.topics.has(topic);
  }

  /** Listens to one topic, from any instance; returns the unsubscribe function. */
  listen<T extends Topic>(topic: T, listener: (event: EventOf<T>) => void): () => void {
    let entry = this.topics.get(topic);
    if (!entry) {
      const listeners = new Set<(event: never) => void>();
      const relay = (event: Event) => {
        const detail = (event as CustomEvent<never>).detail;
        const publishedAt = (detail as Stamped | null)?.publishedAt;
        // Over Redis it includes the clocks' difference between instances.
        if (this.lagObserver && publishedAt) this.lagObserver(Math.max(0, Date.now() - publishedAt) / 1000);
        for (const deliver of listeners) deliver(detail);
      };
      entry = { listeners, relay };
      this.topics.set(topic, entry);
      this.transport.target.addEventListener(topic, relay);
    }
    entry.listeners.add(listener as (event: never) => void);
    return () => {
      const current = this.topics.get(topic);
      if (!current?.listeners.delete(listener as (event: never) => void) || current.listeners.size > 0) return;
      this.topics.delete(topic);
      this.transport.target.removeEventListener(topic, current.relay);
    };
  }

  /**
   * Resolves once every topic listened to so far receives what any instance publishes from now on
   * (Redis subscribes asynchronously): a feed waits for it before reading its snapshot.
   */
  settled(): Promise<void> {
    return this.transport.settled();
  }

  publish(events: readonly MembershipEvent[]): void {
    for (const event of events) {
      event.publishedAt ??= Date.now();
      for (const listener of this.everything) {
        try {
          listener(event);
        } catch (error) {
          logger.error({ err: error }, 'event listener failed');
        }
      }
      this.transport.target.dispatchEvent(new CustomEvent(`member:${event.row.resourceId}`, { detail: event }));
      this.transport.target.dispatchEvent(new CustomEvent(`principal:${event.row.userId}`, { detail: event }));
    }
  }

  /** Room grant changes, each to its holder's `grants:` topic only (the rooms feed, docs/api.md §10.4). */
  publishGrants(events: readonly GrantEvent[]): void {
    for (const event of events) {
      event.publishedAt ??= Date.now();
      this.transport.target.dispatchEvent(new CustomEvent(`grants:${event.principalId}`, { detail: event }));
    }
  }

  /** Row-store changes, to their table's topic (the live row feed). */
  publishRows(events: readonly RowEvent[]): void {
    for (const event of events) {
      event.publishedAt ??= Date.now();
      this.transport.target.dispatchEvent(new CustomEvent(`rows:${event.deploymentId}:${event.table}`, { detail: event }));
    }
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

export function memberRow(resourceId: string, userId: string, role: Role, state: MembershipState): MemberRowEvent {
  return { id: `${resourceId}:${userId}`, resourceId, userId, role, state };
}
