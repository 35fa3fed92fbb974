import { openDatabase } from '../src/db/database.js';
const db = await openDatabase({ dataDir: 'memory://' });
const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));
let stop = false;
let txCount = 0;
// 20 workers keep a transaction queue of ~20 (like 20 connections cycling membership transitions).
const W = Number(process.argv[2] ?? 20);
const workers = Array.from({ length: W }, async () => {
  while (!stop) { await new Promise(r => setImmediate(r)); await db.transaction(async tx => { await tx.$queryRaw`SELECT 1`; await tx.$queryRaw`SELECT 2`; await tx.$queryRaw`SELECT 3`; txCount++; }); }
});
await sleep(300);
const t = performance.now();
const done: string[] = [];
await Promise.race([sleep(5000), Promise.all(Array.from({ length: 10 }, (_, i) => db.prisma.$queryRaw`SELECT 1`.then(() => done.push(`${i}:${(performance.now() - t).toFixed(0)}`))))]);
console.log(`workers ${W}: after ${(performance.now() - t).toFixed(0)} ms, ${done.length}/10 outer queries done; ${txCount} transactions committed so far`);
stop = true;
await Promise.all(workers);
await db.close();
process.exit(0);
const n0 = txCount;
console.log('10 concurrent outer queries finished at (ms):', done.join(' '));
const t2 = performance.now();
await db.prisma.$queryRaw`SELECT 1`;
console.log('one more outer query:', (performance.now() - t2).toFixed(0), 'ms; transactions per second meanwhile ~', Math.round((txCount - n0) / ((performance.now() - t2) / 1000)));
stop = true;
await Promise.all(workers);
await db.close();
