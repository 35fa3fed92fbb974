/** `gatehouse init`: scaffolds a project: gatehouse.json, a starter schema and a page that signs in and shows live rows. */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.js';
import { createApiClient, developerToken } from '../http.js';
import { CliError } from '../output.js';
import { DEFAULT_ENV, DEFAULT_SCHEMA, DEFAULT_SITE, PROJECT_FILE, type ProjectFile } from '../project.js';
import { serverUrlOf } from '../target.js';
import { STARTER_SCHEMA, starterPage } from '../templates/starter.js';

export const init: Command = {
  name: 'init',
  summary: 'Start a project: gatehouse.json, a starter schema and a page that signs in and shows live data.',
  positionals: { min: 0, max: 1, usage: '[dir]' },
  help: `Arguments:
  dir               Where to write (default: the current directory; made if missing).

Options:
  --app <id>        The app the project deploys to (see 'gatehouse apps create'); without it,
                    set "app" in ${PROJECT_FILE} later or pass --app to each command.
  --env <name>      The environment commands use by default (default: ${DEFAULT_ENV}).
  --gateway <url>   The gateway's URL, kept as "gateway" (default: GATEHOUSE_URL when set).
  --force           Overwrite files that exist (otherwise init refuses and writes nothing).

Writes ${PROJECT_FILE}, ${DEFAULT_SCHEMA} and ${DEFAULT_SITE}/index.html. With --app and a developer token
(GATEHOUSE_DEV_TOKEN or 'gatehouse login'), the page gets the app's OAuth client id from the server.
With --json: { dir, files, project }.`,
  options: { app: { type: 'string' }, env: { type: 'string' }, gateway: { type: 'string' }, force: { type: 'boolean' } },
  async run({ values, positionals, env, out, io }) {
    const dir = path.resolve(io.cwd, positionals[0] ?? '.');
    const gateway = (typeof values.gateway === 'string' ? values.gateway : env.GATEHOUSE_URL)?.trim().replace(/\/+$/, '') || undefined;
    if (gateway && !URL.canParse(gateway)) throw new CliError('usage', `--gateway is not a URL: ${gateway}`, 2);
    const project: ProjectFile = {
      ...(typeof values.app === 'string' ? { app: values.app.trim() } : {}),
      env: typeof values.env === 'string' ? values.env.trim() : DEFAULT_ENV,
      schema: DEFAULT_SCHEMA,
      site: DEFAULT_SITE,
      ...(gateway ? { gateway } : {}),
    };
    const page = path.join(DEFAULT_SITE, 'index.html');
    // Refused before anything else (the server is not asked): existing files are never overwritten unasked.
    const taken = [PROJECT_FILE, DEFAULT_SCHEMA, page].filter(file => existsSync(path.join(dir, file)));
    if (taken.length && !values.force) {
      throw new CliError(
        'files_exist',
        `${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dir}: nothing was written. Run again with --force to overwrite.`,
      );
    }
    const clientId = project.app ? await clientIdOf(project.app, gateway, env, out) : '';
    const files: Record<string, string> = {
      [PROJECT_FILE]: `${JSON.stringify(project, null, 2)}\n`,
      [DEFAULT_SCHEMA]: STARTER_SCHEMA,
      [page]: starterPage(gateway ?? '', clientId),
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const next = project.app
      ? ['Next: gatehouse deploy --create-env   (then open site/index.html from a registered origin, or gatehouse publish)']
      : ['Next: gatehouse apps create <name>, put its id in gatehouse.json as "app", then gatehouse deploy --create-env'];
    out.result({ dir, files: Object.keys(files), project }, [`Wrote ${Object.keys(files).join(', ')} in ${dir}.`, ...next]);
  },
};

/** The app's first OAuth client id, when a token can ask the server; '' (with a note) otherwise. */
async function clientIdOf(appId: string, gateway: string | undefined, env: NodeJS.ProcessEnv, out: Parameters<Command['run']>[0]['out']) {
  if (!developerToken(env, serverUrlOf(env, gateway))) {
    out.note('gatehouse: no developer token, so the page has no client id yet: fill CLIENT_ID in site/index.html.');
    return '';
  }
  try {
    const { apps } = await createApiClient(env, out, { gateway }).request<{ apps: { id: string; clientIds: string[] }[] }>('GET', '/dev/apps');
    const app = apps.find(a => a.id === appId);
    if (!app) throw new CliError('app_not_found', `No app ${appId} among yours (gatehouse apps list shows them).`);
    return app.clientIds[0] ?? '';
  } catch (error) {
    if (error instanceof CliError && error.code === 'app_not_found') throw error;
    out.note(`gatehouse: could not read the app's client id (${(error as Error).message}); fill CLIENT_ID in site/index.html.`);
    return '';
  }
}
