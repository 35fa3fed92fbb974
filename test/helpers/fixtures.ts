/**
 * The API tests' setup as vitest fixtures: `ctx`, a started app on its own database, and `s`, the
 * seed chain on it (developer -> app -> deployment -> test users). Both are file-scoped: started
 * before the file's first test, shared by its tests, closed when the file ends. Not worker-scoped:
 * the in-process project runs many files in one worker, and tests assert on what their app holds,
 * so one app per file keeps files from seeing each other's rows.
 *
 *   const it = appTest({ users: ['alice'] });
 *   it('...', async ({ ctx, s }) => { ... });
 *
 * Each call returns a test API of its own (its own fixture instances), so a file's options never
 * reach another file sharing the worker; `describe.each(available)` takes one per backend from
 * appTestOn (each backend's app is closed when the file ends, not when its describe does).
 */
import { test } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { DEFAULT_TEST_USERS, type Seed, type TestAppOptions, type TestContext, seed, startTestApp } from './app.js';
import type { Backend } from './backends.js';

export interface AppTestOptions<S extends Seed = Seed> {
  /** startTestApp's options: listen on a port, extra environment, the GraphQL fast path. */
  app?: Omit<TestAppOptions, 'database'>;
  /** Opens the app's database (a Backend's create); a fresh PGlite when left out. */
  database?: () => Promise<Database>;
  /** The test users minted, by name (DEFAULT_TEST_USERS when left out). */
  users?: string[];
  /** Seeds the app with these users: seed (TEST_SCHEMA) by default, or rowsSeed, filesSeed. */
  seed?: (ctx: TestContext, users: string[]) => Promise<S>;
}

/** The fixtures alone: appTest and appTestOn add when they start. */
function appFixtures<S extends Seed>(options: AppTestOptions<S>) {
  return test
    .extend('appOptions', { scope: 'file' }, options)
    .extend('ctx', { scope: 'file' }, async ({ appOptions }, { onCleanup }) => {
      const database = appOptions.database ? await appOptions.database() : undefined;
      const ctx = await startTestApp({ ...appOptions.app, database });
      onCleanup(() => ctx.close());
      return ctx;
    })
    .extend('s', { scope: 'file' }, async ({ appOptions, ctx }) => {
      // Without a seed option S is Seed, which seed() answers.
      const seedWith = (appOptions.seed ?? seed) as (ctx: TestContext, users: string[]) => Promise<S>;
      return seedWith(ctx, appOptions.users ?? DEFAULT_TEST_USERS);
    });
}

/**
 * As the beforeAll it replaces did: started and seeded before the suite's first test, under the
 * hook timeout, so no test's own timeout pays for it.
 */
function startBeforeAll<S extends Seed>(api: ReturnType<typeof appFixtures<S>>) {
  api.beforeAll(async ({ s }) => {
    void s;
  });
}

/** A test API with the app fixtures; the app starts before the file's first test. Call it at the top of a file. */
export function appTest<S extends Seed = Seed>(options: AppTestOptions<S> = {}) {
  const api = appFixtures(options);
  startBeforeAll(api);
  return api;
}

/**
 * One app test API per backend, for `describe.each(available)`: call it at the top of the file,
 * then `const it = on(backend)` in the describe, where that backend's app starts before its tests.
 */
export function appTestOn<S extends Seed = Seed>(backends: Backend[], options: Omit<AppTestOptions<S>, 'database'> = {}) {
  const tests = new Map(backends.map(backend => [backend.name, appFixtures<S>({ ...options, database: backend.create })]));
  return (backend: Backend) => {
    const api = tests.get(backend.name)!;
    startBeforeAll(api);
    return api;
  };
}
