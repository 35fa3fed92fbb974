/**
 * One origin -> app rule for the hosted origins (Host header), the CORS policy (Origin header) and
 * the login-CSRF check: an exact registered `scheme://host[:port]`, and a host belongs to one app.
 */
import os from 'node:os';
import { afterAll, describe, expect } from 'vitest';
import { seed, startTestApp, type TestContext } from '../helpers/app.js';
import { unseededAppTest } from '../helpers/fixtures.js';

const it = unseededAppTest();

const host = () => `app-${Math.random().toString(36).slice(2, 10)}.example.test`;

describe('apps.appOfOrigin / appOfHost', () => {
  it('an Origin names an app only when it is exactly a registered origin', async ({ ctx }) => {
    const h = host();
    const { appId } = await seed(ctx, [], `https://${h}`);
    const { apps } = ctx.app.services;
    expect(await apps.appOfOrigin(`https://${h}`)).toEqual({ appId, origin: `https://${h}` });
    for (const other of [`http://${h}`, `https://${h}/`, `https://${h}:8443`, `HTTPS://${h}`, 'null', `https://${h}/path`]) {
      expect(await apps.appOfOrigin(other), other).toBeNull();
    }
  });

  it('a Host names the app of its registered origin, whichever scheme it was registered with', async ({ ctx }) => {
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

  it('a host registered by one app cannot be registered by another under the other scheme', async ({ ctx }) => {
    const h = host();
    const first = await seed(ctx, [], `https://${h}`);
    const taken = await first.developer.post('/dev/apps', { name: 'Other', origins: [`http://${h}`] });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe('origin_taken');
  });
});

describe("the gateway's own names are never an app's origin (GATEWAY_HOSTS)", () => {
  const contexts: TestContext[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close();
  });

  async function listening(env: Record<string, string> = {}) {
    const context = await startTestApp({ listen: true, env });
    contexts.push(context);
    const port = Number(new URL(context.url).port);
    const s = await seed(context, []);
    const register = (origin: string) => s.developer.post('/dev/apps', { name: 'Alias', origins: [origin] });
    return { context, port, register };
  }

  async function expectReserved(register: (origin: string) => Promise<{ status: number; body: any }>, origins: string[]) {
    for (const origin of origins) {
      const refused = await register(origin);
      expect(refused.status, origin).toBe(400);
      expect(refused.body.error, origin).toBe('origin_reserved');
    }
  }

  it('every loopback name on the listening port (127.0.0.1, localhost, [::1]), in either scheme', async () => {
    const { port, register } = await listening();
    await expectReserved(register, [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`, `https://localhost:${port}`]);
    // Other ports of those names, and subdomains of localhost, are apps' to use.
    for (const origin of ['http://localhost:5173', `http://app.localhost:${port}`]) expect((await register(origin)).status, origin).toBe(200);
  });

  it("with HOST=0.0.0.0, the machine's host name and addresses too", async () => {
    const { port, register } = await listening({ HOST: '0.0.0.0' });
    const addresses = Object.values(os.networkInterfaces())
      .flatMap(list => list ?? [])
      .filter(entry => entry.family === 'IPv4')
      .map(entry => entry.address);
    await expectReserved(register, [`http://${os.hostname().toLowerCase()}:${port}`, ...addresses.map(address => `http://${address}:${port}`)]);
  });

  it('GATEWAY_HOSTS names them instead: a name on the listening port, or name:port', async () => {
    const { port, register } = await listening({ GATEWAY_HOSTS: 'gw.internal, alias.test:8443' });
    await expectReserved(register, [`http://gw.internal:${port}`, 'https://alias.test:8443']);
    expect((await register(`http://localhost:${port}`)).status).toBe(200);
  });

  it('a gateway name an app registered before it was reserved still reaches the gateway, not the app', async () => {
    const { context, port } = await listening();
    const { appId } = await seed(context, [], 'https://before.example.test');
    await context.database.prisma.appOrigin.create({ data: { appId, origin: `http://localhost:${port}` } });
    const answer = await context.app.fetch(new Request(`http://localhost:${port}/openapi.json`));
    expect(answer.status).toBe(200);
    expect((await answer.json()).openapi).toMatch(/^3\.1/);
  });
});
