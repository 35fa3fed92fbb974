/**
 * The project file, `gatehouse.json` (made by `gatehouse init`): the one place the CLI's commands
 * get an app's defaults from: its app id, environment, schema file, site directory and gateway.
 * Found in the working directory or the nearest one above it; flags override what it says.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CliError, EXIT_USAGE, usageError } from './output.js';

export const PROJECT_FILE = 'gatehouse.json';
export const DEFAULT_ENV = 'dev';
export const DEFAULT_SCHEMA = 'gatehouse.schema.ts';
export const DEFAULT_SITE = 'site';

/** What gatehouse.json holds; every key is optional. Paths are relative to the file. */
export interface ProjectFile {
  /** The app id (`app_…`). */
  app?: string;
  /** The environment commands use by default (`dev`). */
  env?: string;
  /** The schema module or JSON IR `deploy` and `typegen` read. */
  schema?: string;
  /** The static site `publish` and `dev` serve. */
  site?: string;
  /** The gateway's URL, when GATEHOUSE_URL does not say it. */
  gateway?: string;
  /** Where `typegen` writes the row types. */
  types?: string;
}

const KEYS = ['app', 'env', 'schema', 'site', 'gateway', 'types'] as const;

/** A project as commands read it: the file's values with defaults, paths made absolute. */
export interface Project {
  /** The gatehouse.json found, or null (then every value is a default). */
  file: string | null;
  /** The project's directory: the file's, else the working directory. */
  dir: string;
  app: string | null;
  env: string;
  schema: string;
  site: string;
  gateway: string | null;
  types: string;
}

/** The gatehouse.json in `cwd` or the nearest directory above it, or null. */
export function findProjectFile(cwd: string): string | null {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, PROJECT_FILE);
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
  }
}

/** Reads and checks a project file: a JSON object whose known keys are non-empty strings. */
export function readProjectFile(file: string): ProjectFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new CliError('invalid_project_file', `${file}: not valid JSON (${(error as Error).message}).`, EXIT_USAGE);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new CliError('invalid_project_file', `${file}: expected a JSON object such as { "app": "app_…", "env": "dev" }.`, EXIT_USAGE);
  }
  const values = parsed as Record<string, unknown>;
  for (const key of KEYS) {
    const value = values[key];
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new CliError('invalid_project_file', `${file}: "${key}" must be a non-empty string.`, EXIT_USAGE);
    }
  }
  return values as ProjectFile;
}

/** The project of `cwd` (its gatehouse.json, or the defaults when there is none). */
export function loadProject(cwd: string): Project {
  const file = findProjectFile(cwd);
  const values = file ? readProjectFile(file) : {};
  const dir = file ? path.dirname(file) : path.resolve(cwd);
  return {
    file,
    dir,
    app: values.app?.trim() ?? null,
    env: values.env?.trim() ?? DEFAULT_ENV,
    schema: path.resolve(dir, values.schema ?? DEFAULT_SCHEMA),
    site: path.resolve(dir, values.site ?? DEFAULT_SITE),
    gateway: values.gateway?.trim().replace(/\/+$/, '') ?? null,
    types: path.resolve(dir, values.types ?? 'gatehouse.types.ts'),
  };
}

type Values = Record<string, string | string[] | boolean | undefined>;

const flag = (values: Values, name: string): string | null => {
  const value = values[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

/** The app a command acts on: --app, else the project's; a usage error naming both when neither says. */
export function appOf(project: Project, values: Values): string {
  const app = flag(values, 'app') ?? project.app;
  if (app) return app;
  const where = project.file ? `${project.file} has no "app"` : `no ${PROJECT_FILE} here or above`;
  throw usageError(`no app given: pass --app <id>, or set "app" in ${PROJECT_FILE} (${where}; 'gatehouse init --app <id>' writes one).`);
}

/** The environment: --env, else the project's, else dev. */
export const envOf = (project: Project, values: Values): string => flag(values, 'env') ?? project.env;
