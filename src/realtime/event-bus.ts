/**
 * The bus membership changes travel on. Services publish after their transaction commits; the
 * bus routes each event to two topics (the resource's roster, the member's own rows). Delivery
 * runs over an event target: in-process by default, Redis pub/sub when REDIS_URL is set
 * (@graphql-yoga/redis-event-target), so a subscriber on one instance sees changes made on
 * another. The bus listens to the target once per topic and fans out to its subscribers from a
 * Set, so thousands of subscribers on one roster cost one transport subscription.
 */
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';
import type { MembershipState } from '../domain/membership.js';
import type { Role } from '../domain/roles.js';
import { logger } from '../lib/logger.js';

export interface MemberRowEvent {
  /** `<resourceId>:<userId>` (docs/api.md §6). */
  id: string;
  resourceId: string;
  userId: string;
  role: Role;
  state: MembershipState;
}

export interface MembershipEvent {
  op: 'insert' | 'update' | 'delete';
  deploymentId: string;
  row: MemberRowEvent;
}

/** `member:<resourceId>` (a roster) or `principal:<userId>` (one member's rows). */
export type Topic = `member:${string}` | `principal:${string}`;

export type Listener = (event: MembershipEvent) => void;

interface Transport {
  target: EventTarget;
  close(): Promise<void>;
}

export class EventBus {
  private readonly topics = new Map<string, { listeners: Set<Listener>; relay: (e: Event) => void }>();
  private readonly everything = new Set<Listener>();

  private constructor(
    private readonly transport: Transport,
    readonly kind: 'memory' | 'redis',
  ) {}

  static inProcess(): EventBus {
    return new EventBus({ target: new EventTarget(), close: async () => {} }, 'memory');
  }

  /** ioredis connects lazily and retries on its own; errors are logged, not thrown. */
  static redis(url: string): EventBus {
    const publishClient = new Redis(url, { maxRetriesPerRequest: 3 });
    const subscribeClient = new Redis(url, { maxRetriesPerRequest: 3 });
    for (const client of [publishClient, subscribeClient]) {
      client.on('error', error => logger.error({ err: error.message }, 'redis error'));
    }
    const target = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient }) as unknown as EventTarget;
    return new EventBus(
      {
        target,
        close: async () => {
          await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
        },
      },
      'redis',
    );
  }

  /** Every event published by this instance (in-process consumers such as metrics or tests). */
  subscribe(listener: Listener): () => void {
    this.everything.add(listener);
    return () => this.everything.delete(listener);
  }

  /** Listens to one topic, from any instance; returns the unsubscribe function. */
  /** Whether any feed listens on `topic` in this process (tests and diagnostics: a finished feed leaves none). */
  hasListeners(topic: Topic): boolean {
    return this.topics.has(topic);
  }

  listen(topic: Topic, listener: Listener): () => void {
    let entry = this.topics.get(topic);
    if (!entry) {
      const listeners = new Set<Listener>();
      const relay = (event: Event) => {
        const detail = (event as CustomEvent<MembershipEvent>).detail;
        for (const deliver of listeners) deliver(detail);
      };
      entry = { listeners, relay };
      this.topics.set(topic, entry);
      this.transport.target.addEventListener(topic, relay);
    }
    entry.listeners.add(listener);
    return () => {
      const current = this.topics.get(topic);
      if (!current?.listeners.delete(listener) || current.listeners.size > 0) return;
      this.topics.delete(topic);
      this.transport.target.removeEventListener(topic, current.relay);
    };
  }

  publish(events: readonly MembershipEvent[]): void {
    for (const event of events) {
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

  close(): Promise<void> {
    return this.transport.close();
  }
}

export function memberRow(resourceId: string, userId: string, role: Role, state: MembershipState): MemberRowEvent {
  return { id: `${resourceId}:${userId}`, resourceId, userId, role, state };
}
