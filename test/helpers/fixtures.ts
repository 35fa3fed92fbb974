/**
 * The API tests' setup as vitest fixtures: `ctx`, a started app on its own database, and `s`, the
 * seed chain on it (developer -> app -> deployment -> test users). Both are file-scoped: started
 * before the first test (or `it.beforeAll`) of the API that holds them, shared by the file's tests,
 * closed when the file ends. Not worker-scoped: the in-process project runs many files in one
 * worker, and tests assert on what their app holds, so one app per file keeps files from seeing
 * each other's rows.
 *
 *   const it = appTest({ users: ['alice'] });
 *   it('...', async ({ ctx, s }) => { ... });
 *
 * Each call returns a test API of its own (its own fixture instances), so a file's options never
 * reach another file sharing the worker. An API `.extend`ed further holds instances of its own too:
 * use only the extended one in a file, or the app starts twice. `describe.each(available)` takes
 * one API per backend from appTestOn (each backend's app closes when the file ends, not when its
 * describe does).
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

/** A test API with the app fixtures. Call it at the top of a file. */
export function appTest<S extends Seed = Seed>(options: AppTestOptions<S> = {}) {
  return startedApp(options).extend('s', { scope: 'file', auto: true }, async ({ appOptions, ctx }) => {
    // Without a seed option S is Seed, which seed() answers.
    const seedWith = (appOptions.seed ?? seed) as (ctx: TestContext, users: string[]) => Promise<S>;
    return seedWith(ctx, appOptions.users ?? DEFAULT_TEST_USERS);
  });
}

/**
 * A test API with the started app `ctx` and no seed: for files that seed inside their tests (apps
 * with given origins, several apps of one server) or test what needs no app, developer or user.
 */
export function unseededAppTest(options: Pick<AppTestOptions, 'app' | 'database'> = {}) {
  return startedApp(options);
}

function startedApp(options: AppTestOptions) {
  // auto: the app starts (and is seeded) before the file's first test, whether or not the test
  // names it, as the beforeAll these fixtures replace did.
  return test.extend('appOptions', { scope: 'file' }, options).extend('ctx', { scope: 'file', auto: true }, async ({ appOptions }, { onCleanup }) => {
    const database = appOptions.database ? await appOptions.database() : undefined;
    const ctx = await startTestApp({ ...appOptions.app, database });
    onCleanup(() => ctx.close());
    return ctx;
  });
}

/**
 * One app test API per backend, for `describe.each(available)`: call it at the top of the file,
 * then `const it = on(backend)` in the describe.
 */
export function appTestOn<S extends Seed = Seed>(backends: Backend[], options: Omit<AppTestOptions<S>, 'database'> = {}) {
  const tests = new Map(backends.map(backend => [backend.name, appTest<S>({ ...options, database: backend.create })]));
  return (backend: Backend) => tests.get(backend.name)!;
}
