/** A refused credential says why: missing, unknown (or revoked), or expired; REST and GraphQL alike. */
import { describe, expect } from 'vitest';
import { TEST_TOKEN_TTL_MS } from '../../src/gateway-auth/tokens.service.js';
import { sha256 } from '../../src/lib/secrets.js';
import type { Client } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const it = appTest({ users: ['alice'] });

const restAndGraphql = async (client: Client) => {
  const rest = await client.get('/v1/resources');
  const graphql = await client.request('POST', '/graphql', { query: '{ resources { id } }' });
  return { rest, graphql };
};

describe('a 401 names the problem with the credential', () => {
  it('no credential: unauthenticated', async ({ ctx }) => {
    const { rest, graphql } = await restAndGraphql(ctx.anonymous);
    expect(rest).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });

  it('an unknown test-session token: invalid_token, with what to do', async ({ ctx }) => {
    const { rest, graphql } = await restAndGraphql(ctx.client('gst_not-a-token-this-server-minted'));
    expect(rest).toMatchObject({
      status: 401,
      body: { error: 'invalid_token', message: expect.stringMatching(/not recognised \(unknown or revoked\).*test-session/) },
    });
    expect(rest.body.message).not.toMatch(/send a bearer token/);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'invalid_token', status: 401 });
  });

  it('an unknown developer token on /dev: invalid_token, not "a developer token is required"', async ({ ctx }) => {
    const res = await ctx.client('ghd_not-a-token-this-server-minted').get('/dev/apps');
    expect(res).toMatchObject({ status: 401, body: { error: 'invalid_token', message: expect.stringContaining('gatehouse dev-token create') } });
  });

  it('a revoked token: invalid_token', async ({ ctx, s }) => {
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'revoked', env: 'dev' });
    const client = ctx.client(minted.body.token);
    expect((await client.get('/v1/resources')).status).toBe(200);
    await ctx.database.prisma.apiToken.update({ where: { tokenHash: sha256(minted.body.token) }, data: { revokedAt: new Date() } });
    ctx.app.services.tokens.clearCache();
    expect(await client.get('/v1/resources')).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
  });

  it('an expired test-session token: token_expired, naming when', async ({ ctx, s }) => {
    const minted = await s.developer.post(`/dev/apps/${s.appId}/test-users`, { name: 'expiring', env: 'dev' });
    const client = ctx.client(minted.body.token);
    ctx.advance(TEST_TOKEN_TTL_MS + 1000);
    try {
      const { rest, graphql } = await restAndGraphql(client);
      expect(rest).toMatchObject({ status: 401, body: { error: 'token_expired' } });
      expect(rest.body.message).toContain(`expired at ${new Date(minted.body.expires_at).toISOString()}`);
      expect(graphql.body.errors[0]).toMatchObject({
        message: expect.stringContaining('expired at'),
        extensions: { code: 'token_expired', status: 401 },
      });
    } finally {
      ctx.advance(-(TEST_TOKEN_TTL_MS + 1000));
    }
  });

  it('a valid token still works, and the refused ones never echo the token', async ({ ctx, s }) => {
    expect((await s.users.alice.get('/v1/resources')).status).toBe(200);
    const res = await ctx.client('gst_secret-value-that-must-not-echo').get('/v1/resources');
    expect(JSON.stringify(res.body)).not.toContain('secret-value-that-must-not-echo');
  });
});
