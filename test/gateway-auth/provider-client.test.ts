/** The provider client's error mapping: the provider's answers become the gateway's stable codes. */
import { describe, expect, it } from 'vitest';
import { createProviderClient } from '../../src/gateway-auth/provider-client.service.js';

const endpoints = async () => ({
  authorization: 'http://idp/auth',
  token: 'http://idp/token',
  revocation: 'http://idp/revoke',
  userinfo: 'http://idp/userinfo',
});

function answering(status: number, body: unknown) {
  const seen: string[] = [];
  const client = createProviderClient({
    endpoints,
    adminBase: () => 'http://idp-admin',
    adminToken: 'wrong-token',
    fetch: async input => {
      seen.push(String(input));
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { client, seen };
}

describe('provider client', () => {
  it.each([
    [404, 'consent_request_not_found', 404],
    [410, 'consent_request_handled', 410],
    [401, 'provider_admin_refused', 502],
    [403, 'provider_admin_refused', 502],
    [400, 'invalid_request', 400],
    [503, 'provider_unavailable', 502],
  ])('the consent admin API answering %i is %s (%i)', async (status, code, mapped) => {
    const { client, seen } = answering(status, { error: 'invalid_request', error_description: 'bad challenge' });
    await expect(client.getConsentRequest('abc')).rejects.toMatchObject({ code, status: mapped });
    expect(seen).toEqual(['http://idp-admin/admin/oauth2/auth/requests/consent?consent_challenge=abc']);
  });

  it('a token endpoint error keeps its OAuth code; an unparseable one is provider_error, at its one status', async () => {
    await expect(
      answering(400, { error: 'invalid_grant' }).client.exchangeCode({ code: 'c', codeVerifier: 'v', redirectUri: 'r', clientId: 'k' }),
    ).rejects.toMatchObject({
      code: 'invalid_grant',
      status: 400,
    });
    await expect(answering(400, { error: 'Not A Code!' }).client.refresh({ refreshToken: 'r', clientId: 'k' })).rejects.toMatchObject({
      code: 'provider_error',
      status: 502,
    });
  });

  it('userinfo: 401 is no user, not an error', async () => {
    expect(await answering(401, {}).client.userinfo('t')).toBeNull();
  });
});
