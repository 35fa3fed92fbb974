/** `gatehouse test-session`: mints a test user's token (docs/api.md §3.1). */
import { type Command, requireString } from '../command.js';
import { API_ENV_HELP, createApiClient } from '../http.js';
import { appOf, envOf, loadProject } from '../project.js';

interface TestSession {
  user_id: string;
  token: string;
  expires_at: string;
  payer: string;
  env: string;
}

export const testSession: Command = {
  name: 'test-session',
  summary: 'Mint a test user token for end-to-end tests (24 hours; same name, same user).',
  help: `Options:
  --app <id>        The app (default: "app" in gatehouse.json; you must own it).
  --user <name>     The test user's name (required). Minting the same name again returns the same
                    user with a fresh token.
  --env <name>      A deployed non-production environment (default: gatehouse.json's "env", else dev).

Prints only the token, so it can be captured: TOKEN=$(gatehouse test-session --app ... --user alice).
With --json: { user_id, token, expires_at, payer, env }.
${API_ENV_HELP}`,
  options: { app: { type: 'string' }, user: { type: 'string' }, env: { type: 'string' } },
  async run({ values, env, out, io }) {
    const project = loadProject(io.cwd);
    const appId = appOf(project, values);
    const body = { name: requireString(values, 'user'), env: envOf(project, values) };
    const session = await createApiClient(env, out, { gateway: project.gateway }).request<TestSession>(
      'POST',
      `/dev/apps/${encodeURIComponent(appId)}/test-users`,
      body,
    );
    out.result(session, session.token);
  },
};
