/**
 * `gatehouse dev [dir]`: serves a directory (or fronts a dev server with --proxy) as the app's
 * origin on this machine, with the gateway's /_osg and /_invite routes on the same origin: sign-in,
 * live data, invite links and `createClient()` with no options work as on the hosted origin,
 * without publishing. Registers the local origin for the app (POST /dev/apps/:appId/origins).
 */
import path from 'node:path';
import { APP_TARGET_HELP, APP_TARGET_OPTIONS, resolveAppTarget } from '../app-target.js';
import type { Command } from '../command.js';
import { startDevServer } from '../dev-server.js';
import { loadProject } from '../project.js';
import { API_ENV_HELP, createApiClient } from '../http.js';
import { usageError } from '../output.js';
import { addressInUse, runUntilSignal } from '../until-signal.js';

export const DEFAULT_DEV_PORT = 5180;

export const dev: Command = {
  name: 'dev',
  summary: "Serve a directory (or a dev server) as the app's origin locally, with /_osg and sign-in.",
  positionals: { min: 0, max: 1, usage: '[dir]' },
  help: `Arguments:
  dir               The site to serve (default: the current directory), read fresh on every request.

Options:
${APP_TARGET_HELP}
  --port <n>        The local port (default ${DEFAULT_DEV_PORT}); the origin is http://localhost:<port>.
  --proxy <url>     Front a dev server (Vite, Next) instead of serving dir: every path but /_osg/* and
                    /_invite/* goes there, WebSockets included.
  --spa             Paths that name no file answer /index.html.

/_osg/* and /_invite/* go to the gateway as this origin, which is registered for the app first
(once; a gateway of several instances may take up to 30 s to let it sign in everywhere). Prints the origin; stops on
SIGINT or SIGTERM. The page's environment is the gateway's (GATEWAY_ENV).
${API_ENV_HELP}`,
  options: { ...APP_TARGET_OPTIONS, port: { type: 'string' }, proxy: { type: 'string' }, spa: { type: 'boolean' } },
  async run({ values, positionals, env, out, io }) {
    const project = loadProject(io.cwd);
    const target = resolveAppTarget(values, project);
    const port = values.port === undefined ? DEFAULT_DEV_PORT : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError('--port takes a port number.');
    const proxy = typeof values.proxy === 'string' ? values.proxy : undefined;
    if (proxy !== undefined && !/^http:\/\//.test(proxy)) throw usageError('--proxy takes an http:// URL, e.g. http://localhost:5173.');
    if (proxy !== undefined && positionals[0]) throw usageError('give a directory or --proxy, not both.');
    const api = createApiClient(env, out, { gateway: project.gateway });
    // The directory: the argument, else gatehouse.json's "site", else the working directory.
    const siteDir = positionals[0] ? path.resolve(io.cwd, positionals[0]) : project.file ? project.site : io.cwd;
    const server = await startDevServer({
      gateway: api.url,
      dir: proxy ? undefined : siteDir,
      proxy,
      spa: values.spa === true,
      port,
    }).catch(error => {
      throw addressInUse(error, `Port ${port}`, '--port');
    });
    try {
      const app = await api.request<{ added: boolean }>('POST', `/dev/apps/${encodeURIComponent(target.appId)}/origins`, { origin: server.origin });
      if (app.added) out.note(`gatehouse: registered ${server.origin} as an origin of app ${target.appId}.`);
    } catch (error) {
      await server.close();
      throw error;
    }
    out.result({ origin: server.origin, appId: target.appId, proxy: proxy ?? null }, [
      `${server.origin}  app ${target.appId}: ${proxy ? `fronting ${proxy}` : `serving ${path.relative(io.cwd, siteDir) || '.'}`}, /_osg and /_invite from ${api.url}`,
    ]);
    await runUntilSignal(out, io, () => server.close());
  },
};
