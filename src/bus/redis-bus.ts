/**
 * What the event bus needs around Redis (REDIS_URL): a namespace per deployment, since Redis
 * pub/sub channels are server-wide (a `/db` number does not separate them) and two deployments on
 * one Redis would otherwise deliver each other's events; and the connection's health, reported by
 * /healthz, with a lost connection and its recovery logged once each (ioredis reports every failed
 * reconnect as an error, several a second).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { logger } from '../lib/logger.js';

/**
 * The namespace of a deployment: a digest of its database's identity (Database.identity), so
 * every instance of one deployment agrees on it without configuration and two deployments differ.
 */
export function defaultRedisNamespace(databaseIdentity: string): string {
  return `gh-${createHash('sha256').update(databaseIdentity).digest('hex').slice(0, 16)}`;
}

/** An event target whose topics travel as `<namespace>:<topic>` channels; listeners see the topic's events as before. */
export function namespacedTarget(target: EventTarget, namespace: string): EventTarget {
  const channel = (topic: string) => `${namespace}:${topic}`;
  return {
    addEventListener: (topic, listener, options) => target.addEventListener(channel(topic), listener, options),
    removeEventListener: (topic, listener, options) => target.removeEventListener(channel(topic), listener, options),
    dispatchEvent: event => target.dispatchEvent(new CustomEvent(channel(event.type), { detail: (event as CustomEvent).detail })),
  };
}

export interface BusHealth {
  kind: 'memory' | 'redis';
  ok: boolean;
  /** Why not, for operators (no address or credential: /healthz is public). */
  reason?: string;
}

/**
 * Follows the bus's Redis connections. Healthy when every one is ready; the first failure after
 * health (or at start) logs one warning, the return to health one info line, whatever ioredis
 * reports in between. Commands that fail meanwhile (a publish while disconnected) are counted in
 * the recovery line, never thrown at their caller.
 */
export function watchRedis(clients: readonly Redis[]) {
  const ready = new Set<Redis>();
  let reason: string | null = CONNECTING;
  let down = false;
  let stopped = false;
  let dropped = 0;

  const fail = (client: Redis, error: Error | null) => {
    if (stopped) return;
    ready.delete(client);
    // A close after an error keeps the error's reason.
    if (error || reason === null || reason === CONNECTING) reason = describeFailure(error);
    if (down) return;
    down = true;
    logger.warn(
      { err: error?.message ?? 'connection closed' },
      'redis connection lost: live feeds do not reach other instances until it returns (retrying)',
    );
  };

  for (const client of clients) {
    client.on('ready', () => {
      ready.add(client);
      if (ready.size < clients.length) return;
      if (down) logger.info({ droppedEvents: dropped }, 'redis connection restored: live feeds reach other instances again');
      down = false;
      dropped = 0;
      reason = null;
    });
    client.on('error', error => fail(client, error));
    client.on('close', () => fail(client, null));
  }

  return {
    health(): BusHealth {
      return reason === null ? { kind: 'redis', ok: true } : { kind: 'redis', ok: false, reason };
    },
    /** A command that failed while the connection was down: counted, not thrown. */
    dropped(error: unknown) {
      dropped++;
      logger.debug({ err: (error as Error)?.message }, 'redis command failed while disconnected');
    },
    /** Before a deliberate quit: what follows is not an outage. */
    stop() {
      stopped = true;
    },
  };
}

const CONNECTING = 'connecting to Redis';

function describeFailure(error: Error | null): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code) return `Redis unreachable (${code})`;
  // Redis' own errors start with their code (WRONGPASS, NOAUTH, LOADING…).
  const first = error?.message.match(/^[A-Z]{3,}\b/)?.[0];
  return first ? `Redis refused the connection (${first})` : 'Redis connection lost';
}
