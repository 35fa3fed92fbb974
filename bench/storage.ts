/**
 * `npx tsx bench/storage.ts [--mb 50] [--runs 3] [--json]`
 *
 * Files (#12): upload and download throughput of one file of --mb megabytes through Gatehouse's
 * streaming routes (`PUT`/`GET /v1/files/me/...`, over a loopback socket, a test-session token) on
 * each storage backend: the filesystem store and S3-compatible storage (s3rver, in this process).
 * Baseline in the same run: a plain stream copy of the same file on the same disk, so ratios hold
 * across machines. Memory: the peak RSS above the idle RSS while the upload runs, sampled every
 * 10 ms (server, client and s3rver share this process: the figure bounds all three), against the
 * file size: a streamed upload stays flat whatever the size. Each figure is the median of --runs.
 * With --json one JSON line ({ bench: 'storage', rows: [...] }) ends stdout. A measurement, not a
 * test: exits 0 whatever the figures.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import S3rver from 's3rver';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { buildApp } from '../src/server.js';

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '50' }, runs: { type: 'string', default: '3' }, json: { type: 'boolean', default: false } },
});
const MB = Number(values.mb);
const RUNS = Number(values.runs);
const BYTES = MB * 1024 * 1024;
const log = (line: string) => process.stderr.write(`${line}\n`);

const scratch = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-storage-'));
const source = path.join(scratch, 'source.bin');
const chunk = Buffer.alloc(1024 * 1024);
for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) % 251;
await pipeline(
  Readable.from(
    (function* () {
      for (let i = 0; i < MB; i++) yield chunk;
    })(),
  ),
  createWriteStream(source),
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mbps = (ms: number) => BYTES / (1024 * 1024) / (ms / 1000);

async function timed(fn: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Peak RSS growth (MB) while `fn` runs. */
async function peakRss<T>(fn: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  global.gc?.();
  const idle = process.memoryUsage.rss();
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const result = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakMb: (peak - idle) / (1024 * 1024) };
  } finally {
    clearInterval(timer);
  }
}

/** PUT the source file to `target`, streamed with backpressure. */
function upload(target: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      target,
      { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(BYTES) } },
      res => {
        let body = '';
        res.setEncoding('utf8').on('data', part => (body += part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    pipeline(createReadStream(source), req).catch(reject);
  });
}

// Baseline: the same bytes copied by streams on the same disk.
const copies: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const target = path.join(scratch, `copy-${i}.bin`);
  copies.push(await timed(() => pipeline(createReadStream(source), createWriteStream(target))));
  await rm(target);
}
const baseline = median(copies);
log(`plain stream copy of ${MB} MB: ${mbps(baseline).toFixed(0)} MB/s`);

const s3dir = path.join(scratch, 's3rver');
const s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3dir });
const { port: s3port } = await s3.run();

const rows: Record<string, unknown>[] = [
  {
    backend: 'plain fs stream copy',
    uploadMBps: Math.round(mbps(baseline)),
    downloadMBps: null,
    uploadRatio: 1,
    downloadRatio: null,
    peakRssMb: null,
  },
];

for (const backend of ['fs', 's3'] as const) {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    PORT: '0',
    DATA_DIR: 'memory://',
    FILES_DIR: path.join(scratch, `files-${backend}`),
    MAX_FILE_BYTES: String(BYTES * 2),
    ...(backend === 's3'
      ? {
          FILES_BACKEND: 's3',
          S3_ENDPOINT: `http://127.0.0.1:${s3port}`,
          S3_BUCKET: 'gatehouse-bench',
          S3_ACCESS_KEY_ID: 'S3RVER',
          S3_SECRET_ACCESS_KEY: 'S3RVER',
        }
      : {}),
  };
  const config = loadConfig(env);
  const database = await openDatabase({ dataDir: 'memory://', migrate: true });
  const app = await buildApp({ config, database });
  const { url } = await app.start();
  const { services } = app;
  const developer = await services.principals.createDeveloperToken(`bench-${backend}@example.test`);
  const created = await services.apps.create(developer.developerId, { name: 'Storage bench' });
  await services.apps.deploy(developer.developerId, created.id, 'dev', {
    version: 1,
    tables: {},
    resources: {},
    buckets: { big: { maxBytes: Math.min(BYTES * 2, 5 * 1024 ** 3), contentTypes: ['*/*'], access: null, ownedBy: null } },
  });
  // Plenty of money: the bench measures bytes, not budgets.
  await services.metering.creditDeveloper(`bench-${backend}@example.test`, '1000');
  await services.metering.setEnvBudget(developer.developerId, created.id, 'dev', '1000');
  const { token } = await services.apps.mintTestUser(developer.developerId, created.id, { name: 'bench', env: 'dev' });
  const headers = { authorization: `Bearer ${token}` };

  // Warm-up (module code, TLS-free sockets, the S3 client): one small file, not measured.
  await fetch(`${url}/v1/files/me/big/warm-up.bin`, {
    method: 'PUT',
    headers: { ...headers, 'content-type': 'application/octet-stream' },
    body: chunk,
  });

  const uploads: number[] = [];
  const downloads: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const target = `${url}/v1/files/me/big/run-${i}.bin`;
    const { result: ms, peakMb } = await peakRss(() =>
      timed(async () => {
        // node:http with pipeline: the client reads the file only as fast as the socket drains
        // (Readable.toWeb under fetch would read it whole into memory first, on Node 22).
        const res = await upload(target, headers);
        if (res.status !== 201) throw new Error(`upload ${res.status}: ${res.body}`);
      }),
    );
    uploads.push(ms);
    peaks.push(peakMb);
    downloads.push(
      await timed(async () => {
        const res = await fetch(target, { headers });
        if (res.status !== 200 || !res.body) throw new Error(`download ${res.status}`);
        let received = 0;
        for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) received += part.byteLength;
        if (received !== BYTES) throw new Error(`download: ${received} bytes of ${BYTES}`);
      }),
    );
  }
  const up = median(uploads);
  const down = median(downloads);
  log(`${backend}: upload ${mbps(up).toFixed(0)} MB/s, download ${mbps(down).toFixed(0)} MB/s, peak RSS +${median(peaks).toFixed(1)} MB`);
  rows.push({
    backend: backend === 'fs' ? 'Gatehouse, filesystem store' : 'Gatehouse, S3 (s3rver)',
    uploadMBps: Math.round(mbps(up)),
    downloadMBps: Math.round(mbps(down)),
    uploadRatio: Number((baseline / up).toFixed(2)),
    downloadRatio: Number((baseline / down).toFixed(2)),
    peakRssMb: Number(median(peaks).toFixed(1)),
  });
  await app.stop();
  await database.close();
}
await s3.close();
await rm(scratch, { recursive: true, force: true });

console.log(`\nFiles: a ${MB} MB file through the streaming routes (median of ${RUNS}); ratios against a plain stream copy on the same disk`);
console.table(rows);
if (values.json) process.stdout.write(`${JSON.stringify({ bench: 'storage', rows })}\n`);
