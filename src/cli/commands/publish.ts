/**
 * `gatehouse publish <dir>`: uploads a directory as a new immutable version of the app's site and
 * serves it on the app's hosted origin (docs/api.md §15). Only files the environment does not hold
 * yet are sent (content-addressed by SHA-256). `--list` shows the versions, `--rollback` serves the
 * one before, `--to <n>` a given one.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { APP_TARGET_HELP, APP_TARGET_OPTIONS, resolveAppTarget, sitePath } from '../app-target.js';
import type { Command } from '../command.js';
import type { SiteVersionView } from '../../hosting/sites.service.js';
import { loadProject } from '../project.js';
import { API_ENV_HELP, type ApiClient, createApiClient } from '../http.js';
import { CliError, usageError } from '../output.js';

type Version = SiteVersionView;

/** Uploads at once: enough to hide latency, few enough not to crowd the server. */
const UPLOADS_AT_ONCE = 4;

export const publish: Command = {
  name: 'publish',
  summary: "Publish a directory as the app's static site on its hosted origin (or list, roll back).",
  positionals: { min: 0, max: 1, usage: '[dir]' },
  help: `Arguments:
  dir               The built site, index.html at its root (default: "site" in gatehouse.json). Dot files are skipped, but .well-known.

Options:
${APP_TARGET_HELP}
  --spa             A single-page app: paths that name no file answer /index.html.
  --list            Show the environment's versions instead (the served one is marked).
  --rollback        Serve the version before the served one again.
  --to <n>          Serve version n.

Every publish is a new immutable version; switching to it is atomic. Files already uploaded (in
any version) are not sent again. The site is served on every origin registered for the app, from
the environment the gateway signs in to (GATEWAY_ENV, default prod); GET /_osg/config.json there
tells the page its gateway.
${API_ENV_HELP}`,
  options: { ...APP_TARGET_OPTIONS, spa: { type: 'boolean' }, list: { type: 'boolean' }, rollback: { type: 'boolean' }, to: { type: 'string' } },
  async run({ values, positionals, env, out, io }) {
    const project = loadProject(io.cwd);
    const target = resolveAppTarget(values, project);
    const api = createApiClient(env, out, { gateway: project.gateway });
    const base = sitePath(target);
    if (values.list) {
      const listed = await api.request<{ active: number | null; versions: Version[] }>('GET', `${base}/versions`);
      out.result(listed, [
        `Site versions of app ${target.appId}, env ${target.env}${listed.versions.length ? '' : ': none yet (gatehouse publish <dir>)'}`,
        ...listed.versions.map(
          v => `${v.active ? '*' : ' '} ${String(v.number).padStart(4)}  ${v.createdAt}  ${v.files} files, ${v.bytes} bytes${v.spa ? ', spa' : ''}`,
        ),
      ]);
      return;
    }
    if (values.rollback || values.to !== undefined) {
      const version = values.to === undefined ? undefined : Number(values.to);
      if (version !== undefined && !(Number.isInteger(version) && version > 0)) throw usageError('--to takes a version number (see --list).');
      const active = await api.request<Version>('POST', `${base}/activate`, version === undefined ? {} : { version });
      out.result(active, `Serving version ${active.number} of app ${target.appId}, env ${target.env} (${active.files} files).`);
      return;
    }
    // The site directory: the argument, else gatehouse.json's "site" when there is a project file.
    if (!positionals[0] && !project.file) throw usageError('missing argument [dir] (or --list, --rollback).');
    const dir = positionals[0] ? path.resolve(io.cwd, positionals[0]) : project.site;
    const files = await siteFiles(dir);
    if (!files.size) throw new CliError('empty_site', `${dir} holds no files to publish.`);
    if (!files.has('index.html')) out.note(`gatehouse: ${dir} has no index.html: its origin's / will answer 404.`);
    const { missing } = await api.request<{ missing: string[] }>('POST', `${base}/missing`, { sha256: [...new Set(files.values())] });
    const byHash = new Map([...files].map(([file, sha]) => [sha, file]));
    const sent = await uploadAll(
      api,
      base,
      dir,
      missing.map(sha => ({ sha, file: byHash.get(sha)! })),
    );
    const version = await api.request<Version>('POST', `${base}/versions`, { files: Object.fromEntries(files), spa: values.spa === true });
    out.result({ ...version, uploaded: missing.length, uploadedBytes: sent }, [
      `Published version ${version.number} of app ${target.appId}, env ${target.env}: ${version.files} files, ${version.bytes} bytes (${missing.length} uploaded, ${version.files - missing.length} unchanged).`,
      `  Served now on the app's origins; roll back with: gatehouse publish --rollback --app ${target.appId} --env ${target.env}`,
    ]);
  },
};

/** Every file under `dir` by its site path (`/`-separated), with the SHA-256 of its bytes. */
async function siteFiles(dir: string): Promise<Map<string, string>> {
  if (!(await stat(dir).catch(() => null))?.isDirectory()) throw usageError(`not a directory: ${dir}`);
  const files = new Map<string, string>();
  async function walk(relative: string) {
    for (const entry of await readdir(path.join(dir, relative), { withFileTypes: true })) {
      if (entry.name.startsWith('.') && entry.name !== '.well-known') continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      const full = path.join(dir, child);
      const info = await stat(full);
      if (info.isDirectory()) await walk(child);
      else if (info.isFile())
        files.set(
          child,
          createHash('sha256')
            .update(await readFile(full))
            .digest('hex'),
        );
    }
  }
  await walk('');
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Uploads the files a few at a time; answers the bytes sent. */
async function uploadAll(api: ApiClient, base: string, dir: string, queue: { sha: string; file: string }[]): Promise<number> {
  let sent = 0;
  const next = async (): Promise<void> => {
    const item = queue.shift();
    if (!item) return;
    const bytes = await readFile(path.join(dir, item.file));
    await api.upload('PUT', `${base}/files/${item.sha}`, bytes);
    sent += bytes.length;
    return next();
  };
  await Promise.all(Array.from({ length: UPLOADS_AT_ONCE }, next));
  return sent;
}
