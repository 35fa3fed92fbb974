/**
 * `GET /healthz` (docs/api.md §4.4): whether this instance serves (HTTP 200 once started, 503
 * before and while stopping), and whether all is well (`ok`): a live-feed bus that cannot reach
 * other instances leaves the instance serving but `degraded`, with the reason. A load balancer
 * reads the status code; monitoring reads `ok` and `status`.
 */
import { json } from './responses.js';
import type { BusHealth } from '../bus/redis-bus.js';

export function healthAnswer(started: boolean, database: 'pglite' | 'postgres', bus: BusHealth): Response {
  const status = !started ? 'unavailable' : bus.ok ? 'ok' : 'degraded';
  return json(started ? 200 : 503, { ok: status === 'ok', status, database, bus });
}
