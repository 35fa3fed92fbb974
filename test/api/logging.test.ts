/** One structured logger: client errors at debug without stacks; unexpected ones with stack and request id. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeError } from '../../src/error-responses.js';
import { captureLogs, logger, setLogLevel, withRequestId } from '../../src/lib/logger.js';
import { startTestApp, type TestContext } from '../helpers/app.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

describe('logging', () => {
  it('an unauthenticated request and a GraphQL syntax error log nothing above debug, and no stack', async () => {
    setLogLevel('debug');
    const logs = captureLogs();
    try {
      const unauthenticated = await ctx.anonymous.gql('{ resources { id } }');
      expect(unauthenticated.errors[0].extensions.code).toBe('unauthenticated');
      const syntax = await ctx.anonymous.gql('{ resources { id ');
      expect(syntax.errors[0].extensions.code).toBe('invalid_argument');
      const rest = await ctx.anonymous.get('/v1/resources');
      expect(rest.status).toBe(401);
    } finally {
      logs.stop();
      setLogLevel('silent');
    }
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const line of logs.lines) {
      expect(line.level, JSON.stringify(line)).toBeLessThanOrEqual(20);
      expect(JSON.stringify(line)).not.toMatch(/\n\s+at /);
    }
    // Each request has an access line carrying its request id.
    const access = logs.lines.filter(l => l.msg === 'request');
    expect(access.map(l => l.status)).toEqual(expect.arrayContaining([200, 401]));
    for (const line of access) expect(line.reqId).toMatch(/\S{8,}/);
  });

  it('every response carries x-request-id; a sane client id is kept', async () => {
    const fresh = await ctx.anonymous.get('/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await ctx.anonymous.request('GET', '/healthz', undefined, { 'x-request-id': 'trace-1234567' });
    expect(kept.headers.get('x-request-id')).toBe('trace-1234567');
  });

  it('an unexpected error is logged once with its stack and the request id, which the client also gets', () => {
    setLogLevel('info');
    const logs = captureLogs();
    let shape: ReturnType<typeof describeError>;
    try {
      shape = withRequestId('req-abcdef12', () => describeError(new TypeError('boom')));
    } finally {
      logs.stop();
      setLogLevel('silent');
    }
    expect(shape.status).toBe(500);
    expect(shape.code).toBe('internal');
    expect(shape.message).toContain('req-abcdef12');
    expect(shape.details).toEqual({ requestId: 'req-abcdef12' });
    expect(shape.message).not.toContain('boom');
    expect(logs.lines).toHaveLength(1);
    expect(logs.lines[0]).toMatchObject({ level: 50, reqId: 'req-abcdef12', err: { message: 'boom' } });
    expect(logs.lines[0].err.stack).toContain('TypeError: boom');
    expect(logger.level).toBe('silent');
  });
});
