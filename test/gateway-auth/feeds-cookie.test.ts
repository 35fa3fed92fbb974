/** Live feeds with provider credentials: the session cookie (app origins only), provider bearer tokens, and /_osg/graphql on hosted origins. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { nextFeedAttached } from '../helpers/feeds.js';
import { Browser } from './browser.js';
import { CSRF, type AuthRig, type RigApp, signInWithCookies, startAuthRig, uniqueEmail } from './harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
});
afterAll(() => rig.close());

/** A graphql-transport-ws client with browser-like handshake headers; resolves the first change (after the snapshot) or the close. */
function firstMessage(
  headers: Record<string, string>,
  query: string,
  trigger: () => Promise<unknown>,
  { path = '/graphql', connectionParams = {} }: { path?: string; connectionParams?: Record<string, string> } = {},
) {
  return new Promise<{ next?: any; close?: number }>((resolve, reject) => {
    const socket = new WebSocket(`${rig.url.replace('http', 'ws')}${path}`, 'graphql-transport-ws', { headers });
    let pastSnapshot = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: connectionParams })));
    socket.on('message', async raw => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        // graphql-ws does not acknowledge a subscribe: wait for its feed to listen on the bus.
        const attached = nextFeedAttached(rig.app.services.deps.bus);
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        await attached;
        await trigger();
      } else if (message.type === 'next') {
        // The feed's snapshot (its inserts, then `ready`) comes first: the change follows it.
        if (!pastSnapshot) {
          pastSnapshot = (Object.values(message.payload.data ?? {})[0] as { op?: string } | undefined)?.op === 'ready';
          return;
        }
        resolve({ next: message.payload });
        socket.close();
      }
    });
    socket.on('close', code => resolve({ close: code }));
    socket.on('error', reject);
  });
}

describe('graphql-ws with the session cookie', () => {
  it("accepts the cookie from a page on the app's origin", async () => {
    const browser = new Browser(rig.url);
    const { userId } = await signInWithCookies(browser, rig, app, { email: uniqueEmail(), password: 'correct horse battery', displayName: 'Wes' });
    const cookie = `gh_session=${browser.cookie(new URL(rig.url).host, 'gh_session')!.value}; gh_client=${app.clientId}`;
    const result = await firstMessage({ cookie, origin: app.origin }, 'subscription { resourcesLive { op row { userId role state } } }', () =>
      browser.post(`${rig.url}/v1/resources`, { type: 'team', name: 'By cookie' }, CSRF),
    );
    expect(result.next).toEqual({ data: { resourcesLive: { op: 'insert', row: { userId, role: 'owner', state: 'active' } } } });
  });

  it('refuses the cookie from another origin with 4403', async () => {
    const browser = new Browser(rig.url);
    await signInWithCookies(browser, rig, app, { email: uniqueEmail(), password: 'correct horse battery', displayName: 'Eve' });
    const cookie = `gh_session=${browser.cookie(new URL(rig.url).host, 'gh_session')!.value}; gh_client=${app.clientId}`;
    const result = await firstMessage({ cookie, origin: 'https://evil.example.test' }, 'subscription { resourcesLive { op } }', async () => {});
    expect(result.close).toBe(4403);
  });
});

describe('graphql-ws with provider credentials', () => {
  const RESOURCES = 'subscription { resourcesLive { op row { userId role state } } }';
  const signedIn = async (name: string) => {
    const browser = new Browser(rig.url);
    const { userId } = await signInWithCookies(
      browser,
      rig,
      app,
      { email: uniqueEmail(), password: 'correct horse battery', displayName: name },
      { gateway: app.origin, prefix: '/_osg' },
    );
    return { browser, userId, token: browser.cookie(new URL(app.origin).host, 'gh_session')!.value };
  };

  it('accepts a provider access token in connectionParams', async () => {
    const { browser, userId, token } = await signedIn('Paula');
    const result = await firstMessage(
      {},
      RESOURCES,
      () => browser.post(`${app.origin}/_osg/v1/resources`, { type: 'team', name: 'By bearer' }, CSRF),
      {
        connectionParams: { authorization: `Bearer ${token}` },
      },
    );
    expect(result.next).toEqual({ data: { resourcesLive: { op: 'insert', row: { userId, role: 'owner', state: 'active' } } } });
  });

  it('serves /_osg/graphql on a hosted origin with the host-only session cookie', async () => {
    const { browser, userId, token } = await signedIn('Hosted Hal');
    const headers = { host: new URL(app.origin).host, origin: app.origin, cookie: `gh_session=${token}` };
    const result = await firstMessage(
      headers,
      RESOURCES,
      () => browser.post(`${app.origin}/_osg/v1/resources`, { type: 'team', name: 'Hosted feed' }, CSRF),
      {
        path: '/_osg/graphql',
      },
    );
    expect(result.next).toEqual({ data: { resourcesLive: { op: 'insert', row: { userId, role: 'owner', state: 'active' } } } });
  });

  it("refuses another app's token on /_osg/graphql with 4403, and /graphql without the prefix on a hosted origin", async () => {
    const other = await rig.createApp();
    const browser = new Browser(rig.url);
    await signInWithCookies(
      browser,
      rig,
      other,
      { email: uniqueEmail(), password: 'correct horse battery', displayName: 'Other' },
      { gateway: other.origin, prefix: '/_osg' },
    );
    const token = browser.cookie(new URL(other.origin).host, 'gh_session')!.value;
    const refused = await firstMessage({ host: new URL(app.origin).host }, RESOURCES, async () => {}, {
      path: '/_osg/graphql',
      connectionParams: { authorization: `Bearer ${token}` },
    });
    expect(refused.close).toBe(4403);
    await expect(
      firstMessage({ host: new URL(app.origin).host }, RESOURCES, async () => {}, { connectionParams: { authorization: `Bearer ${token}` } }),
    ).rejects.toThrow();
  });
});
