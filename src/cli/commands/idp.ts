/** `gatehouse idp`: the embedded identity provider on its own port, until SIGINT or SIGTERM. */
import type { Command } from '../command.js';
import { idpConfigFrom } from '../config.js';
import { addressInUse, runUntilSignal } from '../until-signal.js';

export const idp: Command = {
  name: 'idp',
  summary: 'Start the identity and consent provider on its own port (for a gateway with OIDC_ISSUER).',
  help: `Runs the provider the gateway otherwise mounts at /idp, as a separate server that a gateway
uses as its external Hydra-compatible issuer. It shares the gateway's PostgreSQL database (apps are
its OAuth clients). Environment (the OIDC_* values are the gateway's own):
  DATABASE_URL                       required, the gateway's database
  IDP_PORT (4444), HOST (127.0.0.1)  where it listens (IDP_PORT=0: a free port the OS picks)
  IDP_ISSUER                         its public URL (default http://HOST:<the port it listens on>)
  OIDC_CONSENT_URL                   required, the gateway's consent page (https://gateway/auth/consent)
  OIDC_INTROSPECTION_CLIENT_ID, OIDC_INTROSPECTION_CLIENT_SECRET
                                     required, the gateway's client (introspection, revocation)
  OIDC_ADMIN_TOKEN                   required, bearer token of the consent admin API
  IDP_SECRET, MIGRATE_ON_START, LOG_LEVEL
The gateway then sets OIDC_ISSUER, OIDC_ADMIN_URL and OIDC_IDENTITY_URL to the issuer it prints.`,
  async run({ env, out, io }) {
    const config = idpConfigFrom(env);
    const [{ openDatabase }, { createIdentityProviderServer }] = await Promise.all([
      import('../../db/database.js'),
      import('../../identity-provider/server.js'),
    ]);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, migrate: config.migrateOnStart });
    // Without IDP_ISSUER the server derives the issuer from the port it binds (so IDP_PORT=0 works).
    const server = await createIdentityProviderServer({ ...config, issuer: env.IDP_ISSUER ? config.issuer : undefined }, database.prisma);
    const stop = async () => {
      await server.stop();
      await database.close();
    };
    let url: string;
    let issuer: string;
    try {
      ({ url, issuer } = await server.start());
    } catch (error) {
      await stop();
      throw addressInUse(error, `${config.host}:${config.port}`, 'IDP_PORT');
    }
    out.result({ url, issuer }, `Identity provider listening on ${url} (issuer ${issuer})`);
    await runUntilSignal(out, io, stop);
  },
};
