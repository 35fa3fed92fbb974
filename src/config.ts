/** Configuration from environment variables, validated once at start with a message per bad value. */
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const boolFlag = z.enum(['1', '0', 'true', 'false']).transform(v => v === '1' || v === 'true');

const schema = z.object({
  PORT: port.default(4000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL (unset it for the embedded database)')
    .optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PUBLIC_URL: z.url({ message: 'must be an absolute URL such as https://gatehouse.example.com' }).optional(),
  MIGRATE_ON_START: boolFlag.default(true),
  LOG_LEVEL: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
  // Gateway auth (README "Sign-in (gateway auth)").
  OIDC_ISSUER: z.url({ message: 'must be the absolute issuer URL of a Hydra-compatible provider' }).optional(),
  OIDC_ADMIN_URL: z.url({ message: "must be the absolute URL of the provider's admin API" }).optional(),
  OIDC_ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  OIDC_INTROSPECTION_CLIENT_ID: z.string().min(1).optional(),
  OIDC_INTROSPECTION_CLIENT_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  OIDC_CONSENT_URL: z.url({ message: 'must be an absolute URL' }).optional(),
  IDP_EMBEDDED: boolFlag.default(true),
  IDP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  COOKIE_SECURE: boolFlag.default(true),
  WELCOME_CREDIT_USD: z
    .string()
    .regex(/^\d{1,6}(\.\d{1,6})?$/, 'must be a non-negative amount in dollars such as 5 or 2.50')
    .default('5'),
  GATEWAY_ENV: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be an environment name such as prod')
    .default('prod'),
  DASHBOARD_CLIENT_ID: z.string().min(1).optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  nodeEnv: 'development' | 'production' | 'test';
  /** Where this gateway is reached; invite links use it when the app has no origin. */
  publicUrl: string;
  migrateOnStart: boolean;
  logLevel: 'silent' | 'error' | 'warn' | 'info' | 'debug';
  auth: AuthConfig;
}

export interface AuthConfig {
  /** External Hydra-compatible issuer; undefined means the embedded provider at `${publicUrl}/idp`. */
  issuer?: string;
  /** The external provider's admin API (consent requests); unset with an external issuer disables consent routes. */
  adminUrl?: string;
  adminToken?: string;
  /** RFC 7662 client credential; without one the gateway validates tokens through userinfo. */
  introspection?: { clientId: string; secret: string };
  /** Whether the embedded provider runs when no OIDC_ISSUER is set (off: /auth/authorize answers 503). */
  embedded: boolean;
  /** Where the embedded provider sends the browser for consent (`?consent_challenge=`). */
  consentUrl: string;
  /** Key material of the embedded provider's cookies; generated and stored in the database when unset. */
  idpSecret?: string;
  /** `Secure` on gateway cookies; only `COOKIE_SECURE=0` for plain-http localhost development. */
  cookieSecure: boolean;
  welcomeCreditMicros: bigint;
  /** The environment whose deployment provider-authenticated users act in. */
  gatewayEnv: string;
  /** The OAuth client id of the platform dashboard (its sessions reach /v1/me and /v1/dashboard). */
  dashboardClientId?: string;
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

/** Reads the environment (empty strings count as unset). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message} (got ${JSON.stringify(input[String(i.path[0])])})`));
  }
  const c = parsed.data;
  const problems: string[] = [];
  if (!!c.OIDC_INTROSPECTION_CLIENT_ID !== !!c.OIDC_INTROSPECTION_CLIENT_SECRET) {
    problems.push('OIDC_INTROSPECTION_CLIENT_ID and OIDC_INTROSPECTION_CLIENT_SECRET must be set together');
  }
  if (!c.COOKIE_SECURE && c.NODE_ENV === 'production') {
    problems.push('COOKIE_SECURE: 0 is a development switch for plain-http localhost; it is refused with NODE_ENV=production');
  }
  if (c.OIDC_ADMIN_URL && !c.OIDC_ISSUER) problems.push('OIDC_ADMIN_URL: only meaningful with OIDC_ISSUER (the embedded provider has its own)');
  if (problems.length) throw new ConfigError(problems);
  const publicUrl = (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/$/, '');
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    nodeEnv: c.NODE_ENV,
    publicUrl,
    migrateOnStart: c.MIGRATE_ON_START,
    logLevel: c.LOG_LEVEL,
    auth: {
      issuer: c.OIDC_ISSUER?.replace(/\/$/, ''),
      adminUrl: c.OIDC_ADMIN_URL?.replace(/\/$/, ''),
      adminToken: c.OIDC_ADMIN_TOKEN,
      introspection:
        c.OIDC_INTROSPECTION_CLIENT_ID && c.OIDC_INTROSPECTION_CLIENT_SECRET
          ? { clientId: c.OIDC_INTROSPECTION_CLIENT_ID, secret: c.OIDC_INTROSPECTION_CLIENT_SECRET }
          : undefined,
      consentUrl: c.OIDC_CONSENT_URL ?? `${publicUrl}/auth/consent`,
      embedded: c.IDP_EMBEDDED,
      idpSecret: c.IDP_SECRET,
      cookieSecure: c.COOKIE_SECURE,
      welcomeCreditMicros: usdToMicros(c.WELCOME_CREDIT_USD),
      gatewayEnv: c.GATEWAY_ENV,
      dashboardClientId: c.DASHBOARD_CLIENT_ID,
    },
  };
}
