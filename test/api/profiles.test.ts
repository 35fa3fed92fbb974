/**
 * User profiles (docs/api.md §5.6, issue 25 items 2–4): the caller's own user (`GET /v1/users/me`,
 * GraphQL `me`), editing it (`PATCH /v1/users/me`, `updateMyProfile`), and other principals' public
 * profiles by handle and by ids, visible only within the caller's app environment and rate-limited.
 * Runs on both stores (a handle race is decided by the unique index).
 */
import { describe, expect } from 'vitest';
import { issueHandleOnce } from '../../src/principals/handles.service.js';
import { type Seed, createResource, seed } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { appTest, appTestOn } from '../helpers/fixtures.js';

const available = await backends();
/** The seed, with another app's person beside it (`s.other`): the first app must never see them. */
const onBackend = appTestOn(available, {
  app: { env: { PROFILE_LOOKUPS_PER_MINUTE: '1000' } },
  users: ['alice', 'bob', 'carol'],
  seed: async (ctx, users) => ({ ...(await seed(ctx, users)), other: await seed(ctx, ['olga']) }),
});

describe.each(available)('profiles on $name', backend => {
  let n = 0;
  const it = onBackend(backend)
    .extend('prisma', async ({ ctx }) => ctx.database.prisma)
    .extend('person', async ({ s }) => {
      return () => s.user(`p${++n}`);
    });

  const setProfile = (who: { request: Seed['users'][string]['request'] }, body: unknown) => who.request('PATCH', '/v1/users/me', body);

  it('item 2: GET /v1/users/me and GraphQL me answer { id, kind, handle, displayName, email, profile }', async ({ s }) => {
    const { alice } = s.users;
    const me = await alice.get('/v1/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: alice.id,
      kind: 'user',
      handle: null,
      displayName: 'alice',
      email: null,
      profile: { handle: null, displayName: 'alice' },
    });
    const gql = await alice.gql('{ me { id email profile { handle displayName } owner { id } } }');
    expect(gql.data.me).toEqual({ id: alice.id, email: null, profile: { handle: null, displayName: 'alice' }, owner: null });
    // Own columns only is the prepared read (no Prisma query): the same answer.
    const own = await alice.gql('{ me { id kind handle displayName profile { handle displayName } } }');
    expect(own.data.me).toEqual({ id: alice.id, kind: 'user', handle: null, displayName: 'alice', profile: { handle: null, displayName: 'alice' } });
  });

  it("item 2: email is only ever the caller's own (an agent does not see its owner's)", async ({ ctx, prisma, person }) => {
    const user = await person();
    await prisma.account.create({ data: { id: `acc_${n}`, email: `p${n}@example.test`, passwordHash: 'x', principalId: user.id } });
    expect((await user.get('/v1/users/me')).body.email).toBe(`p${n}@example.test`);
    const agent = await user.post('/v1/agents', { name: 'helper' });
    const asAgent = await ctx.client(agent.body.token).gql('{ me { kind email owner { id email } } }');
    expect(asAgent.data.me).toEqual({ kind: 'agent', email: null, owner: { id: user.id, email: null } });
    expect((await ctx.client(agent.body.token).gql('{ me { kind handle } }')).data.me).toEqual({ kind: 'agent', handle: null });
  });

  it('item 4: a user sets, changes and clears their handle and display name; any case; cleared is never reissued', async ({ prisma, person }) => {
    const user = await person();
    const set = await setProfile(user, { handle: 'Dana_Smith', displayName: '  Dana Smith ' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ handle: 'dana_smith', displayName: 'Dana Smith', profile: { handle: 'dana_smith', displayName: 'Dana Smith' } });
    // Absent fields stay; null clears.
    expect((await setProfile(user, { displayName: 'D.' })).body).toMatchObject({ handle: 'dana_smith', displayName: 'D.' });
    const cleared = await setProfile(user, { handle: null });
    expect(cleared.body).toMatchObject({ handle: null, displayName: 'D.' });
    // Consent rule 6: a handle cleared by its user is never issued again by the gateway.
    expect(await issueHandleOnce(prisma, user.id, 'dana')).toBeNull();
    expect((await prisma.principal.findUniqueOrThrow({ where: { id: user.id } })).handle).toBeNull();
    // Over GraphQL, the same.
    const gql = await user.gql('mutation { updateMyProfile(input: { handle: "DANA2" }) { handle profile { handle } } }');
    expect(gql.data.updateMyProfile).toEqual({ handle: 'dana2', profile: { handle: 'dana2' } });
  });

  it('item 4: a taken handle is 409 handle_taken, any case, and changes nothing; bad input is 400; agents cannot edit', async ({ ctx, person }) => {
    const [first, second] = [await person(), await person()];
    expect((await setProfile(first, { handle: 'taken_one' })).status).toBe(200);
    for (const handle of ['taken_one', 'TAKEN_ONE']) {
      const refused = await setProfile(second, { handle, displayName: 'Second' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: 'handle_taken', message: expect.stringContaining('taken_one') });
    }
    expect((await second.get('/v1/users/me')).body).toMatchObject({ handle: null, displayName: expect.not.stringMatching('Second') });
    for (const body of [
      { handle: 'ab' },
      { handle: 'no spaces' },
      { handle: 'x'.repeat(21) },
      { displayName: 'x'.repeat(101) },
      { displayName: 'a\u0007b' },
      { nick: 'x' },
    ]) {
      const refused = await setProfile(second, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error).toBe('invalid_argument');
    }
    const agent = await second.post('/v1/agents', { name: 'bot' });
    const byAgent = await setProfile(ctx.client(agent.body.token), { displayName: 'Mine now' });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.error).toBe('agents_cannot_edit_profiles');
  });

  it('item 4: two people racing for one handle: one gets it, the other 409', async ({ prisma, person }) => {
    const racers = await Promise.all([person(), person(), person()]);
    const answers = await Promise.all(racers.map(r => setProfile(r, { handle: 'raced_handle' })));
    expect(answers.map(a => a.status).sort()).toEqual([200, 409, 409]);
    expect(await prisma.principal.count({ where: { handle: 'raced_handle' } })).toBe(1);
  });

  it('item 3: byHandle and profiles see only principals the app has seen (members of its resources, _app included)', async ({ s, prisma }) => {
    const { alice, bob, carol } = s.users;
    for (const [who, handle] of [
      [bob, 'bob_h'],
      [carol, 'carol_h'],
      [s.other.users.olga, 'olga_h'],
    ] as const) {
      expect((await setProfile(who, { handle })).status).toBe(200);
    }
    const team = await createResource(alice, 'team', 'Seen');
    expect((await alice.post(`/v1/resources/${team}/invite`, { userId: bob.id })).status).toBe(200);

    // Bob is seen (even while only invited); any case finds him.
    const byHandle = await alice.get('/v1/users/by-handle/BOB_H');
    expect(byHandle.body).toEqual({ id: bob.id, handle: 'bob_h', displayName: 'bob' });
    // Carol exists but is in no resource of the app; Olga is another app's: both look like no one.
    for (const handle of ['carol_h', 'olga_h', 'nobody_h', 'not a handle']) {
      const missing = await alice.get(`/v1/users/by-handle/${encodeURIComponent(handle)}`);
      expect(missing.status, handle).toBe(404);
      expect(missing.body.error).toBe('user_not_found');
    }
    const gql = await alice.gql('query ($h: String!) { userByHandle(handle: $h) { id } }', { h: 'carol_h' });
    expect(gql).toEqual({ data: { userByHandle: null } });

    const ids = [carol.id, bob.id, s.other.users.olga.id, 'usr_nobody', alice.id, bob.id];
    const profiles = await alice.post('/v1/users/profiles', { ids });
    expect(profiles.body).toEqual({
      profiles: [
        { id: bob.id, handle: 'bob_h', displayName: 'bob' },
        { id: alice.id, handle: null, displayName: 'alice' },
      ],
    });
    // _app counts: a member of the app's `_app` resource is seen (consent puts every person there).
    const app = await prisma.resource.findFirstOrThrow({ where: { type: '_app', deployment: { appId: s.appId, env: 'dev' } } });
    await prisma.membership.create({ data: { resourceId: app.id, principalId: carol.id, role: 'reader', state: 'active' } });
    expect((await alice.get('/v1/users/by-handle/carol_h')).body.id).toBe(carol.id);
    const sdkShape = await alice.gql('query ($ids: [ID!]!) { userProfiles(ids: $ids) { id handle } }', { ids: [carol.id] });
    expect(sdkShape.data.userProfiles).toEqual([{ id: carol.id, handle: 'carol_h' }]);
    // Bounded: more than 100 ids is refused.
    const tooMany = await alice.post('/v1/users/profiles', { ids: Array.from({ length: 101 }, (_, i) => `usr_${i}`) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toBe('invalid_argument');
  });
});

