/** `gatehouse typegen`: TypeScript row types from the local schema file or the deployed schema. */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.js';
import { API_ENV_HELP, createApiClient } from '../http.js';
import { CliError } from '../output.js';
import { appOf, envOf, loadProject } from '../project.js';
import { rowTypesModule } from '../typegen.js';
import { loadSchema } from './deploy.js';

export const typegen: Command = {
  name: 'typegen',
  summary: "Write TypeScript row types for the schema's tables, for createClient<Tables>().",
  positionals: { min: 0, max: 1, usage: '[schemaFile]' },
  help: `Arguments:
  schemaFile        The schema to read (default: gatehouse.json's "schema", else ./gatehouse.schema.ts).

Options:
  --deployed        Read the schema deployed to the app's environment instead (needs a developer token).
  --app <id>        With --deployed: the app (default: "app" in gatehouse.json).
  --env <name>      With --deployed: the environment (default: gatehouse.json's "env", else dev).
  --out <file>      Where to write (default: gatehouse.json's "types", else ./gatehouse.types.ts);
                    '-' prints it.

The module exports one interface per table (TasksRow ...) and a Tables map:
  import type { Tables } from './gatehouse.types';
  const client = createClient<Tables>({ ... });
  const rows = await client.table('tasks').select(); // TasksRow[]
With --json: { file, tables }.
${API_ENV_HELP}`,
  options: { deployed: { type: 'boolean' }, app: { type: 'string' }, env: { type: 'string' }, out: { type: 'string' } },
  async run({ values, positionals, env, out, io }) {
    const project = loadProject(io.cwd);
    let schema: Record<string, unknown>;
    let source: string;
    if (values.deployed) {
      const appId = appOf(project, values);
      const envName = envOf(project, values);
      const api = createApiClient(env, out, { gateway: project.gateway });
      const deployed = await api.request<{ version: number; schema: Record<string, unknown> }>(
        'GET',
        `/dev/apps/${encodeURIComponent(appId)}/deployments/${encodeURIComponent(envName)}`,
      );
      schema = deployed.schema;
      source = `the schema deployed to ${appId}, env ${envName} (version ${deployed.version})`;
    } else {
      const file = positionals[0] ? path.resolve(io.cwd, positionals[0]) : project.schema;
      schema = await loadSchema(file);
      source = path.basename(file);
    }
    const { validateSchemaIR, SchemaValidationError } = await import('../../schema/index.js');
    let ir: ReturnType<typeof validateSchemaIR>;
    try {
      ir = validateSchemaIR(schema);
    } catch (error) {
      if (error instanceof SchemaValidationError) throw new CliError('invalid_schema', error.message);
      throw error;
    }
    const module = rowTypesModule(ir, source);
    const tables = Object.keys(ir.tables).sort();
    if (values.out === '-') {
      io.stdout.write(module);
      return;
    }
    const file = typeof values.out === 'string' ? path.resolve(io.cwd, values.out) : project.types;
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, module);
    out.result(
      { file, tables },
      `Wrote row types for ${tables.length} table(s) (${tables.join(', ') || 'none'}) to ${path.relative(io.cwd, file) || file}.`,
    );
  },
};
