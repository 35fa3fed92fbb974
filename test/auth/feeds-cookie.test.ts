/** Live feeds with the session cookie: accepted from the app's own origin, refused cross-site. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Browser } from './browser.js';
import { CSRF, type AuthRig, type RigApp, signInWithCookies, startAuthRig, uniqueEmail } from './harness.js';

let rig: AuthRig;
let app: RigApp;

beforeAll(async () => {
  rig = await startAuthRig();
  app = await rig.createApp();
});
afterAll(() => rig.close());

/** A graphql-transport-ws client with browser-like handshake headers; resolves the first message or the close. */
function firstMessage(headers: Record<string, string>, query: string, trigger: () => Promise<unknown>) {
  return new Promise<{ next?: any; close?: number }>((resolve, reject) => {
    const socket = new WebSocket(`${rig.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: {} })));
    socket.on('message', async raw => {
      const message = JSON.parse(String(raw));
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        await new Promise(r => setTimeout(r, 150));
        await trigger();
      } else if (message.type === 'next') {
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
