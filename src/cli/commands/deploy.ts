/** `gatehouse deploy`: loads an app schema (TypeScript DSL or JSON IR) and stores it for one environment. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Command, type CommandContext, confirmed } from '../command.js';
import { API_ENV_HELP, type ApiClient, createApiClient } from '../http.js';
import { CliError, usageError } from '../output.js';
import { appOf, envOf, loadProject } from '../project.js';

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
  schemaFile        gatehouse.json's "schema", else ${DEFAULT_SCHEMA_FILE}. A ${MODULE_EXTENSIONS.join('/')} module whose
                    default export is defineSchema({...}) from 'gatehouse/schema', or a .json schema IR.

Options:
  --app <id>        The app to deploy to (default: "app" in gatehouse.json).
  --env <name>      The environment, e.g. dev, staging or prod (default: gatehouse.json's "env", else dev).
  --create-env      Create the environment when the app does not have it yet. Without it, deploy
                    asks on a terminal, and refuses elsewhere: a typo never makes an environment.

Deploying again replaces the schema and bumps the version. Prints a summary; with --json, the
server's response { deploymentId, appId, env, version, resourceTypes, tables, buckets }.
${API_ENV_HELP}`,
  options: { app: { type: 'string' }, env: { type: 'string' }, 'create-env': { type: 'boolean' } },
  async run(context) {
    const { values, positionals, env, out, io } = context;
    const project = loadProject(io.cwd);
    const appId = appOf(project, values);
    const envName = envOf(project, values);
    const file = positionals[0] ? path.resolve(io.cwd, positionals[0]) : project.schema;
    const api = createApiClient(env, out, { gateway: project.gateway });
    const schema = await loadSchema(file);
    await refuseNewEnvUnlessAsked(context, api, appId, envName);
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

/** A deploy to an environment the app lacks goes on with --create-env or a person's yes; otherwise it stops. */
async function refuseNewEnvUnlessAsked({ values, io }: CommandContext, api: ApiClient, appId: string, envName: string): Promise<void> {
  const { apps } = await api.request<{ apps: { id: string; environments: string[] }[] }>('GET', '/dev/apps');
  const app = apps.find(a => a.id === appId);
  // Not yours or not there: the deploy's own 404 says so.
  if (!app || app.environments.includes(envName) || values['create-env']) return;
  const has = `app ${appId} has no environment '${envName}' (it has: ${app.environments.join(', ') || 'none yet'})`;
  if (await confirmed(io, `The ${has}. Create it?`)) return;
  throw new CliError('env_not_found', `The ${has}: nothing deployed. Check the name, or pass --create-env to create it.`, 2);
}

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
