/**
 * The first developer token while the server holds the embedded database. Minting a developer
 * token needs one, so `gatehouse dev-token create` used to open the database itself, which only
 * one process may do. A server on a DATA_DIR therefore writes a random secret beside its lock
 * (DATA_DIR/bootstrap.secret, mode 0600: readable by whoever may read the database anyway) and
 * answers `POST /dev/bootstrap/developer-token` only to a request made on this machine that sends
 * it: from a loopback address, and through no proxy that received it from anywhere else (behind a
 * local reverse proxy every request's socket is loopback).
 */
import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.js';
import { heldLock } from '../db/data-dir-lock.js';
import { isMemoryDataDir } from '../db/pglite.js';
import { fail, parseInput } from '../errors.js';
import { digestsEqual, sha256 } from '../lib/secrets.js';
import type { RequestContext } from '../http/request-context.js';
import { restError } from '../http/error-responses.js';
import { parseJsonObject } from '../http/body.js';
import { claimedAddresses, isLoopbackAddress } from '../http/client-ip.js';
import { json } from '../http/responses.js';
import { emailSchema } from '../principals/principals.service.js';
import type { Services } from '../services.js';
import type { Database } from '../db/database.js';
import { createBackup } from '../ops/backup.service.js';
import { Readable } from 'node:stream';
import { type Endpoint, defineEndpoint } from '../http/endpoint.js';

export const BOOTSTRAP_PATH = '/dev/bootstrap/developer-token';
/** The operator's top-up of a developer's wallet (`gatehouse wallet credit`), under the same guard. */
export const WALLET_CREDIT_PATH = '/dev/bootstrap/wallet-credit';
/** A backup of the embedded deployment, streamed (`gatehouse backup`, src/ops/backup.ts), under the same guard. */
export const BACKUP_PATH = '/dev/bootstrap/backup';
export const BOOTSTRAP_SECRET_FILE = 'bootstrap.secret';
export const BOOTSTRAP_SECRET_HEADER = 'x-gatehouse-bootstrap-secret';

/** The listening URL as a local client reaches it (a wildcard address is not one to connect to). */
function loopbackUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0') parsed.hostname = '127.0.0.1';
  if (parsed.hostname === '[::]') parsed.hostname = '[::1]';
  return parsed.origin;
}

export function createDevBootstrap({ services, config, database }: { services: Services; config: Config; database?: Database }) {
  let secretDigest: string | null = null;
  let secretFile: string | null = null;

  async function handle(context: RequestContext): Promise<Response> {
    const { request } = context;
    const path = context.url.pathname;
    if (!secretDigest) {
      return restError(
        fail(
          'bootstrap_unavailable',
          'This server does not run on an embedded DATA_DIR: run `gatehouse dev-token create` with its DATABASE_URL instead.',
        ),
      );
    }
    if (!claimedAddresses(context.remoteAddress, context.headers).every(isLoopbackAddress)) {
      return restError(
        fail(
          'loopback_only',
          'The developer-token bootstrap answers only requests made on the machine the server runs on, not forwarded by a proxy from elsewhere.',
        ),
      );
    }
    const sent = request.headers.get(BOOTSTRAP_SECRET_HEADER);
    if (typeof sent !== 'string' || !digestsEqual(sha256(sent), secretDigest)) {
      return restError(
        fail(
          'bootstrap_secret_mismatch',
          `Send the contents of DATA_DIR/${BOOTSTRAP_SECRET_FILE} in ${BOOTSTRAP_SECRET_HEADER} (gatehouse dev-token create does).`,
        ),
      );
    }
    try {
      if (path === BACKUP_PATH) return await backup();
      const body = parseJsonObject(await context.body());
      const email = parseInput(emailSchema, body.developer, 'body.developer');
      if (path === WALLET_CREDIT_PATH) return json(200, await services.metering.creditDeveloper(email, body.usd));
      // The one answer that carries a token: the local operator asked for it with the secret.
      return json(201, await services.principals.createDeveloperToken(email));
    } catch (error) {
      return restError(error);
    }
  }

  /** The archive as it is written: the manifest's facts in headers, the snapshot already taken. */
  async function backup(): Promise<Response> {
    if (!database) throw fail('bootstrap_unavailable', 'This server was built without its database handle: backups are unavailable.');
    const backend = config.files.backend;
    const { manifest, archive } = await createBackup({
      database,
      blobs: services.files.blobs,
      dataDir: config.dataDir,
      filesRoot: backend.kind === 'fs' ? backend.root : null,
    });
    return new Response(Readable.toWeb(archive) as ReadableStream, {
      status: 200,
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="gatehouse-backup-${manifest.createdAt.replace(/[:.]/g, '-')}.tar.gz"`,
        'x-gatehouse-backup-pause-ms': String(manifest.pauseMs),
        'cache-control': 'no-store',
      },
    });
  }

  return {
    handle,

    /** Once listening: the secret file and the server's URL in the lock, for the CLI to find. */
    async publish(url: string): Promise<void> {
      if (config.databaseUrl || isMemoryDataDir(config.dataDir)) return;
      const lock = heldLock(config.dataDir);
      if (!lock) return;
      const secret = randomBytes(32).toString('base64url');
      secretFile = path.join(lock.dataDir, BOOTSTRAP_SECRET_FILE);
      // A fresh file (mode applies on creation) renamed into place: never readable by others.
      const temporary = `${secretFile}.${process.pid}`;
      await writeFile(temporary, secret, { mode: 0o600 });
      await rename(temporary, secretFile);
      secretDigest = sha256(secret);
      await lock.update({ url: loopbackUrl(url) });
    },

    async unpublish(): Promise<void> {
      secretDigest = null;
      if (secretFile) await unlink(secretFile).catch(() => undefined);
      secretFile = null;
    },
  };
}

export type DevBootstrap = ReturnType<typeof createDevBootstrap>;

/**
 * The two bootstrap routes: for the local operator's CLI only (a loopback address and the secret
 * file), so not in the OpenAPI document. The handler checks its guards before reading the body.
 */
export const devBootstrapEndpoints: Endpoint[] = [BOOTSTRAP_PATH, WALLET_CREDIT_PATH, BACKUP_PATH].map(path =>
  defineEndpoint({
    method: 'POST',
    path,
    credential: 'none',
    bodyReading: 'handler',
    errors: [
      'bootstrap_unavailable',
      'loopback_only',
      'bootstrap_secret_mismatch',
      'invalid_json',
      ...(path === BACKUP_PATH ? (['backup_in_progress'] as const) : []),
    ],
    docs: null,
    handle: ({ context, runtime }) => runtime.devBootstrap.handle(context),
  }),
);
