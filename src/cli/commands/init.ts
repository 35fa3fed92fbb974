/** `gatehouse init`: scaffolds a project: gatehouse.json, a starter schema and a page that signs in and shows live rows. */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from '../command.js';
import { CliError } from '../output.js';
import { DEFAULT_ENV, DEFAULT_SCHEMA, DEFAULT_SITE, PROJECT_FILE, type ProjectFile } from '../project.js';
import { STARTER_PAGE, STARTER_SCHEMA, STARTER_SCRIPT } from '../templates/starter.js';

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

Writes ${PROJECT_FILE}, ${DEFAULT_SCHEMA}, ${DEFAULT_SITE}/index.html and ${DEFAULT_SITE}/app.js. The page
runs where 'gatehouse dev' or 'gatehouse publish' serves it: that origin tells the SDK its gateway
and client id, so nothing in it names them. With --json: { dir, files, project }.`,
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
    const files: Record<string, string> = {
      [PROJECT_FILE]: `${JSON.stringify(project, null, 2)}\n`,
      [DEFAULT_SCHEMA]: STARTER_SCHEMA,
      [path.join(DEFAULT_SITE, 'index.html')]: STARTER_PAGE,
      [path.join(DEFAULT_SITE, 'app.js')]: STARTER_SCRIPT,
    };
    // Existing files are never overwritten unasked.
    const taken = Object.keys(files).filter(file => existsSync(path.join(dir, file)));
    if (taken.length && !values.force) {
      throw new CliError(
        'files_exist',
        `${taken.join(', ')} already exist${taken.length === 1 ? 's' : ''} in ${dir}: nothing was written. Run again with --force to overwrite.`,
      );
    }
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const next = project.app
      ? ['Next: gatehouse deploy --create-env, then gatehouse dev (the page at http://localhost:5180), or gatehouse publish']
      : ['Next: gatehouse apps create <name>, put its id in gatehouse.json as "app", then gatehouse deploy --create-env'];
    out.result({ dir, files: Object.keys(files), project }, [`Wrote ${Object.keys(files).join(', ')} in ${dir}.`, ...next]);
  },
};
