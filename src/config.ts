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
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: c.DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    nodeEnv: c.NODE_ENV,
    publicUrl: (c.PUBLIC_URL ?? `http://${c.HOST === '0.0.0.0' ? 'localhost' : c.HOST}:${c.PORT}`).replace(/\/$/, ''),
    migrateOnStart: c.MIGRATE_ON_START,
    logLevel: c.LOG_LEVEL,
  };
}
