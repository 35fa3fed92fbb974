/**
 * The Prisma schema engine compiled to WebAssembly, driven through a driver adapter.
 * The Prisma CLI's migrate commands download a native engine, which cannot happen offline; this
 * module is what `applyMigrations`, `createMigration` and `diffMigrationsToSchema` run on.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { Mutex } from './mutex.js';
import { logger } from '../lib/logger.js';

export type { SchemaEngine, MigrationList, DiffTarget } from '@prisma/schema-engine-wasm/schema_engine_bg';

/** No table or enum is managed outside the Prisma schema. */
export const noFilters: SchemaFilter = { externalTables: [], externalEnums: [] };

export interface SchemaFile {
  path: string;
  content: string;
}

let instantiated: Promise<void> | undefined;
/** Timers the engine started and has not seen fire yet. */
const engineTimers = new Set<NodeJS.Timeout>();
// One engine at a time: engine runs are rare (startup, tooling) and the WASM module's state is
// process-wide, so serialising them costs nothing and rules out interleaving surprises.
const engineLock = new Mutex();

type Bindings = Record<string, unknown>;

/**
 * The engine arms 10 s timers (timeouts around its database work) that it never clears, which
 * kept every process alive 10 s after its last migration run. Its timers are tracked here so
 * withSchemaEngine can unref the leftovers once a run is over.
 */
function withTrackedTimers(bindings: Bindings): Bindings {
  const tracked: Bindings = { ...bindings };
  for (const name of Object.keys(bindings).filter(key => key.startsWith('__wbg_setTimeout_'))) {
    tracked[name] = (callback: () => void, ms: number) => {
      const timer = setTimeout(() => {
        engineTimers.delete(timer);
        callback();
      }, ms >>> 0);
      engineTimers.add(timer);
      return timer;
    };
  }
  return tracked;
}

/**
 * Instantiates the WASM module once per process. The package's main entry imports the .wasm
 * file as an ES module, which Node 20 cannot do, so the bindings get their instance by hand.
 */
function instantiate(): Promise<void> {
  instantiated ??= (async () => {
    const require = createRequire(import.meta.url);
    const dir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bytes = await readFile(path.join(dir, 'schema_engine_bg.wasm'));
    const imports = { './schema_engine_bg.js': withTrackedTimers(wasmBindings) } as WebAssembly.Imports;
    const { instance } = await WebAssembly.instantiate(bytes, imports);
    wasmBindings.__wbg_set_wasm(instance.exports);
    (instance.exports as { __wbindgen_start(): void }).__wbindgen_start();
  })().catch(error => {
    instantiated = undefined;
    throw error;
  });
  return instantiated;
}

/** Forwards the engine's JSON log lines; only warnings and errors are worth showing by default. */
function logEngineLine(line: string): void {
  let entry: { level?: string; fields?: { message?: string } };
  try {
    entry = JSON.parse(line);
  } catch {
    return;
  }
  if (entry.level === 'WARN' || entry.level === 'ERROR') {
    logger.warn({ engineLevel: entry.level }, `schema engine: ${entry.fields?.message ?? line}`);
  } else if (process.env.DEBUG?.includes('schema-engine')) {
    logger.debug(`schema engine: ${line.trim()}`);
  }
}

/**
 * Runs `fn` with a schema engine connected through `adapterFactory`, then frees the engine.
 * The engine connects (adapterFactory.connect) while it is created; callers own and release
 * whatever the factory opened (pools, PGlite instances) after this returns.
 */
export async function withSchemaEngine<T>(
  schema: SchemaFile,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  await instantiate();
  return engineLock.run(async () => {
    const engine = await wasmBindings.SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      logEngineLine,
      bindMigrationAwareSqlAdapterFactory(adapterFactory),
    );
    try {
      return await fn(engine);
    } finally {
      engine.free();
      for (const timer of engineTimers) timer.unref();
      engineTimers.clear();
    }
  });
}
