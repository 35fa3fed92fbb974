/**
 * The server the fuzz attacks: a listening test app (real sockets, the node edge, the embedded
 * provider reachable over its backchannel) seeded with something of everything, so that generated
 * requests can name real ids as well as nonsense: a developer, an app with `examples/team-schema.ts`
 * deployed (tables, user and resource buckets), test users with a team, a room, rows, files, an
 * invite link and an agent, and a second app whose users are strangers to the first.
 */
import team from '../../examples/team-schema.js';
import { type Seed, type TestContext, createResource, seed, startTestApp } from '../helpers/app.js';

export interface FuzzTarget {
  ctx: TestContext;
  url: string;
  /** Values the generator may put where an id, a token or a name goes (valid ones, by kind). */
  known: {
    tokens: { user: string[]; developer: string[]; agent: string[]; otherApp: string[] };
    resourceIds: string[];
    roomIds: string[];
    userIds: string[];
    appIds: string[];
    inviteCodes: string[];
    envs: string[];
    buckets: string[];
    filePaths: string[];
    tables: string[];
    types: string[];
    origins: string[];
  };
  close(): Promise<void>;
}

const must = <T extends { status: number; body: any }>(res: T, what: string): T => {
  if (res.status >= 300) throw new Error(`fuzz seed: ${what} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res;
};

export async function startFuzzTarget(): Promise<FuzzTarget> {
  // Silent: a 5xx is reported by the fuzz with its request (TEST_LOG_LEVEL=error shows the stacks too).
  const ctx = await startTestApp({ listen: true, env: { LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' } });
  try {
    const main = await seed(ctx, ['alice', 'bob', 'carol']);
    must(await main.developer.request('PUT', `/dev/apps/${main.appId}/deployments/dev`, { schema: team }), 'deploy');
    const other: Seed = await seed(ctx, ['mallory']);
    const { alice, bob, carol } = main.users;

    const teamId = await createResource(alice, 'team', 'Fuzz team');
    const clubId = await createResource(alice, 'club', 'Fuzz club');
    must(await alice.post(`/v1/resources/${teamId}/invite`, { userId: bob.id, role: 'writer' }), 'invite');
    must(await bob.post(`/v1/resources/${teamId}/accept`), 'accept');
    const room = must(await alice.post(`/v1/resources/${teamId}/rooms`, { name: 'Fuzz room' }), 'room').body;
    must(await alice.request('PUT', `/v1/resources/${teamId}/rooms/${room.id}/grants/${bob.id}`, { role: 'writer' }), 'grant');
    const link = must(await alice.post(`/v1/resources/${teamId}/invite-link`, { role: 'reader' }), 'invite link').body;
    const agent = must(await alice.post('/v1/agents', { name: 'fuzz agent' }), 'agent').body;
    const scope = { kind: 'resource', resourceId: teamId };
    must(
      await bob.post('/v1/db/query', {
        scope,
        table: 'member_events',
        op: 'insert',
        values: { memberId: crypto.randomUUID(), kind: 'joined', sequence: '1' },
      }),
      'row',
    );
    const upload = (who: typeof alice, path: string, body: string) =>
      who.fetch(path, { method: 'PUT', headers: { authorization: `Bearer ${who.token}`, 'content-type': 'text/plain' }, body });
    for (const res of [
      await upload(bob, `/v1/files/resources/${teamId}/shared/plans/a.txt`, 'plan'),
      await upload(bob, '/v1/files/me/docs/cv.txt', 'cv'),
    ]) {
      if (res.status >= 300) throw new Error(`fuzz seed: upload answered ${res.status} ${await res.text()}`);
    }

    return {
      ctx,
      url: ctx.url,
      known: {
        tokens: {
          user: [alice.token!, bob.token!, carol.token!],
          developer: [main.developer.token!],
          agent: [agent.token],
          otherApp: [other.users.mallory.token!],
        },
        resourceIds: [teamId, clubId],
        roomIds: [room.id, teamId],
        userIds: [alice.id, bob.id, carol.id, other.users.mallory.id, agent.id],
        appIds: [main.appId, other.appId],
        inviteCodes: [String(link.url).split('/').pop()!],
        envs: ['dev', 'prod', 'staging'],
        buckets: ['docs', 'shared'],
        filePaths: ['plans/a.txt', 'cv.txt', 'plans'],
        tables: ['member_events', 'member_notes', 'member_budgets', 'posts', 'profiles'],
        types: ['team', 'club', '_app'],
        origins: [main.origin, other.origin],
      },
      close: () => ctx.close(),
    };
  } catch (error) {
    await ctx.close();
    throw error;
  }
}
