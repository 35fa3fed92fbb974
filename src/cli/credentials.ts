/**
 * Stored logins (`gatehouse login`): one developer token per gateway URL in the user's config
 * directory, $XDG_CONFIG_HOME/gatehouse/credentials.json (else ~/.config/gatehouse/…), the file
 * 0600 in a 0700 directory. GATEHOUSE_DEV_TOKEN, when set, wins over a stored login.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT_USAGE } from './output.js';

export interface StoredLogin {
  token: string;
  developerId: string;
  email: string;
  savedAt: string;
}

interface CredentialsFile {
  gateways: Record<string, StoredLogin>;
}

/** The credentials file for `env`, or null when neither XDG_CONFIG_HOME nor HOME is set. */
export function credentialsPath(env: NodeJS.ProcessEnv): string | null {
  const base = env.XDG_CONFIG_HOME?.trim() || (env.HOME?.trim() ? path.join(env.HOME.trim(), '.config') : '');
  return base ? path.join(base, 'gatehouse', 'credentials.json') : null;
}

function read(file: string): CredentialsFile {
  if (!existsSync(file)) return { gateways: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<CredentialsFile>;
    return { gateways: typeof parsed.gateways === 'object' && parsed.gateways ? parsed.gateways : {} };
  } catch {
    throw new CliError('invalid_credentials_file', `${file} is not valid JSON: fix or delete it, then run gatehouse login again.`, EXIT_USAGE);
  }
}

/** Writes the file private from its first byte (a temporary file made 0600, then renamed over it). */
function write(file: string, contents: CredentialsFile): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode alone: a token never sits in a directory others can list.
  chmodSync(path.dirname(file), 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

/** The login stored for `gateway`, or null. */
export function storedLogin(env: NodeJS.ProcessEnv, gateway: string): StoredLogin | null {
  const file = credentialsPath(env);
  if (!file) return null;
  const login = read(file).gateways[gateway];
  return login && typeof login.token === 'string' ? login : null;
}

function requirePath(env: NodeJS.ProcessEnv): string {
  const file = credentialsPath(env);
  if (!file) throw new CliError('no_config_dir', 'Neither XDG_CONFIG_HOME nor HOME is set: there is nowhere to keep a login.', EXIT_USAGE);
  return file;
}

/** Stores (or replaces) the login for `gateway`; returns the file. */
export function saveLogin(env: NodeJS.ProcessEnv, gateway: string, login: Omit<StoredLogin, 'savedAt'>): string {
  const file = requirePath(env);
  const contents = read(file);
  contents.gateways[gateway] = { ...login, savedAt: new Date().toISOString() };
  write(file, contents);
  return file;
}

/** Forgets the login for `gateway`; whether there was one. */
export function removeLogin(env: NodeJS.ProcessEnv, gateway: string): { file: string | null; removed: boolean } {
  const file = credentialsPath(env);
  if (!file || !existsSync(file)) return { file, removed: false };
  const contents = read(file);
  if (!contents.gateways[gateway]) return { file, removed: false };
  delete contents.gateways[gateway];
  write(file, contents);
  return { file, removed: true };
}
