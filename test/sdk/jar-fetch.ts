/** The SDK's fetch over test/gateway-auth/browser.ts's cookie jar (host-only cookies, hosted origins by Host header). */
import type { Browser } from '../gateway-auth/browser.js';

export interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
}

/** The SDK's fetch over the cookie jar, recording every request it sends. */
export function jarFetch(browser: Browser, sent: Sent[]): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    sent.push({ method, path: url.pathname, headers });
    const res = await browser.request(method, url.href, {
      body: init.body === undefined || init.body === null ? undefined : String(init.body),
      headers,
    });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined && name !== 'set-cookie') out.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    return new Response([204, 304].includes(res.status) ? null : res.text, { status: res.status, headers: out });
  };
}
