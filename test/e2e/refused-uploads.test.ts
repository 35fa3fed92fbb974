/**
 * Issue 24 item 22: a body over the limit is refused with an answer the caller can read. The
 * server answers 413 as soon as it knows, then reads and discards the rest of the body (bounded in
 * bytes and time, like a web server's lingering close) instead of closing the connection under a
 * client that is still sending, whose TCP stack would then drop the answer. Proven the way callers
 * meet it: Node's fetch (undici) and headless Chromium (Debian's `chromium`, playwright-core),
 * sending at a pace a network would (not all at once into loopback buffers), for a too-large file
 * upload (413 file_too_large, its length declared or not) and a too-large JSON body (413
 * body_too_large).
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, describe, expect } from 'vitest';
import { filesSeed } from '../api/files.fixture.js';
import type { Client } from '../helpers/app.js';
import { appTest } from '../helpers/fixtures.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const missing = !existsSync(CHROMIUM);
if (missing && !process.env.CI) console.warn(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH): the browser half of this suite is skipped.`);

const MiB = 1024 * 1024;
/** Far over the `docs` bucket's 1 MiB, and over what loopback socket buffers absorb unread. */
const TOO_LARGE = 40 * MiB;

const it = appTest({ app: { listen: true }, users: ['alice'], seed: filesSeed });

/** `total` zero bytes in 64 KiB chunks, a short pause between them: an upload at network pace. */
function paced(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= total) return controller.close();
      await sleep(1);
      const size = Math.min(64 * 1024, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size));
    },
  });
}

/** What a fetch in Node by `as` answers, or the network error it reports instead. */
async function nodeFetch(as: Client, path: string, init: { method: string; contentType: string; body: BodyInit; length?: number }) {
  try {
    const res = await fetch(`${as.baseUrl}${path}`, {
      method: init.method,
      headers: {
        authorization: `Bearer ${as.token}`,
        'content-type': init.contentType,
        ...(init.length === undefined ? {} : { 'content-length': String(init.length) }),
      },
      body: init.body,
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, body: await res.json() };
  } catch (error) {
    return { status: 0, body: { networkError: String((error as Error).cause ?? error) } };
  }
}

describe("Node's fetch", () => {
  it('reads 413 file_too_large for an upload far over the bucket limit, its length declared or not', async ({ s }) => {
    for (const length of [TOO_LARGE, undefined]) {
      const answer = await nodeFetch(s.users.alice, '/v1/files/me/docs/big.bin', {
        method: 'PUT',
        contentType: 'application/octet-stream',
        body: paced(TOO_LARGE),
        length,
      });
      expect(answer, `declared length: ${length}`).toMatchObject({ status: 413, body: { error: 'file_too_large' } });
    }
  });

  it('reads 413 body_too_large for a JSON body far over MAX_BODY_BYTES, its length declared', async ({ s }) => {
    const answer = await nodeFetch(s.users.alice, '/v1/resources', {
      method: 'POST',
      contentType: 'application/json',
      body: paced(TOO_LARGE),
      length: TOO_LARGE,
    });
    expect(answer).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
  });
});

describe.skipIf(missing && !process.env.CI)('Chromium', { timeout: 60_000 }, () => {
  let browser: Browser;
  let page: Page;

  it.beforeAll(async ({ ctx }) => {
    if (missing) throw new Error(`Chromium is required in CI and was not found at ${CHROMIUM}: install Debian's chromium package.`);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    page = await browser.newPage();
    // Upload at a network's pace rather than a loopback's.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 5, downloadThroughput: -1, uploadThroughput: 40 * MiB });
    // A page of the gateway's own origin: its fetches are same-origin, with a bearer test token.
    await page.goto(`${ctx.url}/healthz`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** fetch() in the page by `as`, as a web app uploads: what it shows, or the network error it reports. */
  const pageFetch = (as: Client, path: string, init: { method: string; size: number; contentType: string }) =>
    page.evaluate(
      async ({ url, token, init }) => {
        try {
          const res = await fetch(url, {
            method: init.method,
            headers: { authorization: `Bearer ${token}`, 'content-type': init.contentType },
            body: new Blob([new Uint8Array(init.size)]),
          });
          return { status: res.status, body: await res.json() };
        } catch (error) {
          return { status: 0, body: { networkError: String(error) } };
        }
      },
      { url: `${as.baseUrl}${path}`, token: as.token, init },
    );

  it('shows 413 file_too_large to the page for an upload far over the bucket limit', async ({ s }) => {
    const answer = await pageFetch(s.users.alice, '/v1/files/me/docs/from-page.bin', {
      method: 'PUT',
      size: TOO_LARGE,
      contentType: 'application/octet-stream',
    });
    expect(answer).toMatchObject({ status: 413, body: { error: 'file_too_large' } });
  });

  it('shows 413 body_too_large to the page for a JSON body far over MAX_BODY_BYTES', async ({ s }) => {
    const answer = await pageFetch(s.users.alice, '/v1/resources', { method: 'POST', size: TOO_LARGE, contentType: 'application/json' });
    expect(answer).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
  });
});
