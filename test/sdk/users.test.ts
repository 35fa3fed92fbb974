/**
 * gatehouse/client profiles (issue 25 items 2–4): auth.getUser()'s shape, auth.updateProfile(),
 * users.byHandle() and users(ids).profiles(), in-process against the server (bearer mode).
 */
import { describe, expect } from 'vitest';
import { createClient, type GatehouseClient } from '../../src/sdk/index.js';
import { createResource } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';
import { refusal } from './refusal.js';

/** sdk[name]: a bearer-mode client per test user, in-process; closed when the file ends, before the app. */
const it = appTest({ users: ['ana', 'ben', 'cy'] }).extend('sdk', { scope: 'file' }, async ({ ctx, s }, { onCleanup }) => {
  const sdk: Record<string, GatehouseClient> = {};
  for (const [name, user] of Object.entries(s.users)) {
    sdk[name] = createClient({
      gatewayUrl: ctx.url,
      accessToken: user.token!,
      fetch: (input, init) => ctx.app.fetch(new Request(input, init)),
    });
  }
  onCleanup(() => {
    for (const client of Object.values(sdk)) client.close();
  });
  return sdk;
});

describe('users and profiles', () => {
  it('auth.getUser() is { id, kind, handle, displayName, email, profile: { handle, displayName } }', async ({ s, sdk }) => {
    expect(await sdk.ana.auth.getUser()).toEqual({
      id: s.users.ana.id,
      kind: 'user',
      handle: null,
      displayName: 'ana',
      email: null,
      profile: { handle: null, displayName: 'ana' },
      owner: null,
    });
  });

  it('auth.updateProfile() sets and clears; a taken handle is a GatehouseError handle_taken (409)', async ({ sdk }) => {
    const user = await sdk.ana.auth.updateProfile({ handle: 'Ana_B', displayName: 'Ana B.' });
    expect(user).toMatchObject({ handle: 'ana_b', displayName: 'Ana B.', profile: { handle: 'ana_b', displayName: 'Ana B.' } });
    expect(await refusal(sdk.ben.auth.updateProfile({ handle: 'ANA_B' }))).toMatchObject({ status: 409, code: 'handle_taken' });
    expect((await sdk.ben.auth.updateProfile({ handle: 'ben_c' })).handle).toBe('ben_c');
    expect((await sdk.ben.auth.updateProfile({ displayName: null })).profile).toEqual({ handle: 'ben_c', displayName: null });
  });

  it('users.byHandle() and users(ids).profiles() within the app; null and omissions for the unseen', async ({ s, sdk }) => {
    const team = await createResource(s.users.ana, 'team', 'Shared by handle');
    // Sharing by handle: look the person up, then invite their id.
    expect(await sdk.ana.users.byHandle('BEN_C')).toBeNull(); // ben is in no resource of the app yet
    expect((await s.users.ben.post('/v1/resources', { type: 'team', name: 'His own' })).status).toBe(200);
    const ben = await sdk.ana.users.byHandle('BEN_C');
    expect(ben).toEqual({ id: s.users.ben.id, handle: 'ben_c', displayName: null });
    await sdk.ana.resource(team).members.invite(ben!.id);
    const roster = await sdk.ana.resource(team).members.list();
    const profiles = await sdk.ana.users(roster.map(m => m.userId).concat(s.users.cy.id)).profiles();
    expect(profiles).toEqual([
      { id: s.users.ana.id, handle: 'ana_b', displayName: 'Ana B.' },
      { id: s.users.ben.id, handle: 'ben_c', displayName: null },
    ]);
  });
});
