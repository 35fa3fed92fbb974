/** Configuration from environment variables, validated once at start with a message per bad value. */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { gatewayHostProblem } from './apps/app-urls.rules.js';
import { DEFAULT_DRAIN_LIMITS, DEFAULT_MAX_BODY_BYTES, type DrainLimits } from './http/body.js';
import { DATABASE_DEFAULTS } from './db/busy.js';
import { FEED_LIMIT_DEFAULTS, type FeedLimits } from './feeds/feed-limits.rules.js';

/** Defaults of the quotas per person and app (docs/api.md §9.6). */
export const QUOTA_DEFAULTS = { resourcesPerPerson: 1000, agentsPerPerson: 20, profileLookupsPerMinute: 60 };

const port = z.coerce.number().int().min(0).max(65535);
const usd = z.string().regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a non-negative amount in dollars such as 5 or 2.50');
const boolFlag = z.enum(['1', '0', 'true', 'false']).transform(v => v === '1' || v === 'true');

const schema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  // The names the gateway answers on (README "Configuration"): reserved from app origins.
  GATEWAY_HOSTS: z
    .string()
    .transform(list =>
      list
        .split(',')
        .map(entry => entry.trim())
        .filter(Boolean),
    )
    .superRefine((entries, ctx) => {
      for (const entry of entries) {
        const problem = gatewayHostProblem(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }
    })
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  // Where the embedded database's cluster templates are kept (README "Configuration"); unset: the user's cache.
  GATEHOUSE_CACHE_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL (unset it for the embedded database)')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  // Every channel of this deployment on that Redis is under it (README "Configuration").
  REDIS_NAMESPACE: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, dots, underscores or hyphens')
    .optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL such as https://gatehouse.example.com' }).optional(),
  MIGRATE_ON_START: boolFlag.default(true),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  // The one request-body limit, every route (README "Configuration"): bytes actually read, chunked or not.
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024, 'must be at least 1024')
    .max(1024 * 1024 * 1024)
    .default(DEFAULT_MAX_BODY_BYTES),
  // A body answered before it was read (README "Configuration"): how much more is read and discarded, and for how long.
  DRAIN_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(1024 ** 4)
    .default(DEFAULT_DRAIN_LIMITS.maxBytes),
  DRAIN_MAX_SECONDS: z.coerce
    .number()
    .min(0)
    .max(3600)
    .default(DEFAULT_DRAIN_LIMITS.maxMs / 1000),
  // GraphQL introspection (README "Configuration"); unset: on outside production, off in production.
  GRAPHQL_INTROSPECTION: boolFlag.optional(),
  // Database capacity (README "Configuration"): waits that run out answer 503 busy.
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(DATABASE_DEFAULTS.poolSize),
  DATABASE_READ_CONNECTIONS: z.coerce.number().int().min(0).max(100).default(DATABASE_DEFAULTS.readConnections),
  DATABASE_WRITE_CONNECTIONS: z.coerce.number().int().min(0).max(100).default(DATABASE_DEFAULTS.writeConnections),
  DATABASE_TX_MAX_WAIT_MS: z.coerce.number().int().min(1).max(600_000).default(DATABASE_DEFAULTS.transactionMaxWaitMs),
  DATABASE_TX_TIMEOUT_MS: z.coerce.number().int().min(1).max(600_000).default(DATABASE_DEFAULTS.transactionTimeoutMs),
  // Live-feed socket limits (README "Live feeds").
  WS_MAX_SUBSCRIPTIONS_PER_SOCKET: z.coerce.number().int().min(1).max(100_000).default(FEED_LIMIT_DEFAULTS.maxSubscriptionsPerSocket),
  WS_MAX_SOCKETS_PER_PRINCIPAL: z.coerce.number().int().min(1).max(100_000).default(FEED_LIMIT_DEFAULTS.maxSocketsPerPrincipal),
  WS_MAX_SOCKETS: z.coerce.number().int().min(1).max(1_000_000).default(FEED_LIMIT_DEFAULTS.maxSockets),
  WS_MAX_SUBSCRIPTIONS_PER_PERSON: z.coerce.number().int().min(1).max(10_000_000).default(FEED_LIMIT_DEFAULTS.maxSubscriptionsPerPerson),
  // Quotas per person and app (README "Configuration"); an agent counts against its owner.
  MAX_RESOURCES_PER_PERSON: z.coerce.number().int().min(1).max(10_000_000).default(QUOTA_DEFAULTS.resourcesPerPerson),
  MAX_AGENTS_PER_PERSON: z.coerce.number().int().min(1).max(100_000).default(QUOTA_DEFAULTS.agentsPerPerson),
  PROFILE_LOOKUPS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(QUOTA_DEFAULTS.profileLookupsPerMinute),
  // Live row feeds on one resource, per process (README "Live feeds").
  ROWS_LIVE_MAX_PER_RESOURCE: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  // Gateway auth (README "Sign-in (gateway auth)").
  OIDC_ISSUER: z.url({ message: 'must be the absolute issuer URL of a Hydra-compatible provider' }).optional(),
  OIDC_ADMIN_URL: z.url({ message: "must be the absolute URL of the provider's admin API" }).optional(),
  OIDC_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  OIDC_INTROSPECTION_CLIENT_ID: z.string().min(1).optional(),
  OIDC_INTROSPECTION_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  OIDC_CONSENT_URL: z.url({ message: 'must be an absolute URL' }).optional(),
  OIDC_IDENTITY_URL: z.url({ message: "must be the absolute URL of the provider's self-service API" }).optional(),
  IDP_EMBEDDED: boolFlag.default(true),
  IDP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  IDP_JWT_ACCESS_TOKENS: boolFlag.default(false),
  IDP_JWT_ACCESS_TOKEN_TTL_S: z.coerce
    .number()
    .int()
    .min(30, 'must be at least 30 seconds')
    .max(3600, 'must be at most 3600 seconds (a JWT cannot be revoked)')
    .default(300),
  COOKIE_SECURE: boolFlag.default(true),
  WELCOME_CREDIT_USD: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a non-negative amount in dollars such as 5 or 2.50')
    .default('5'),
  GATEWAY_ENV: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be an environment name such as prod')
    .default('prod'),
  // The console's client (src/console): registered by the console itself with the embedded provider.
  DASHBOARD_CLIENT_ID: z.string().min(1).default('gatehouse-console'),
  // Embedded provider sign-in/sign-up throttles (README "Storage"), and whose X-Forwarded-For to believe.
  SIGNIN_MAX_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(50),
  SIGNIN_MAX_GLOBAL: z.coerce.number().int().min(1).max(1_000_000).default(300),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  // The row store (README "Configuration"): rows one call may write; unset, by database.
  ROWS_MAX_WRITES_PER_CALL: z.coerce.number().int().min(1).max(1_000_000).optional(),
  // Files (README "Files"): where the bytes live, and the largest file any bucket may accept.
  FILES_BACKEND: z.enum(['fs', 's3']).default('fs'),
  FILES_DIR: z.string().min(1).optional(),
  MAX_FILE_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(5 * 1024 ** 3)
    .default(1024 ** 3),
  S3_ENDPOINT: z.url({ message: 'must be the absolute URL of an S3-compatible endpoint' }).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name (3-63 lower-case letters, digits, dots, hyphens)')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: boolFlag.default(true),
  // Metering (README "Billing"): the price table and the budgets' defaults, in dollars.
  METERING: boolFlag.default(true),
  PRICE_READS_USD_PER_MILLION: usd.default('1'),
  PRICE_WRITES_USD_PER_MILLION: usd.default('2'),
  PRICE_TRANSFER_USD_PER_GB: usd.default('0.09'),
  PRICE_STORAGE_USD_PER_GB_MONTH: usd.default('0.02'),
  TEST_ENV_BUDGET_USD: usd.default('2'),
  APP_BUDGET_USD: usd.default('5'),
  DEVELOPER_CREDIT_USD: usd.default('5'),
  // Operations (README "Metrics"): /metrics, behind a token or on a listener of its own.
  METRICS: boolFlag.default(true),
  METRICS_TOKEN: z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
});

