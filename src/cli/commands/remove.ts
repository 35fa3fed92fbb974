/**
 * Undo (docs/api.md §3.2): `gatehouse apps delete`, `gatehouse env delete`, `gatehouse env reset`.
 * Each asks a person to type the name of what goes (or takes --yes); prod takes --confirm-prod too.
 */
import type { Command, CommandContext } from '../command.js';
import { API_ENV_HELP, createApiClient } from '../http.js';
import { CliError, usageError } from '../output.js';
import { appOf, loadProject } from '../project.js';
import type { Removal } from '../../apps/app-removal.service.js';

const OPTIONS_HELP = `  --yes             Do not ask (needed where no one can answer: scripts, CI).
  --confirm-prod    Required on top when prod is removed: its data cannot come back.`;

/** Goes ahead with --yes, or when a person types `name` back; otherwise stops with nothing removed. */
async function confirm({ values, io }: CommandContext, what: string, name: string): Promise<void> {
  if (values.yes) return;
  const answer = await io.ask(`${what}\nThis cannot be undone. Type ${JSON.stringify(name)} to confirm: `);
  if (answer === null) throw usageError(`${what.split('\n')[0]} Pass --yes to confirm (no terminal to ask on).`);
  if (answer.trim() !== name) throw new CliError('not_confirmed', 'Not confirmed: nothing was removed.');
}

const summary = (r: Removal) => `${r.rows} row(s), ${r.files} file(s), ${r.resources} resource(s) and ${r.testUsers} test user(s) removed`;

const query = (values: CommandContext['values']) => (values['confirm-prod'] ? '?confirm=prod' : '');

function refuseProdWithoutFlag(values: CommandContext['values'], touchesProd: boolean, what: string): void {
  if (touchesProd && !values['confirm-prod']) throw usageError(`${what} includes prod: add --confirm-prod (and make sure).`);
}

const removalOptions = { yes: { type: 'boolean' }, 'confirm-prod': { type: 'boolean' } } as const;

export const appsDelete: Command = {
  name: 'apps delete',
  summary: 'Delete an app with every environment, its data, test users, origins and OAuth clients.',
  positionals: { min: 1, max: 1, usage: '<app>' },
  help: `Options:
${OPTIONS_HELP}

Asks you to type the app id (unless --yes). With --json: { appId, environments, rows, files, resources, testUsers }.
${API_ENV_HELP}`,
  options: removalOptions,
  async run(context) {
    const { positionals, env, out, io, values } = context;
    const appId = positionals[0];
    const api = createApiClient(env, out, { gateway: loadProject(io.cwd).gateway });
    const { apps } = await api.request<{ apps: { id: string; name: string; environments: string[] }[] }>('GET', '/dev/apps');
    const app = apps.find(a => a.id === appId);
    // Unknown or not yours: the server's own 404 says so.
    if (app) {
      refuseProdWithoutFlag(values, app.environments.includes('prod'), `App ${appId}`);
      const envs = app.environments.length ? app.environments.join(', ') : 'none';
      await confirm(context, `Delete app ${JSON.stringify(app.name)} (${appId}) and its environments (${envs}) with all their data?`, appId);
    }
    const removed = await api.request<Removal>('DELETE', `/dev/apps/${encodeURIComponent(appId)}${query(values)}`);
    out.result(removed, `Deleted app ${appId} (environments: ${removed.environments.join(', ') || 'none'}): ${summary(removed)}.`);
  },
};

function envCommand(kind: 'delete' | 'reset'): Command {
  const verb = kind === 'delete' ? 'Delete' : 'Reset';
  return {
    name: `env ${kind}`,
    summary:
      kind === 'delete'
        ? "Delete one of an app's environments: its deployment, rows, files, resources and test users."
        : "Empty one of an app's environments (rows, files, resources, test users); its schema stays deployed.",
    positionals: { min: 1, max: 1, usage: '<env>' },
    help: `Options:
  --app <id>        The app (default: "app" in gatehouse.json).
${OPTIONS_HELP}

Asks you to type the environment's name (unless --yes). Other environments and apps are untouched.
With --json: { appId, environments, rows, files, resources, testUsers }.
${API_ENV_HELP}`,
    options: { app: { type: 'string' }, ...removalOptions },
    async run(context) {
      const { positionals, env, out, io, values } = context;
      const project = loadProject(io.cwd);
      const appId = appOf(project, values);
      const envName = positionals[0].trim();
      refuseProdWithoutFlag(values, envName === 'prod', `Environment ${envName}`);
      const api = createApiClient(env, out, { gateway: project.gateway });
      const what =
        kind === 'delete'
          ? `Delete environment ${JSON.stringify(envName)} of app ${appId}: its deployment, rows, files, resources and test users?`
          : `Reset environment ${JSON.stringify(envName)} of app ${appId}: delete its rows, files, resources and test users (the schema stays)?`;
      await confirm(context, what, envName);
      const path = `/dev/apps/${encodeURIComponent(appId)}/environments/${encodeURIComponent(envName)}`;
      const removed =
        kind === 'delete'
          ? await api.request<Removal>('DELETE', `${path}${query(values)}`)
          : await api.request<Removal>('POST', `${path}/reset${query(values)}`);
      out.result(removed, `${verb === 'Delete' ? 'Deleted' : 'Reset'} environment ${envName} of app ${appId}: ${summary(removed)}.`);
    },
  };
}

export const envDelete = envCommand('delete');
export const envReset = envCommand('reset');
