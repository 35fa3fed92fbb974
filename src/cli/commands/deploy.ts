/** `gatehouse deploy`: loads an app schema (TypeScript DSL or JSON IR) and stores it for one environment. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Command, requireString } from '../command.js';
import { API_ENV_HELP, createApiClient } from '../http.js';
import { CliError, usageError } from '../output.js';

const DEFAULT_SCHEMA_FILE = './gatehouse.schema.ts';
const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

interface DeployResult {
  deploymentId: string;
  appId: string;
  env: string;
  version: number;
  resourceTypes: string[];
  buckets?: string[];
  tables: string[];
}

export const deploy: Command = {
  name: 'deploy',
  summary: "Deploy an app schema to one of the app's environments.",
  positionals: { min: 0, max: 1, usage: '[schemaFile]' },
  help: `Arguments:
  schemaFile        ${DEFAULT_SCHEMA_FILE} by default. A ${MODULE_EXTENSIONS.join('/')} module whose default
                    export is defineSchema({...}) from 'gatehouse/schema', or a .json schema IR.

Options:
  --app <id>        The app to deploy to (required).
  --env <name>      The environment, e.g. dev, staging or prod (required).

Deploying again replaces the schema and bumps the version. Prints a summary; with --json, the
server's response { deploymentId, appId, env, version, resourceTypes, tables, buckets }.
${API_ENV_HELP}`,
  options: { app: { type: 'string' }, env: { type: 'string' } },
  async run({ values, positionals, env, out, io }) {
    const appId = requireString(values, 'app');
    const envName = requireString(values, 'env');
    const file = path.resolve(io.cwd, positionals[0] ?? DEFAULT_SCHEMA_FILE);
    const api = createApiClient(env, out);
    const schema = await loadSchema(file);
    const result = await api.request<DeployResult>('PUT', `/dev/apps/${encodeURIComponent(appId)}/deployments/${encodeURIComponent(envName)}`, {
      schema,
    });
    out.result(result, [
      `Deployed ${path.relative(io.cwd, file) || file} to app ${result.appId}, env ${result.env} (version ${result.version}).`,
      `  resource types: ${result.resourceTypes.join(', ') || '(none)'}`,
      `  tables:         ${result.tables.join(', ') || '(none)'}`,
      ...(result.buckets?.length ? [`  buckets:        ${result.buckets.join(', ')}`] : []),
    ]);
  },
};

/** The schema IR from a JSON file, or from a module's default export (imported in-process through tsx). */
export async function loadSchema(file: string): Promise<Record<string, unknown>> {
  const extension = path.extname(file).toLowerCase();
  if (extension !== '.json' && !MODULE_EXTENSIONS.includes(extension)) {
    throw usageError(`${file}: expected a ${[...MODULE_EXTENSIONS, '.json'].join(', ')} file.`);
  }
  if (!(await stat(file).catch(() => null))?.isFile()) throw usageError(`schema file not found: ${file}`);

  let schema: unknown;
  try {
    schema = extension === '.json' ? JSON.parse(await readFile(file, 'utf8')) : (await import(pathToFileURL(file).href)).default;
  } catch (error) {
    // defineSchema reports every problem at once; its message is already written for the author.
    if ((error as Error).name === 'SchemaValidationError') throw new CliError('invalid_schema', (error as Error).message);
    throw new CliError('schema_load_failed', `could not load ${file}: ${(error as Error).message}`);
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    const expected = extension === '.json' ? 'a JSON object (the schema IR)' : 'a default export: export default defineSchema({ ... })';
    throw new CliError('invalid_schema_file', `${file}: expected ${expected}.`);
  }
  return schema as Record<string, unknown>;
}