/** Defaults of ROWS_MAX_WRITES_PER_CALL: the embedded database runs one transaction at a time for everyone. */
export const ROWS_MAX_WRITES_PER_CALL = { embedded: 200, postgres: 20_000 } as const;

/** DATA_DIR/files; an in-memory database (tests) keeps its files in a fresh temporary directory. */
function filesDirOf(dataDir: string): string {
  if (dataDir.startsWith('memory://')) return path.join(os.tmpdir(), `gatehouse-files-${process.pid}-${Math.random().toString(36).slice(2)}`);
  return path.join(dataDir, 'files');
}

/** "2.5" -> 2_500_000n micro-dollars, exactly (no floating point). */
export function usdToMicros(value: string): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map(p => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Validates the environment against `shape` (empty strings count as unset), naming every bad variable. */
function parseEnv<T extends z.ZodType>(shape: T, env: Record<string, string | undefined>): z.output<T> {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = shape.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ConfigError(
    parsed.error.issues.map(i => {
      // A rule across variables names them in its message.
      if (i.path.length === 0) return i.message;
      const name = String(i.path[0]);
      return `${i.path.join('.')}: ${i.message}${name in input ? ` (got ${JSON.stringify(input[name])})` : ''}`;
    }),
  );
}

type Env = z.output<typeof schema>;

/** The rules between variables: a problem for each one broken. */
function crossVariableProblems(c: Env): string[] {
  const problems: string[] = [];
  if (!!c.OIDC_INTROSPECTION_CLIENT_ID !== !!c.OIDC_INTROSPECTION_CLIENT_SECRET) {
    problems.push('OIDC_INTROSPECTION_CLIENT_ID and OIDC_INTROSPECTION_CLIENT_SECRET must be set together');
  }
  if (!c.COOKIE_SECURE && c.NODE_ENV === 'production') {
    problems.push('COOKIE_SECURE: 0 is a development switch for plain-http localhost; it is refused with NODE_ENV=production');
  }
  for (const name of ['OIDC_ADMIN_URL', 'OIDC_IDENTITY_URL'] as const) {
    if (c[name] && !c.OIDC_ISSUER) problems.push(`${name}: only meaningful with OIDC_ISSUER (the embedded provider has its own)`);
  }
  if (c.FILES_BACKEND === 's3' && !c.S3_BUCKET) problems.push('S3_BUCKET: required with FILES_BACKEND=s3');
  if (!!c.S3_ACCESS_KEY_ID !== !!c.S3_SECRET_ACCESS_KEY) problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  if (!c.METRICS && (c.METRICS_TOKEN || c.METRICS_PORT !== undefined))
    problems.push('METRICS_TOKEN and METRICS_PORT: only meaningful with METRICS on');
  return problems;
}

/** The server's configuration as the code reads it: grouped, named for use, defaults that depend on other variables resolved. */
function configOf(c: Env) {
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/$/, '');
  return {
    port: c.PORT,
    host: c.HOST,
    /** GATEWAY_HOSTS: the names the gateway answers on (`name` on PORT, or `name:port`); null: the loopback names and the bound addresses. */
    gatewayHosts: c.GATEWAY_HOSTS ?? null,
    dataDir: c.DATA_DIR,
    /** GATEHOUSE_CACHE_DIR; unset: $XDG_CACHE_HOME/gatehouse or ~/.cache/gatehouse. */
    templateCacheDir: c.GATEHOUSE_CACHE_DIR,
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    /** REDIS_NAMESPACE; unset: derived from the database's identity (every instance of a deployment agrees). */
    redisNamespace: c.REDIS_NAMESPACE,
    nodeEnv: c.NODE_ENV,
    /** Where this gateway is reached; invite links use it when the app has no origin. */
    publicUrl,
    migrateOnStart: c.MIGRATE_ON_START,
    logLevel: c.LOG_LEVEL,
    /** Largest request body any route reads (413 body_too_large above it). */
    maxBodyBytes: c.MAX_BODY_BYTES,
    /** What is read and discarded of a body answered before it was read, before the connection is closed. */
    drain: { maxBytes: c.DRAIN_MAX_BYTES, maxMs: Math.round(c.DRAIN_MAX_SECONDS * 1000) } satisfies DrainLimits,
    /** Whether `__schema`/`__type` are answered (GRAPHQL_INTROSPECTION; default: not in production). */
    graphqlIntrospection: c.GRAPHQL_INTROSPECTION ?? c.NODE_ENV !== 'production',
    /** Pool size and transaction waits (openDatabase options). */
    database: {
      poolSize: c.DATABASE_POOL_SIZE,
      readConnections: c.DATABASE_READ_CONNECTIONS,
      writeConnections: c.DATABASE_WRITE_CONNECTIONS,
      transactionMaxWaitMs: c.DATABASE_TX_MAX_WAIT_MS,
      transactionTimeoutMs: c.DATABASE_TX_TIMEOUT_MS,
    },
    feeds: {
      maxSubscriptionsPerSocket: c.WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
      maxSocketsPerPrincipal: c.WS_MAX_SOCKETS_PER_PRINCIPAL,
      maxSockets: c.WS_MAX_SOCKETS,
      maxSubscriptionsPerPerson: c.WS_MAX_SUBSCRIPTIONS_PER_PERSON,
    } satisfies FeedLimits,
    /** What one person may hold or do in one app; their agents count against them. */
    quotas: {
      /** Resources a person (with their agents) owns in one app: the next create is 429 `too_many_resources`. */
      resourcesPerPerson: c.MAX_RESOURCES_PER_PERSON,
      /** Agents a person owns in one app: the next is 429 `too_many_agents`. */
      agentsPerPerson: c.MAX_AGENTS_PER_PERSON,
      /** Profile lookups (by handle or ids) a person makes per minute in one app: the next is 429 `too_many_lookups`. */
      profileLookupsPerMinute: c.PROFILE_LOOKUPS_PER_MINUTE,
    },
    /** rowsLive subscriptions per resource on this process (src/rows/rows-live.service.ts). */
    rowsLive: { maxPerResource: c.ROWS_LIVE_MAX_PER_RESOURCE },
    auth: {
      /** External Hydra-compatible issuer; undefined means the embedded provider at `${publicUrl}/idp`. */
      issuer: c.OIDC_ISSUER?.replace(/\/$/, ''),
      /** The external provider's admin API (consent requests); unset with an external issuer disables consent routes. */
      adminUrl: c.OIDC_ADMIN_URL?.replace(/\/$/, ''),
      adminToken: c.OIDC_ADMIN_TOKEN,
      /** RFC 7662 client credential; without one the gateway validates tokens through userinfo. */
      introspection:
        c.OIDC_INTROSPECTION_CLIENT_ID && c.OIDC_INTROSPECTION_CLIENT_SECRET
          ? { clientId: c.OIDC_INTROSPECTION_CLIENT_ID, secret: c.OIDC_INTROSPECTION_CLIENT_SECRET }
          : undefined,
      /** Where the embedded provider sends the browser for consent (`?consent_challenge=`). */
      consentUrl: c.OIDC_CONSENT_URL ?? `${publicUrl}/auth/consent`,
      /** An external provider's self-service API (`<url>/self-service/<type>/flows?id=`) for /auth/identity/flow. */
      identityUrl: c.OIDC_IDENTITY_URL?.replace(/\/$/, ''),
      /** Whether the embedded provider runs when no OIDC_ISSUER is set (off: /auth/authorize answers 503). */
      embedded: c.IDP_EMBEDDED,
      /** Key material of the embedded provider's cookies; generated and stored in the database when unset. */
      idpSecret: c.IDP_SECRET,
      /**
       * Embedded provider: issue access tokens as JWTs for this gateway (audience PUBLIC_URL), verified
       * locally against its JWKS instead of introspected; `ttlSeconds` is their lifetime (they cannot be revoked).
       */
      jwtAccessTokens: c.IDP_JWT_ACCESS_TOKENS ? { ttlSeconds: c.IDP_JWT_ACCESS_TOKEN_TTL_S } : null,
      /** `Secure` on gateway cookies; only `COOKIE_SECURE=0` for plain-http localhost development. */
      cookieSecure: c.COOKIE_SECURE,
      welcomeCreditMicros: usdToMicros(c.WELCOME_CREDIT_USD),
      /** The environment whose deployment provider-authenticated users act in. */
      gatewayEnv: c.GATEWAY_ENV,
      /** The OAuth client id of the platform dashboard (its sessions reach /v1/me and /v1/dashboard). */
      dashboardClientId: c.DASHBOARD_CLIENT_ID,
      /** Embedded provider: sign-in + sign-up attempts per client address (15 min) and in all (1 min). */
      signInLimits: { perIp: c.SIGNIN_MAX_PER_IP, global: c.SIGNIN_MAX_GLOBAL },
      /** Reverse proxies in front whose X-Forwarded-For entries name the client (0: the socket's peer). */
      trustProxy: c.TRUST_PROXY,
    },
    files: {
      /** Largest file any bucket accepts (a bucket's `maxSize` is capped by it). */
      maxFileBytes: c.MAX_FILE_BYTES,
      /** `fs`: under `DATA_DIR/files`; `s3`: an S3-compatible bucket. */
      backend: filesBackendOf(c),
    },
    rows: {
      /** Rows one call (a query or a whole batch) may insert, update or delete (400 too_many_rows past it). */
      maxWritesPerCall: c.ROWS_MAX_WRITES_PER_CALL ?? (c.DATABASE_URL ? ROWS_MAX_WRITES_PER_CALL.postgres : ROWS_MAX_WRITES_PER_CALL.embedded),
    },
    /**
     * /metrics (README "Metrics"): with `port`, served only on that listener (on `host`); otherwise on
     * the public port, to loopback callers outside production, else with the bearer `token` only.
     */
    metrics: { enabled: c.METRICS, token: c.METRICS_TOKEN ?? null, port: c.METRICS_PORT ?? null, host: c.METRICS_HOST },
    /** Amounts in micro-dollars ($1 = 1_000_000); prices per unit as documented (README "Billing"). */
    metering: {
      enabled: c.METERING,
      prices: {
        readsPerMillion: usdToMicros(c.PRICE_READS_USD_PER_MILLION),
        writesPerMillion: usdToMicros(c.PRICE_WRITES_USD_PER_MILLION),
        transferPerGb: usdToMicros(c.PRICE_TRANSFER_USD_PER_GB),
        storagePerGbMonth: usdToMicros(c.PRICE_STORAGE_USD_PER_GB_MONTH),
      },
      testEnvBudgetMicros: usdToMicros(c.TEST_ENV_BUDGET_USD),
      appBudgetMicros: usdToMicros(c.APP_BUDGET_USD),
      developerCreditMicros: usdToMicros(c.DEVELOPER_CREDIT_USD),
    },
  };
}

