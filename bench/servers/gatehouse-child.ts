/**
 * Gatehouse in a benchmark child, as the CLI starts it (loadConfig + buildApp), on the database the
 * parent chose (DATABASE_URL, or a PGlite DATA_DIR). Requests must arrive on the public host (other
 * hosts are looked up as app-hosted origins), so the port is chosen before the config is built.
 * The app stops on the child's shutdown.
 */
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/server.js';
import { freePort, onShutdown } from './lifecycle.js';

export async function startGatehouse(env: Record<string, string> = {}) {
  const port = await freePort();
  const config = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATA_DIR || 'memory://',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.LOG_LEVEL || 'error',
    // The `creates` row piles thousands of rooms on one user: measure creates, not the quota's refusals.
    MAX_RESOURCES_PER_PERSON: process.env.MAX_RESOURCES_PER_PERSON || '10000000',
    ...env,
  });
  // Same-run baselines: BENCH_GRAPHQL_FAST_PATH=0 runs every /graphql query on Yoga's own path,
  // BENCH_NODE_EDGE=0 serves every request through the fetch adapter.
  const app = await buildApp({
    config,
    graphqlFastPath: process.env.BENCH_GRAPHQL_FAST_PATH === '0' ? false : {},
    nodeEdge: process.env.BENCH_NODE_EDGE !== '0',
  });
  onShutdown(() => app.stop());
  const { url } = await app.start();
  return { app, config, url };
}