const rateLimited = appTest({ app: { env: { PROFILE_LOOKUPS_PER_MINUTE: '5' } }, users: ['eve', 'finn'] });

describe('profile lookups are rate-limited per person and app', () => {
  const it = rateLimited;

  it('past PROFILE_LOOKUPS_PER_MINUTE: 429 too_many_lookups with Retry-After; agents count as their owner; a minute later, allowed', async ({
    ctx,
    s,
  }) => {
    const { eve, finn } = s.users;
    const agent = await eve.post('/v1/agents', { name: 'prober' });
    const lookups = [
      () => eve.get('/v1/users/by-handle/guess_1'),
      () => eve.post('/v1/users/profiles', { ids: ['usr_a'] }),
      () => ctx.client(agent.body.token).get('/v1/users/by-handle/guess_2'),
      () => eve.get('/v1/users/by-handle/guess_3'),
      () => ctx.client(agent.body.token).gql('{ userByHandle(handle: "guess_4") { id } }'),
    ];
    for (const lookup of lookups) expect([200, 404]).toContain(((await lookup()) as { status?: number }).status ?? 200);
    const refused = await eve.get('/v1/users/by-handle/guess_5');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('too_many_lookups');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await ctx.client(agent.body.token).post('/v1/users/profiles', { ids: [] })).status).toBe(429);
    // Another person has their own allowance; the window passes.
    expect((await finn.get('/v1/users/by-handle/guess_6')).status).toBe(404);
    ctx.advance(61_000);
    expect((await eve.get('/v1/users/by-handle/guess_7')).status).toBe(404);
  });
});