function filesBackendOf(c: Env) {
  if (c.FILES_BACKEND !== 's3') return { kind: 'fs' as const, root: c.FILES_DIR ?? filesDirOf(c.DATA_DIR) };
  return {
    kind: 's3' as const,
    endpoint: c.S3_ENDPOINT,
    region: c.S3_REGION,
    bucket: c.S3_BUCKET!,
    accessKeyId: c.S3_ACCESS_KEY_ID,
    secretAccessKey: c.S3_SECRET_ACCESS_KEY,
    forcePathStyle: c.S3_FORCE_PATH_STYLE,
  };
}

/** The environment, checked variable by variable and then across variables, read as the Config. */
const configSchema = schema.transform((env, ctx) => {
  for (const message of crossVariableProblems(env)) ctx.addIssue({ code: 'custom', message });
  return configOf(env);
});

export type Config = z.output<typeof configSchema>;
export type AuthConfig = Config['auth'];
export type FilesConfig = Config['files'];
export type MeteringConfig = Config['metering'];
export type RowsConfig = Config['rows'];
export type QuotaConfig = Config['quotas'];

/** Reads the environment (empty strings count as unset). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseEnv(configSchema, env);
}

const idpSchema = z.object({
  IDP_PORT: port.default(4444),
  HOST: schema.shape.HOST,
  IDP_ISSUER: z.url({ message: 'must be the absolute URL this provider is reached at, such as https://id.example.com' }).optional(),
  DATABASE_URL: z
    .string({ message: "is required: the provider shares the gateway's PostgreSQL database (the embedded one cannot be opened by two processes)" })
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL'),
  MIGRATE_ON_START: schema.shape.MIGRATE_ON_START,
  LOG_LEVEL: schema.shape.LOG_LEVEL,
  OIDC_CONSENT_URL: z.url({ message: "is required: the gateway's consent page, such as https://gateway.example.com/auth/consent" }),
  OIDC_INTROSPECTION_CLIENT_ID: z.string({ message: "is required: the gateway's client id (the gateway's value)" }).min(1),
  OIDC_INTROSPECTION_CLIENT_SECRET: z
    .string({ message: "is required: the gateway's client secret (the gateway's value)" })
    .min(16, 'must be at least 16 characters'),
  OIDC_ADMIN_TOKEN: z
    .string({ message: "is required: the consent admin API's bearer token (the gateway's value)" })
    .min(16, 'must be at least 16 characters'),
  IDP_SECRET: schema.shape.IDP_SECRET,
  SIGNIN_MAX_PER_IP: schema.shape.SIGNIN_MAX_PER_IP,
  SIGNIN_MAX_GLOBAL: schema.shape.SIGNIN_MAX_GLOBAL,
  TRUST_PROXY: schema.shape.TRUST_PROXY,
});

/** `gatehouse idp`: the embedded identity provider on its own port, beside a gateway that names it as OIDC_ISSUER. */
const idpConfigSchema = idpSchema.transform(c => ({
  port: c.IDP_PORT,
  host: c.HOST,
  /** Its public issuer URL; its path is where the provider is mounted (usually none). */
  issuer: (c.IDP_ISSUER ?? `http://${c.HOST === '0.0.0.0' ? 'localhost' : c.HOST}:${c.IDP_PORT}`).replace(/\/$/, ''),
  /** The gateway's database: apps registered there are the provider's OAuth clients. */
  databaseUrl: c.DATABASE_URL,
  migrateOnStart: c.MIGRATE_ON_START,
  logLevel: c.LOG_LEVEL,
  /** The gateway's consent screen (`https://gateway.example.com/auth/consent`). */
  consentUrl: c.OIDC_CONSENT_URL,
  /** The gateway's confidential client (introspection, revocation): the gateway's OIDC_INTROSPECTION_CLIENT_*. */
  gatewayClient: { clientId: c.OIDC_INTROSPECTION_CLIENT_ID, secret: c.OIDC_INTROSPECTION_CLIENT_SECRET },
  /** Bearer token of the consent admin API: the gateway's OIDC_ADMIN_TOKEN. */
  adminToken: c.OIDC_ADMIN_TOKEN,
  idpSecret: c.IDP_SECRET,
  signInLimits: { perIp: c.SIGNIN_MAX_PER_IP, global: c.SIGNIN_MAX_GLOBAL },
  trustProxy: c.TRUST_PROXY,
}));

export type IdpConfig = z.output<typeof idpConfigSchema>;

export function loadIdpConfig(env: Record<string, string | undefined> = process.env): IdpConfig {
  return parseEnv(idpConfigSchema, env);
}

/** How the server opens its database (DATABASE_URL or DATA_DIR, migrations, pool and transaction bounds). */
export function databaseOptionsOf(config: Config) {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    templateCacheDir: config.templateCacheDir,
    migrate: config.migrateOnStart,
    ...config.database,
  };
}
