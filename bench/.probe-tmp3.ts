import { prepareBackend } from './backends.js';
import type { Seed } from './servers/gatehouse-seed.js';
import { spawnServer } from './spawn-server.js';

const backend = await prepareBackend('pglite');
if ('skipped' in backend) throw new Error('x');
const env = process.argv[2] === 'memory' ? { ...backend.env, DATA_DIR: 'memory://' } : backend.env;
const server = await spawnServer<{ seed: Seed }>('gatehouse', { env, args: ['--pairs', '100'] });
const { url, seed } = server.info;
const t0 = Date.now();
const perSecond: { n: number; max: number }[] = [];
const slow: string[] = [];
const end = t0 + 16_000;
await Promise.all(seed.pairs.slice(0, 50).map(async pair => {
  const room = `${url}/v1/resources/${pair.resourceId}`;
  const steps: [string, string, unknown][] = [[pair.owner.token, 'invite', { userId: pair.member.id }], [pair.member.token, 'accept', {}], [pair.owner.token, 'remove', { userId: pair.member.id }]];
  while (Date.now() < end) {
    for (const [token, step, body] of steps) {
      const s = Date.now();
      const res = await fetch(`${room}/${step}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await res.text();
      const e = Date.now();
      const sec = Math.floor((e - t0) / 1000);
      perSecond[sec] ??= { n: 0, max: 0 };
      perSecond[sec].n++;
      perSecond[sec].max = Math.max(perSecond[sec].max, e - s);
      if (e - s > 1500) slow.push(`${step} started ${((s - t0) / 1000).toFixed(2)} took ${e - s} status ${res.status}`);
    }
  }
}));
console.log(perSecond.map((p, i) => `${i}:${p?.n}/${p?.max}ms`).join(' '));
console.log(slow.slice(0, 20).join('\n'), slow.length);
await server.stop();
await backend.drop();
