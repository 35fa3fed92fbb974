/**
 * One origin -> app rule for the hosted origins (Host header), the CORS policy (Origin header) and
 * the login-CSRF check: an exact registered `scheme://host[:port]`, and a host belongs to one app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, startTestApp, type TestContext } from '../helpers/app.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const host = () => `app-${Math.random().toString(36).slice(2, 10)}.example.test`;

describe('apps.appOfOrigin / appOfHost', () => {
  it('an Origin names an app only when it is exactly a registered origin', async () => {
    const h = host();
    const { appId } = await seed(ctx, [], `https://${h}`);
    const { apps } = ctx.app.services;
    expect(await apps.appOfOrigin(`https://${h}`)).toEqual({ appId, origin: `https://${h}` });
    for (const other of [`http://${h}`, `https://${h}/`, `https://${h}:8443`, `HTTPS://${h}`, 'null', `https://${h}/path`]) {
      expect(await apps.appOfOrigin(other), other).toBeNull();
    }
  });

  it('a Host names the app of its registered origin, whichever scheme it was registered with', async () => {
    const secure = host();
    const plain = host();
    const a = await seed(ctx, [], `https://${secure}`);
    const b = await seed(ctx, [], `http://${plain}:8080`);
    const { apps } = ctx.app.services;
    expect(await apps.appOfHost(secure.toUpperCase())).toEqual({ appId: a.appId, origin: `https://${secure}` });
    expect(await apps.appOfHost(`${plain}:8080`)).toEqual({ appId: b.appId, origin: `http://${plain}:8080` });
    expect(await apps.appOfHost(plain)).toBeNull();
    expect(await apps.appOfHost('bad host/with path')).toBeNull();
  });

  it('a host registered by one app cannot be registered by another under the other scheme', async () => {
    const h = host();
    const first = await seed(ctx, [], `https://${h}`);
    const taken = await first.developer.post('/dev/apps', { name: 'Other', origins: [`http://${h}`] });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('origin_taken');
  });
});
