/**
 * The developer-token bootstrap of a server on a DATA_DIR answers only requests made on its own
 * machine. Behind a local reverse proxy every socket is loopback, so the addresses the proxy
 * names (X-Forwarded-For, X-Real-IP, Forwarded) are judged too, with TRUST_PROXY set or not.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { claimedAddresses, isLoopbackAddress } from '../../src/http/client-ip.js';
import { startTestApp, type TestContext } from '../helpers/app.js';

describe('claimedAddresses / isLoopbackAddress', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['unknown', false],
    ['_hidden', false],
    ['', false],
  ])('%s is loopback: %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected);
  });

  it('lists the peer and every address the proxy headers name, without ports', () => {
    const headers = new Headers({
      'x-forwarded-for': '127.0.0.1, 203.0.113.9:4711',
      'x-real-ip': '198.51.100.2',
      forwarded: 'for="[2001:db8::1]:4711";proto=https, for=192.0.2.60',
    });
    expect(claimedAddresses('127.0.0.1', headers)).toEqual(['127.0.0.1', '127.0.0.1', '203.0.113.9', '198.51.100.2', '2001:db8::1', '192.0.2.60']);
  });
});

for (const trustProxy of ['1', '0']) {
  describe(`POST /dev/bootstrap/developer-token behind a local proxy (TRUST_PROXY=${trustProxy})`, () => {
    let dataDir: string;
    let ctx: TestContext;
    let secret: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-bootstrap-'));
      const database = await openDatabase({ dataDir });
      ctx = await startTestApp({ database, listen: true, env: { DATA_DIR: dataDir, TRUST_PROXY: trustProxy } });
      secret = await readFile(path.join(dataDir, 'bootstrap.secret'), 'utf8');
    });
    afterAll(async () => {
      await ctx?.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    const ask = (headers: Record<string, string>) =>
      ctx.anonymous.request('POST', '/dev/bootstrap/developer-token', { developer: 'ops@example.test' }, headers);

    it('a local request with the secret gets a token; one forwarded for this machine too', async () => {
      const direct = await ask({ 'x-gatehouse-bootstrap-secret': secret });
      expect(direct.status).toBe(201);
      expect(direct.body.token).toMatch(/^ghd_/);
      const viaLocalProxy = await ask({ 'x-gatehouse-bootstrap-secret': secret, 'x-forwarded-for': '127.0.0.1' });
      expect(viaLocalProxy.status).toBe(201);
    });

    it.each([
      [{ 'x-forwarded-for': '203.0.113.9' }],
      [{ 'x-forwarded-for': '127.0.0.1, 203.0.113.9' }],
      [{ 'x-forwarded-for': '203.0.113.9, 127.0.0.1' }],
      [{ 'x-real-ip': '203.0.113.9' }],
      [{ forwarded: 'for=203.0.113.9;proto=https' }],
      [{ forwarded: 'for="[2001:db8::1]:4711"' }],
      [{ forwarded: 'for=unknown' }],
    ])('a request a proxy received from elsewhere (%o) is 403 loopback_only, secret or not', async forwarding => {
      for (const sent of [secret, 'a guess']) {
        const refused = await ask({ 'x-gatehouse-bootstrap-secret': sent, ...forwarding });
        expect(refused.status).toBe(403);
        expect(refused.body.error).toBe('loopback_only');
        expect(refused.body.token).toBeUndefined();
      }
    });
  });
}
