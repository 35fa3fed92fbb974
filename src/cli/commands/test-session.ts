/** `gatehouse test-session`: mints a test user's token (docs/api.md §3.1). */
import { type Command, requireString } from '../command.js';
import { API_ENV_HELP, createApiClient } from '../http.js';

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
  --app <id>        The app (required; you must own it).
  --user <name>     The test user's name (required). Minting the same name again returns the same
                    user with a fresh token.
  --env <name>      A deployed non-production environment (default: dev).

Prints only the token, so it can be captured: TOKEN=$(gatehouse test-session --app ... --user alice).
With --json: { user_id, token, expires_at, payer, env }.
${API_ENV_HELP}`,
  options: { app: { type: 'string' }, user: { type: 'string' }, env: { type: 'string', default: 'dev' } },
  async run({ values, env, out }) {
    const appId = requireString(values, 'app');
    const body = { name: requireString(values, 'user'), env: requireString(values, 'env') };
    const session = await createApiClient(env, out).request<TestSession>('POST', `/dev/apps/${encodeURIComponent(appId)}/test-users`, body);
    out.result(session, session.token);
  },
};
