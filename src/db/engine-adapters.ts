/**
 * Driver adapter factories for the schema engine (not for PrismaClient).
 * Both fix how a migration script is executed, and each owns what it opens so callers can release
 * it deterministically afterwards: the schema engine never disposes the shadow database.
 */
import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { DriverAdapterError, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { openScratchPGlite } from './pglite.js';

/** A factory for the engine plus what must be released once the engine is done with it. */
export interface EngineConnection {
  factory: SqlMigrationAwareDriverAdapterFactory;
  release(): Promise<void>;
}

interface PgLikeError {
  code?: unknown;
  severity?: unknown;
  message: string;
  detail?: unknown;
  column?: unknown;
  hint?: unknown;
}

/** Turns a PostgreSQL error into the shape the engine reports (SQLSTATE, message, detail). */
function toDriverAdapterError(error: unknown): unknown {
  const e = error as PgLikeError;
  if (!(error instanceof Error) || typeof e.code !== 'string') return error;
  const optional = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return new DriverAdapterError({
    kind: 'postgres',
    code: e.code,
    severity: optional(e.severity) ?? 'ERROR',
    message: e.message,
    detail: optional(e.detail),
    column: optional(e.column),
    hint: optional(e.hint),
  });
}

/**
 * Replaces an adapter's executeScript with `run`, which sends the whole script in one simple-query
 * round trip. Why: pglite-prisma-adapter 0.7 does not await `exec` (a failing migration is
 * recorded as applied and its error becomes an unhandled rejection), and adapter-pg splits the
 * script on every `;`, which breaks on semicolons inside literals or function bodies.
 */
function withScriptRunner(
  adapter: SqlDriverAdapter,
  run: (script: string) => Promise<unknown>,
  dispose: () => Promise<void> = () => adapter.dispose(),
): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: query => adapter.queryRaw(query),
    executeRaw: query => adapter.executeRaw(query),
    startTransaction: isolationLevel => adapter.startTransaction(isolationLevel),
    getConnectionInfo: () => adapter.getConnectionInfo?.() ?? { supportsRelationJoins: true },
    executeScript: async script => {
      try {
        await run(script);
      } catch (error) {
        throw toDriverAdapterError(error);
      }
    },
    dispose,
  };
}

/** The pglite adapter is typed against an older @prisma/driver-adapter-utils; the shapes agree. */
async function pgliteAdapter(pglite: PGlite): Promise<SqlDriverAdapter> {
  return (await new PrismaPGlite(pglite).connect()) as unknown as SqlDriverAdapter;
}

/** A throwaway in-memory PGlite per shadow database the engine asks for. */
function pgliteShadows() {
  const opened: PGlite[] = [];
  return {
    async connect(): Promise<SqlDriverAdapter> {
      const shadow = await openScratchPGlite();
      opened.push(shadow);
      return withScriptRunner(
        await pgliteAdapter(shadow),
        script => shadow.exec(script),
        async () => {},
      );
    },
    async release(): Promise<void> {
      await Promise.all(opened.splice(0).map(shadow => shadow.close()));
    },
  };
}

/**
 * The engine on a caller's PGlite. The instance is shared, so the engine must be the only user
 * while it runs (openDatabase migrates before it builds the PrismaClient) and never closes it.
 */
export function pgliteEngineConnection(pglite: PGlite): EngineConnection {
  const shadows = pgliteShadows();
  return {
    factory: {
      provider: 'postgres',
      adapterName: 'gatehouse-pglite-engine',
      connect: async () =>
        withScriptRunner(
          await pgliteAdapter(pglite),
          script => pglite.exec(script),
          async () => {},
        ),
      connectToShadowDb: () => shadows.connect(),
    },
    release: () => shadows.release(),
  };
}

/**
 * For engine commands that only compare schemas (diff from migrations): one throwaway in-memory
 * PGlite serves as both the main connection (the engine only reads its version there) and the
 * shadow database the migrations are replayed on.
 */
export function scratchEngineConnection(): EngineConnection {
  let scratch: Promise<PGlite> | undefined;
  const open = async () => {
    const pglite = await (scratch ??= openScratchPGlite());
    return withScriptRunner(
      await pgliteAdapter(pglite),
      script => pglite.exec(script),
      async () => {},
    );
  };
  return {
    factory: { provider: 'postgres', adapterName: 'gatehouse-scratch-engine', connect: open, connectToShadowDb: open },
    release: async () => {
      if (scratch) await (await scratch).close();
    },
  };
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/**
 * Makes the pool report PostgreSQL's internal one-byte "char" type (pg_class.relkind and friends,
 * which the engine's introspection reads) as text. adapter-pg 7.10 has no mapping for it, so any
 * engine command that reads the live schema failed with "Column type 'char' could not be
 * deserialized". node-postgres already returns those values as strings.
 */
function reportCharAsText(pool: pg.Pool): void {
  const query = pool.query.bind(pool) as (config: unknown) => Promise<pg.QueryResult | pg.QueryResult[]>;
  pool.query = (async (config: unknown) => {
    const result = await query(config);
    for (const part of Array.isArray(result) ? result : [result]) {
      for (const field of part.fields ?? []) {
        if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
      }
    }
    return result;
  }) as typeof pool.query;
}

/**
 * The engine on PostgreSQL through its own small pool: the engine keeps a pooled connection (and
 * its advisory migration lock) until the pool ends, which `engine.free()` does not do.
 */
export function postgresEngineConnection(connectionString: string): EngineConnection {
  const pool = new pg.Pool({ connectionString, max: 2, connectionTimeoutMillis: 10_000 });
  // A failing idle connection surfaces as the engine's next query error; without a listener the
  // pool's 'error' event would crash the process instead.
  pool.on('error', () => {});
  reportCharAsText(pool);
  const base = new PrismaPg(pool);
  return {
    factory: {
      provider: 'postgres',
      adapterName: 'gatehouse-postgres-engine',
      connect: async () => withScriptRunner(await base.connect(), script => pool.query(script)),
      connectToShadowDb: () => base.connectToShadowDb(),
    },
    release: () => pool.end(),
  };
}
