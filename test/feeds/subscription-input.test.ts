/**
 * Issue 24 item 20: a subscription whose variables their types refuse answers `invalid_argument`
 * like a query, over graphql-ws and SSE, and logs no unexpected error.
 */
import { describe, expect } from 'vitest';
import { captureLogs, setLogLevel } from '../../src/lib/logger.js';
import { MEMBERS_LIVE, subscribe } from '../helpers/feeds.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ app: { listen: true }, users: ['alice'] });

const ROWS_LIVE = 'subscription($input: DbSelectInput!) { rowsLive(input: $input) { op row } }';
const mistakes: [string, string, Record<string, unknown>][] = [
  ['membersLive with a boolean id', MEMBERS_LIVE, { id: true }],
  ['rowsLive with a number for the table and a string for the scope', ROWS_LIVE, { input: { table: 5, scope: 'x' } }],
  ['rowsLive without its input', ROWS_LIVE, {}],
];

/** Runs `fn` with logs captured at info and answers the lines above info (warnings and errors). */
async function loudLines(fn: () => Promise<void>) {
  setLogLevel('info');
  const logs = captureLogs();
  try {
    await fn();
  } finally {
    logs.stop();
    setLogLevel('silent');
  }
  return logs.lines.filter(line => line.level > 30);
}

describe('a subscription with wrong-typed variables', () => {
  it.for(mistakes)('%s: graphql-ws answers invalid_argument and logs nothing', async ([, query, variables], { ctx, s }) => {
    const loud = await loudLines(async () => {
      const feed = subscribe(ctx.url, s.users.alice.token!, query, variables);
      const answer = await feed.next();
      expect(answer.errors?.length).toBeGreaterThan(0);
      for (const error of answer.errors!) expect(error.extensions).toMatchObject({ code: 'invalid_argument', status: 400 });
      await feed.dispose();
    });
    expect(loud).toEqual([]);
  });

  it.for(mistakes)('%s: SSE answers invalid_argument and logs nothing', async ([, query, variables], { ctx, s }) => {
    const loud = await loudLines(async () => {
      const res = await ctx.fetch('/graphql', {
        method: 'POST',
        headers: { authorization: `Bearer ${s.users.alice.token}`, 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query, variables }),
      });
      const text = await res.text();
      const payloads = [...text.matchAll(/^data: (\{.*\})$/gm)].map(m => JSON.parse(m[1]));
      const errors = payloads.flatMap(p => p.errors ?? []);
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) expect(error.extensions).toMatchObject({ code: 'invalid_argument', status: 400 });
    });
    expect(loud).toEqual([]);
  });

  it('a query with the same mistake answers the same code', async ({ s }) => {
    const res = await s.users.alice.post('/graphql', { query: 'query($id: ID!) { resource(id: $id) { id } }', variables: { id: true } });
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_argument', status: 400 });
  });
});
