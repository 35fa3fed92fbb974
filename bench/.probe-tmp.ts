import { loadConfig } from '../src/config.js';
import { openPGlite } from '../src/db/pglite.js';
import { applyMigrations } from '../src/db/migrations.js';
import { embeddedDatabase } from '../src/db/embedded.js';
import { buildApp } from '../src/server.js';
import { seedGatehouse } from './servers/gatehouse-seed.js';

const pglite = await openPGlite({ dataDir: 'memory://' });
await applyMigrations({ pglite });
const db = embeddedDatabase(pglite, 'memory://');
const app = await buildApp({ config: loadConfig({ PORT: '0', DATA_DIR: 'memory://', LOG_LEVEL: 'error', NODE_ENV: 'production' }), database: db });
const { url } = await app.start();
const seed = await seedGatehouse(url, app.services, { rooms: 10, teams: 3, pairs: 2 });
const log: string[] = [];
const wrap = (target: any, tag: string) => {
  const q = target.query.bind(target);
  target.query = async (sql: string, values: unknown[], opts: unknown) => {
    const t0 = performance.now();
    const r = await q(sql, values, opts);
    log.push(`${tag} ${(performance.now() - t0).toFixed(2)}ms rows=${r.rows.length} ${sql.replace(/\s+/g, ' ').slice(0, 150)}`);
    return r;
  };
};
wrap(pglite, 'q ');
const tr = (pglite as any).transaction.bind(pglite);
(pglite as any).transaction = (fn: any) => tr((tx: any) => { wrap(tx, 'tx'); log.push('BEGIN'); return fn(tx); });
const p = seed.pairs[0];
const call = (token: string, path: string, body: unknown) => fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(r => r.status);
for (let i = 0; i < 2; i++) {
  log.push('--- invite');
  console.log(await call(p.owner.token, `/v1/resources/${p.resourceId}/invite`, { userId: p.member.id }));
  log.push('--- accept');
  console.log(await call(p.member.token, `/v1/resources/${p.resourceId}/accept`, {}));
  log.push('--- remove');
  console.log(await call(p.owner.token, `/v1/resources/${p.resourceId}/remove`, { userId: p.member.id }));
}
log.push('--- rest get');
await fetch(`${url}/v1/resources/${seed.resourceId}`, { headers: { authorization: `Bearer ${seed.reader.token}` } });
console.log(log.slice(-40).join('\n'));
await app.stop();
await db.close();
