/** `gatehouse apps create` and `gatehouse apps list`, over the server's /dev/apps API. */
import type { Command } from '../command.js';
import { API_ENV_HELP, createApiClient } from '../http.js';

interface AppRow {
  id: string;
  name: string;
  origins: string[];
  clientIds: string[];
  environments: string[];
  createdAt: string;
}

export const appsCreate: Command = {
  name: 'apps create',
  summary: 'Register a new app owned by the developer.',
  positionals: { min: 1, max: 1, usage: '<name>' },
  help: `Options:
  --origin <url>         A browser origin allowed to call the gateway (repeatable).
  --redirect-uri <url>   An OAuth redirect URI for the app's client (repeatable).

Prints the app id and client id; with --json, the app as the server returns it.
${API_ENV_HELP}`,
  options: {
    origin: { type: 'string', multiple: true },
    'redirect-uri': { type: 'string', multiple: true },
  },
  async run({ values, positionals, env, out }) {
    const api = createApiClient(env, out);
    const app = await api.request<AppRow>('POST', '/dev/apps', {
      name: positionals[0],
      origins: values.origin,
      redirectUris: values['redirect-uri'],
    });
    out.result(app, [`Created app ${JSON.stringify(app.name)}: ${app.id}`, ...describe(app)]);
  },
};

export const appsList: Command = {
  name: 'apps list',
  summary: "List the developer's apps.",
  help: `Prints one app per line; with --json, { apps: [...] }.
${API_ENV_HELP}`,
  async run({ env, out }) {
    const { apps } = await createApiClient(env, out).request<{ apps: AppRow[] }>('GET', '/dev/apps');
    const lines = apps.map(app => `${app.id}  ${app.name}  envs: ${app.environments.join(', ') || '(none deployed)'}`);
    out.result({ apps }, lines.length ? lines : 'No apps yet. Create one with: gatehouse apps create <name>');
  },
};

function describe(app: AppRow): string[] {
  return [`  client ids: ${app.clientIds.join(', ') || '(none)'}`, `  origins:    ${app.origins.join(', ') || '(none)'}`];
}
