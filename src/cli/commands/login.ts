/**
 * `gatehouse login`, `logout` and `whoami`: a developer token kept per gateway in the user's config
 * directory (credentials.ts), so commands need no GATEHOUSE_DEV_TOKEN. Tokens are never printed.
 */
import type { Command, CommandContext } from '../command.js';
import { removeLogin, saveLogin } from '../credentials.js';
import { API_ENV_HELP, type TokenSource, createApiClient } from '../http.js';
import { CliError, usageError } from '../output.js';
import { loadProject } from '../project.js';
import { noteDatabaseTarget, serverUrlOf } from '../target.js';
import { databaseTargetOf, postBootstrap, withServices } from './dev-token.js';
import { configFrom } from '../config.js';

const CREDENTIALS_HELP = `Logins live in $XDG_CONFIG_HOME/gatehouse/credentials.json (else ~/.config/gatehouse/), one per
gateway URL, the file mode 0600 in a 0700 directory. GATEHOUSE_DEV_TOKEN, when set, wins over them.`;

interface Me {
  developerId: string;
  email: string;
}

/** The developer a token belongs to, asked of the server (which also proves the token works there). */
async function whoOwns(context: CommandContext, token: string, gateway: string | null): Promise<Me> {
  return createApiClient({ ...context.env, GATEHOUSE_DEV_TOKEN: token }, context.out, { gateway }).request<Me>('GET', '/dev/me');
}

/** A new developer token for `email`, made the way `gatehouse dev-token create` makes one. */
async function mintToken({ env, out }: CommandContext, email: string): Promise<string> {
  const { emailSchema } = await import('../../principals/principals.service.js');
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw usageError(`--developer ${parsed.error.issues[0].message}.`);
  const config = configFrom(env);
  const target = await databaseTargetOf(config, env);
  let created: { token: string; email: string };
  if (target.kind === 'server') {
    const { BOOTSTRAP_PATH } = await import('../../apps/dev-bootstrap.routes.js');
    created = await postBootstrap(target, BOOTSTRAP_PATH, { developer: parsed.data });
  } else created = await withServices(config, services => services.principals.createDeveloperToken(parsed.data));
  noteDatabaseTarget(out, target, env, `developer token for ${created.email} created`);
  return created.token;
}

export const login: Command = {
  name: 'login',
  summary: 'Keep a developer token for this gateway, so commands need no GATEHOUSE_DEV_TOKEN.',
  help: `Where the token comes from (one of):
  --developer <email>   Create one as 'gatehouse dev-token create' does (the server's DATA_DIR or
                        DATABASE_URL: run it where the server runs).
  --token-stdin         Read it from standard input: echo "$TOKEN" | gatehouse login --token-stdin
  (neither)             GATEHOUSE_DEV_TOKEN when set; else it asks on the terminal.

The token is checked against the server (GET /dev/me) before it is stored, and never printed.
${CREDENTIALS_HELP}
With --json: { gateway, developerId, email, file }.
${API_ENV_HELP}`,
  options: { developer: { type: 'string' }, 'token-stdin': { type: 'boolean' } },
  async run(context) {
    const { values, env, out, io } = context;
    const project = loadProject(io.cwd);
    const server = serverUrlOf(env, project.gateway);
    let token: string | null | undefined;
    if (typeof values.developer === 'string') token = await mintToken(context, values.developer.trim());
    else if (values['token-stdin']) token = (await io.readStdin()).trim();
    else token = env.GATEHOUSE_DEV_TOKEN?.trim() || (await io.ask(`Developer token for ${server.url}: `))?.trim();
    if (!token) {
      throw usageError('no developer token: pass --developer <email>, pipe one with --token-stdin, or set GATEHOUSE_DEV_TOKEN.');
    }
    const me = await whoOwns(context, token, project.gateway);
    const file = saveLogin(env, server.url, { token, developerId: me.developerId, email: me.email });
    out.result(
      { gateway: server.url, developerId: me.developerId, email: me.email, file },
      `Logged in to ${server.url} as ${me.email} (${me.developerId}); token kept in ${file}.`,
    );
  },
};

export const logout: Command = {
  name: 'logout',
  summary: 'Forget the developer token kept for this gateway.',
  help: `Removes the login 'gatehouse login' stored for the gateway (GATEHOUSE_URL, else gatehouse.json's
"gateway", else the default). The token itself stays valid on the server.
${CREDENTIALS_HELP}
With --json: { gateway, removed, file }.`,
  async run({ env, out, io }) {
    const server = serverUrlOf(env, loadProject(io.cwd).gateway);
    const { file, removed } = removeLogin(env, server.url);
    const lines = [removed ? `Logged out of ${server.url} (removed from ${file}).` : `Not logged in to ${server.url}; nothing to remove.`];
    if (env.GATEHOUSE_DEV_TOKEN?.trim()) lines.push('GATEHOUSE_DEV_TOKEN is still set in this environment: commands keep using it.');
    out.result({ gateway: server.url, removed, file }, lines);
  },
};

const describeSource = (source: TokenSource) => (source.kind === 'env' ? 'GATEHOUSE_DEV_TOKEN' : `the login stored in ${source.file}`);

export const whoami: Command = {
  name: 'whoami',
  summary: 'Say which gateway the commands talk to, as which developer, and where the token came from.',
  help: `Asks the server who the developer token belongs to (GET /dev/me); the token is never printed.
With --json: { gateway, gatewaySource, developerId, email, tokenSource, credentialsFile? }.
${API_ENV_HELP}`,
  async run({ env, out, io }) {
    const project = loadProject(io.cwd);
    const api = createApiClient(env, out, { gateway: project.gateway });
    const me = await api.request<Me>('GET', '/dev/me');
    const source = api.tokenSource;
    if (source.kind === 'login' && source.developerId !== me.developerId) {
      throw new CliError(
        'login_mismatch',
        `${source.file} says ${source.email}, but the server says the token is ${me.email}'s: run gatehouse login again.`,
      );
    }
    out.result(
      {
        gateway: api.server.url,
        gatewaySource: api.server.source,
        developerId: me.developerId,
        email: me.email,
        tokenSource: source.kind === 'env' ? 'GATEHOUSE_DEV_TOKEN' : 'login',
        ...(source.kind === 'login' ? { credentialsFile: source.file } : {}),
      },
      [
        `Gateway:   ${api.server.url} (${api.server.source === 'default' ? 'the default' : api.server.source})`,
        `Developer: ${me.email} (${me.developerId})`,
        `Token:     from ${describeSource(source)}`,
      ],
    );
  },
};
