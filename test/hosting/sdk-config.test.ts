/**
 * Issue 28 item 2: on a hosted origin `createClient()` with no options finds its gateway and
 * client id: from the config script the origin injects into every page, else from
 * `<origin>/_osg/config.json` when sign-in needs the client id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/sdk/index.js';

const global = globalThis as { __GATEHOUSE_CONFIG__?: unknown; location?: unknown };
afterEach(() => {
  delete global.__GATEHOUSE_CONFIG__;
  delete global.location;
});

describe('createClient() on a hosted origin', () => {
  it('reads the injected config', async () => {
    global.__GATEHOUSE_CONFIG__ = { gateway: 'https://app.example/_osg', clientId: 'cli_injected', appId: 'app_1', env: 'prod' };
    const client = createClient();
    const url = new URL(await client.auth.signIn({ navigate: false, redirectUri: 'https://app.example/' }));
    expect(url.origin + url.pathname).toBe('https://app.example/_osg/auth/authorize');
    expect(url.searchParams.get('client_id')).toBe('cli_injected');
  });

  it('without it, asks /_osg/config.json for the client id', async () => {
    global.location = { origin: 'https://app.example', pathname: '/', href: 'https://app.example/' };
    const asked: string[] = [];
    const fetch = (async (input: string) => {
      asked.push(String(input));
      return new Response(JSON.stringify({ gateway: 'https://app.example/_osg', clientId: 'cli_fetched', appId: 'app_1', env: 'prod' }));
    }) as typeof globalThis.fetch;
    const client = createClient({ fetch });
    const url = new URL(await client.auth.signIn({ navigate: false }));
    expect(asked).toEqual(['https://app.example/_osg/config.json']);
    expect(url.searchParams.get('client_id')).toBe('cli_fetched');
    expect(url.searchParams.get('redirect_uri')).toBe('https://app.example/');
  });

  it('an explicit gatewayUrl ignores the hosted config', async () => {
    global.__GATEHOUSE_CONFIG__ = { gateway: 'https://app.example/_osg', clientId: 'cli_injected', appId: 'app_1', env: 'prod' };
    const client = createClient({ gatewayUrl: 'https://gw.example', clientId: 'cli_mine' });
    const url = new URL(await client.auth.signIn({ navigate: false, redirectUri: 'https://mine.example/' }));
    expect(url.origin).toBe('https://gw.example');
    expect(url.searchParams.get('client_id')).toBe('cli_mine');
  });
});
