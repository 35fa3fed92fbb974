/** One structured logger: client errors at debug without stacks; unexpected ones with stack and request id. */
import * as oauth from 'oauth4webapi';
import { describe, expect } from 'vitest';
import { describeError } from '../../src/http/error-responses.js';
import { captureLogs, logger, setLogLevel, withRequestId } from '../../src/lib/logger.js';
import { Browser } from '../gateway-auth/browser.js';
import { CSRF, discover, finishAtApp, signInToConsent, startAuthRig, startAuthorization, uniqueEmail } from '../gateway-auth/harness.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest();

describe('logging', () => {
  it('an unauthenticated request and a GraphQL syntax error log nothing above debug, and no stack', async ({ ctx }) => {
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

  it('every response carries x-request-id; a sane client id is kept', async ({ ctx }) => {
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

describe('no secret in any log line', () => {
  it('at debug, through sign-in, refresh, invite links, agents and test sessions', async () => {
    const rig = await startAuthRig();
    const app = await rig.createApp();
    const secrets: Record<string, string> = {};
    setLogLevel('debug');
    const logs = captureLogs();
    try {
      // Sign-in: PKCE verifier, state, the consent challenge (the provider's interaction id), the code.
      const browser = new Browser(rig.url);
      const authorization = await startAuthorization(rig.url, app);
      Object.assign(secrets, { verifier: authorization.verifier, state: authorization.state });
      const step = await signInToConsent(browser, rig, authorization, {
        email: uniqueEmail(),
        password: 'correct horse battery',
        displayName: 'Quiet',
      });
      secrets.challenge = step.challenge!;
      const request = await browser.get(`${rig.url}/auth/consent-request?challenge=${step.challenge}`);
      expect(request.status, request.text).toBe(200);
      const accepted = await browser.post(
        `${rig.url}/auth/consent/accept`,
        { challenge: step.challenge, grant_scope: request.json.requested_scope },
        CSRF,
      );
      expect(accepted.status, accepted.text).toBe(200);
      const callback = await finishAtApp(browser, rig, accepted.json.redirect_to);
      const params = oauth.validateAuthResponse(await discover(rig.issuer), { client_id: app.clientId }, new URL(callback), authorization.state);
      secrets.code = params.get('code')!;
      const exchanged = await browser.post(
        `${rig.url}/auth/token`,
        { code: secrets.code, code_verifier: authorization.verifier, redirect_uri: app.redirectUri, client_id: app.clientId },
        CSRF,
      );
      expect(exchanged.status, exchanged.text).toBe(200);
      const host = new URL(rig.url).host;
      secrets.refresh = browser.cookie(host, 'gh_refresh')!.value;
      expect((await browser.post(`${rig.url}/auth/refresh`, { client_id: app.clientId }, CSRF)).status).toBe(200);
      secrets.session = browser.cookie(host, 'gh_session')!.value;

      // An invite link opened on the app's origin (the request line names its path) and claimed.
      const team = await browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'Quiet team' }, CSRF);
      const link = await browser.post(`${rig.url}/v1/resources/${team.json.id}/invite-link`, { role: 'writer' }, CSRF);
      expect(link.status, link.text).toBe(200);
      secrets.invite = new URL(link.json.url).pathname.split('/').pop()!;
      // Not signed in on the app's origin: the page sends the browser to sign in first.
      expect((await new Browser(rig.url).get(link.json.url)).status).toBe(302);
      const claimed = await browser.post(`${rig.url}/v1/invite-links/claim`, { code: secrets.invite }, CSRF);
      expect(claimed.json.error).toBe('already_member');
      // A GraphQL mistake whose message would quote the code.
      await browser.post(
        `${rig.url}/graphql`,
        { query: 'mutation ($c: Int!) { claimInviteLink(code: $c) { ok } }', variables: { c: secrets.invite } },
        CSRF,
      );

      // Tokens shown once in a body, then used as bearers.
      const agent = await browser.post(`${rig.url}/v1/agents`, { name: 'helper' }, CSRF);
      secrets.agent = agent.json.token;
      const minted = await rig.developer.post(`/dev/apps/${app.appId}/test-users`, { name: 'quiet', env: 'prod' });
      expect(minted.body.error).toBe('prod_not_allowed');
      const bearer = await new Browser(rig.url).get(`${rig.url}/v1/resources`, { authorization: `Bearer ${secrets.agent}` });
      expect(bearer.status).toBe(200);
      await new Browser(rig.url).get(`${rig.url}/v1/resources?access_token=${secrets.session}`, { authorization: `Bearer ${secrets.session}x` });
      // Last (it revokes the grant): a code used twice is refused by the provider, which logs why, not the code.
      const reused = await browser.post(
        `${rig.url}/auth/token`,
        { code: secrets.code, code_verifier: authorization.verifier, redirect_uri: app.redirectUri, client_id: app.clientId },
        CSRF,
      );
      expect(reused.status).toBe(400);
    } finally {
      logs.stop();
      setLogLevel('silent');
      await rig.close();
    }
    expect(Object.values(secrets).every(Boolean)).toBe(true);
    expect(logs.lines.some(line => line.msg === 'request' && String(line.path).startsWith('/_invite/'))).toBe(true);
    for (const [name, secret] of Object.entries(secrets)) {
      const line = logs.lines.map(l => JSON.stringify(l)).find(l => l.includes(secret));
      expect(line, `${name} appears in a log line`).toBeUndefined();
    }
  });
});
