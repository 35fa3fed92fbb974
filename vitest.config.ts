import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

/**
 * Specs of pure modules, the in-process API tests and the docs check. They share their worker
 * processes (isolate: false): each file still opens its own database and app (startTestApp), while
 * the module graph (~2 s of imports per file) and PGlite's compiled WebAssembly are loaded once per worker
 * instead of once per file. Nothing they touch outlives a file: no module mocks or env changes,
 * fake timers and the log level and capture restored, servers and databases closed in afterAll,
 * and the rest of the module state they reach is per-instance (services, caches) or immutable.
 */
const IN_PROCESS = ['src/**/*.spec.ts', 'test/api/**/*.test.ts', 'test/docs/**/*.test.ts'];

export default defineConfig({
  // Vite would load graphql's .mjs build while Node-loaded dependencies use the .js build:
  // one graphql realm for both, or schema objects are rejected as "from another realm".
  resolve: {
    alias: [
      { find: /^graphql$/, replacement: require.resolve('graphql') },
      // `gatehouse/schema` and `gatehouse/client` from their sources, as tsc and the CLI read them
      // (the gatehouse-source condition): the packages' builds (packages/*/dist) are what installed
      // apps get, and may trail an edit.
      { find: /^gatehouse\/schema$/, replacement: fileURLToPath(new URL('./src/schema/index.ts', import.meta.url)) },
      { find: /^gatehouse\/client$/, replacement: fileURLToPath(new URL('./src/sdk/index.ts', import.meta.url)) },
    ],
  },
  test: {
    // File-scoped fixtures (test/helpers/fixtures.ts) start and seed the app inside the first test, so a test gets what a setup hook gets.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time even on two cores (vitest's default is CPUs - 1, so one there): most of a
    // file's time is waiting (installs, sockets, timeouts), and the suite's wall time fell by a
    // quarter in a measured run.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { extends: true, test: { name: 'in-process', include: IN_PROCESS, isolate: false } },
      // The rest (CLI, feeds, auth flows, PostgreSQL and Redis suites, browsers): a process per file.
      {
        extends: true,
        test: { name: 'isolated', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, 'test/api/**', 'test/docs/**'] },
      },
    ],
  },
});
