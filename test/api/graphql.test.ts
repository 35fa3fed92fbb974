import { describe, expect, vi } from 'vitest';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice', 'bob'] });

const RESOURCE = 'id type name visibility discoverable memberCount currentMember { role state }';

describe('GraphQL mirrors the REST shims', () => {
  it('walks create -> invite -> accept -> members -> setRole -> remove', async ({ s }) => {
    const { alice, bob } = s.users;
    const created = await alice.gql(`mutation($input: CreateResourceInput!) { createResource(input: $input) { ${RESOURCE} } }`, {
      input: { type: 'room', name: 'Lobby', visibility: 'unlisted' },
    });
    expect(created.errors).toBeUndefined();
    const id = created.data.createResource.id;
    expect(created.data.createResource).toMatchObject({
      visibility: 'public',
      discoverable: false,
      memberCount: 1,
      currentMember: { role: 'owner', state: 'active' },
    });

    const invite = await alice.gql(`mutation($id: ID!, $u: ID!) { invite(resourceId: $id, userId: $u, role: reader) { ok state role resourceId } }`, {
      id,
      u: bob.id,
    });
    expect(invite.data.invite).toEqual({ ok: true, state: 'invited', role: 'reader', resourceId: id });
    const invitations = await bob.gql(`{ invitations { resourceId name role invitedBy } }`);
    expect(invitations.data.invitations).toEqual([{ resourceId: id, name: 'Lobby', role: 'reader', invitedBy: alice.id }]);
    expect((await bob.gql(`mutation($id: ID!) { accept(resourceId: $id) { state } }`, { id })).data.accept.state).toBe('active');

    const members = await alice.gql(`query($id: ID!) { members(resourceId: $id) { userId role state kind } }`, { id });
    expect(members.data.members).toEqual([
      { userId: alice.id, role: 'owner', state: 'active', kind: 'user' },
      { userId: bob.id, role: 'reader', state: 'active', kind: 'user' },
    ]);
    const setRole = await alice.gql(`mutation($id: ID!, $u: ID!) { setRole(resourceId: $id, userId: $u, role: writer) { role } }`, { id, u: bob.id });
    expect(setRole.data.setRole.role).toBe('writer');
    const fetched = await bob.gql(`query($id: ID!) { resource(id: $id) { ${RESOURCE} } resources { id } me { id kind } }`, { id });
    expect(fetched.data.resource.currentMember).toEqual({ role: 'writer', state: 'active' });
    expect(fetched.data.resources).toEqual([{ id }]);
    expect(fetched.data.me).toEqual({ id: bob.id, kind: 'user' });
    const removed = await alice.gql(`mutation($id: ID!, $u: ID!) { removeMember(resourceId: $id, userId: $u) { ok state role } }`, { id, u: bob.id });
    expect(removed.data.removeMember).toEqual({ ok: true, state: null, role: null });
  });

  it('answers me { id kind } from the credential, as the principal read answers them', async ({ ctx, s }) => {
    const { alice } = s.users;
    const read = vi.spyOn(ctx.app.services.principals, 'principalRow');
    const fromCredential = await alice.gql('{ me { id kind __typename } }');
    expect(fromCredential.data.me).toEqual({ id: alice.id, kind: 'user', __typename: 'Principal' });
    expect(read).not.toHaveBeenCalled();
    // A column the credential does not carry, or a fragment: the principal is read.
    const withHandle = await alice.gql('{ me { id kind __typename handle } }');
    expect(withHandle.data.me).toMatchObject(fromCredential.data.me);
    expect((await alice.gql('{ me { ... on Principal { id kind } } }')).data.me).toEqual({ id: alice.id, kind: 'user' });
    expect(read).toHaveBeenCalledTimes(2);
    read.mockRestore();
  });

  it('carries the stable code and HTTP status in extensions', async ({ ctx, s }) => {
    const { alice, bob } = s.users;
    const res = await bob.gql(`mutation { createResource(input: { type: "_app", name: "x" }) { id } }`);
    expect(res.errors[0].extensions).toMatchObject({ code: 'reserved_type', status: 403 });
    const created = await alice.gql(`mutation { createResource(input: { type: "team", name: "T" }) { id } }`);
    const id = created.data.createResource.id;
    const ceiling = await alice.gql(`mutation($id: ID!, $u: ID!) { invite(resourceId: $id, userId: $u, role: owner) { ok } }`, { id, u: bob.id });
    expect(ceiling.errors[0]).toMatchObject({
      message: expect.stringContaining('grant ceiling'),
      extensions: { code: 'grant_ceiling', status: 403 },
    });
    const anonymous = await ctx.anonymous.gql('{ resources { id } }');
    expect(anonymous.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('answers a body of a type it cannot read with 415 unsupported_media_type and says what it takes', async ({ ctx }) => {
    // Bytes, not a string: fetch would label a string text/plain itself.
    const query = new TextEncoder().encode(JSON.stringify({ query: '{ __typename }' }));
    for (const contentType of ['text/plain', 'application/xml; charset=utf-8', null]) {
      const res = await ctx.fetch('/graphql', { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body: query });
      expect(res.status).toBe(415);
      const body = await res.json();
      expect(body.errors[0].extensions).toEqual({ code: 'unsupported_media_type', status: 415 });
      expect(body.errors[0].message).toContain('Content-Type: application/json');
      expect(body.errors[0].message).toContain(contentType ? contentType.split(';')[0] : 'no Content-Type');
    }
    const json = await ctx.fetch('/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: query });
    expect(await json.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('rejects unknown enum values and wrong types naming the argument', async ({ s }) => {
    const bad = await s.users.alice.gql(`mutation($input: CreateResourceInput!) { createResource(input: $input) { id } }`, {
      input: { type: 'team', name: 'x', visibility: 'secret' },
    });
    expect(bad.errors[0].message).toMatch(/visibility/);
    const wrongType = await s.users.alice.gql(`mutation($input: CreateResourceInput!) { createResource(input: $input) { id } }`, {
      input: { type: 'team', name: 5 },
    });
    expect(wrongType.errors[0].message).toMatch(/name/);
    const empty = await s.users.alice.gql(`mutation { createResource(input: { type: "team", name: "" }) { id } }`);
    expect(empty.errors[0]).toMatchObject({ message: expect.stringContaining('input.name'), extensions: { code: 'invalid_argument', status: 400 } });
  });

  it('creates agents, blocks, invite links and claims them', async ({ s }) => {
    const { alice, bob } = s.users;
    const agent = await alice.gql(`mutation { createAgent(name: "Scout") { id name ownerId token } }`);
    expect(agent.data.createAgent).toMatchObject({ name: 'Scout', ownerId: alice.id, token: expect.stringMatching(/^gha_/) });
    const { id } = (await alice.gql(`mutation { createResource(input: { type: "team", name: "L" }) { id } }`)).data.createResource;
    const link = await alice.gql(`mutation($id: ID!) { createInviteLink(resourceId: $id, role: reader) { url role expiresAt } }`, { id });
    const code = link.data.createInviteLink.url.split('/_invite/')[1];
    const claim = await bob.gql(`mutation($c: String!) { claimInviteLink(code: $c) { ok resourceId state role } }`, { c: code });
    expect(claim.data.claimInviteLink).toEqual({ ok: true, resourceId: id, state: 'active', role: 'reader' });
    expect((await bob.gql(`mutation($u: ID!) { blockUser(userId: $u) { ok userId } }`, { u: alice.id })).data.blockUser.ok).toBe(true);
    expect((await bob.gql('{ blocks { userId } }')).data.blocks).toEqual([{ userId: alice.id }]);
    expect((await bob.gql(`mutation($u: ID!) { unblockUser(userId: $u) { ok } }`, { u: alice.id })).data.unblockUser.ok).toBe(true);
  });

  it('serves the developer surface', async ({ s }) => {
    const apps = await s.developer.gql('{ apps { id environments } }');
    expect(apps.data.apps).toEqual([{ id: s.appId, environments: ['dev'] }]);
    const minted = await s.developer.gql(`mutation($a: ID!) { createTestUser(appId: $a, name: "gq", env: "dev") { userId token env payer } }`, {
      a: s.appId,
    });
    expect(minted.data.createTestUser).toMatchObject({ userId: `test:${s.appId}:gq`, env: 'dev', payer: s.developerId });
    const prod = await s.developer.gql(`mutation($a: ID!) { createTestUser(appId: $a, name: "gq", env: "prod") { userId } }`, { a: s.appId });
    expect(prod.errors[0].extensions).toMatchObject({ code: 'prod_not_allowed', status: 400 });
  });

  it('masks unexpected errors', async ({ s }) => {
    const res = await s.users.alice.gql('{ nope }');
    expect(res.errors[0].message).toMatch(/nope/);
  });
});
