/**
 * Publishing static sites (docs/api.md §15): a developer uploads a site's files into the blob store,
 * content-addressed per environment (a file's bytes are stored once, however many versions name
 * them), then publishes a version, an immutable `{ path: sha256 }` manifest, which becomes the one
 * the environment's hosted origin serves in the same transaction (a single row update: a visitor
 * sees the old version or the new one, never a mix). Rolling back activates an older version.
 *
 * Serving lives in site-serving.service.ts; the rules (paths, types, caching) in sites.rules.ts.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { appNotFound, envNameSchema } from '../apps/apps.rules.js';
import type { Bound } from '../core/bind-deps.js';
import type { ServiceDeps } from '../core/deps.js';
import { fail, parseInput } from '../errors.js';
import { newId } from '../lib/secrets.js';
import type { BlobStore } from '../storage/index.js';
import type { SiteCache } from './site-serving.service.js';
import { contentTypeOf } from '../lib/content-types.js';
import { MAX_SITE_FILES, type SiteFile, isSha256, sitePath } from './sites.rules.js';

export type SiteDeps = Pick<ServiceDeps, 'prisma' | 'transaction' | 'config' | 'now'> & { blobs: BlobStore; siteCache: SiteCache };

/** A file of a stored version: what is served, and where its bytes are. */
export interface StoredSiteFile extends SiteFile {
  key: string;
}

/** Where site bytes live in the blob store: beside files' keys, under their own prefix (the sweep tells them apart). */
export const SITE_KEY_PREFIX = 'site';

export const publishInput = z.strictObject({
  files: z
    .record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, 'must be the lower-case hex SHA-256 of the file'))
    .refine(files => Object.keys(files).length > 0, 'must name at least one file')
    .refine(files => Object.keys(files).length <= MAX_SITE_FILES, `at most ${MAX_SITE_FILES} files`),
  spa: z.boolean().optional(),
});

export interface SiteVersionView {
  number: number;
  id: string;
  files: number;
  bytes: number;
  spa: boolean;
  active: boolean;
  createdAt: string;
}

/** The developer's deployed environment of an app: 404 for another's app, 409 for an environment never deployed. */
async function ownedDeployment(deps: Pick<ServiceDeps, 'prisma'>, developerId: string, appId: string, env: string) {
  const envName = parseInput(envNameSchema, env, 'env');
  const app = await deps.prisma.app.findUnique({ where: { id: appId }, select: { developerId: true } });
  if (!app || app.developerId !== developerId) throw appNotFound(appId);
  const deployment = await deps.prisma.deployment.findUnique({ where: { appId_env: { appId, env: envName } }, select: { id: true } });
  if (!deployment) {
    throw fail('env_not_deployed', `App ${appId} has no '${envName}' environment: deploy a schema to it first (gatehouse deploy --env ${envName}).`);
  }
  return { id: deployment.id, appId, env: envName };
}

/** Which of these file hashes the environment does not hold yet (what `gatehouse publish` must upload). */
export async function missingFiles(deps: SiteDeps, developerId: string, appId: string, env: string, hashes: unknown): Promise<{ missing: string[] }> {
  const wanted = parseInput(z.array(z.string().regex(/^[0-9a-f]{64}$/)).max(MAX_SITE_FILES), hashes, 'sha256');
  const deployment = await ownedDeployment(deps, developerId, appId, env);
  const held = await deps.prisma.siteBlob.findMany({ where: { deploymentId: deployment.id, sha256: { in: wanted } }, select: { sha256: true } });
  const have = new Set(held.map(b => b.sha256));
  return { missing: [...new Set(wanted)].filter(h => !have.has(h)) };
}

/**
 * Stores one file's bytes under their SHA-256: streamed into a fresh blob key, checked against the
 * hash the URL names (400 `site_file_mismatch`, nothing kept), then recorded. Bytes the
 * environment already holds are not read again.
 */
export async function storeFile(
  deps: SiteDeps,
  developerId: string,
  appId: string,
  env: string,
  sha256: string,
  input: { body: AsyncIterable<Uint8Array>; contentLength: number | null; signal?: AbortSignal },
): Promise<{ sha256: string; size: number; stored: boolean }> {
  if (!isSha256(sha256)) throw fail('invalid_site', 'path.sha256: must be the lower-case hex SHA-256 of the file.');
  const deployment = await ownedDeployment(deps, developerId, appId, env);
  const held = await deps.prisma.siteBlob.findUnique({ where: { deploymentId_sha256: { deploymentId: deployment.id, sha256 } } });
  if (held) return { sha256, size: Number(held.size), stored: false };
  const maxBytes = deps.config.files.maxFileBytes;
  if (input.contentLength !== null && input.contentLength > maxBytes) throw fail('file_too_large', `A site file may hold at most ${maxBytes} bytes.`);
  // A fresh key per upload: two uploads of the same bytes never write one key twice.
  const key = `${SITE_KEY_PREFIX}/${deployment.id}/${sha256}-${randomBytes(6).toString('hex')}`;
  const stored = await deps.blobs.put(key, input.body, { maxBytes, contentType: 'application/octet-stream', signal: input.signal });
  if (stored.sha256 !== sha256) {
    await deps.blobs.delete([key]);
    throw fail('site_file_mismatch', `The bytes sent hash to ${stored.sha256}, not ${sha256}: nothing was stored.`);
  }
  const created = await deps.prisma.siteBlob.createMany({
    data: [{ deploymentId: deployment.id, sha256, size: BigInt(stored.size), blobKey: key, createdAt: deps.now() }],
    skipDuplicates: true,
  });
  // The same bytes arrived at the same time: theirs are kept, ours are not needed.
  if (created.count === 0) await deps.blobs.delete([key]);
  return { sha256, size: stored.size, stored: created.count === 1 };
}

/** Publishes a version from files already uploaded and makes it the one served, in one transaction. */
export async function publish(deps: SiteDeps, developerId: string, appId: string, env: string, input: unknown): Promise<SiteVersionView> {
  const { files, spa = false } = parseInput(publishInput, input);
  const deployment = await ownedDeployment(deps, developerId, appId, env);
  const paths = Object.keys(files).map(raw => [sitePath(raw), files[raw]] as const);
  const hashes = [...new Set(paths.map(([, sha]) => sha))];
  const blobs = await deps.prisma.siteBlob.findMany({ where: { deploymentId: deployment.id, sha256: { in: hashes } } });
  const bySha = new Map(blobs.map(b => [b.sha256, b]));
  const missing = hashes.filter(h => !bySha.has(h));
  if (missing.length) {
    throw fail('site_files_missing', `${missing.length} file(s) of this version are not uploaded yet: PUT them first.`, { missing });
  }
  // fromEntries defines own properties: a path such as `__proto__` is a file like any other.
  const manifest: Record<string, StoredSiteFile> = Object.fromEntries(
    paths.map(([path, sha256]) => {
      const blob = bySha.get(sha256)!;
      return [path, { sha256, size: Number(blob.size), type: contentTypeOf(path), key: blob.blobKey }];
    }),
  );
  const bytes = Object.values(manifest).reduce((sum, file) => sum + file.size, 0);
  const now = deps.now();
  const version = await deps.transaction(async tx => {
    const last = await tx.siteVersion.findFirst({ where: { deploymentId: deployment.id }, orderBy: { number: 'desc' }, select: { number: true } });
    const row = await tx.siteVersion.create({
      data: {
        id: newId('site'),
        deploymentId: deployment.id,
        number: (last?.number ?? 0) + 1,
        files: manifest as object,
        fileCount: paths.length,
        bytes: BigInt(bytes),
        spa,
        developerId,
        createdAt: now,
      },
    });
    await tx.site.upsert({
      where: { deploymentId: deployment.id },
      create: { deploymentId: deployment.id, activeVersionId: row.id, updatedAt: now },
      update: { activeVersionId: row.id, updatedAt: now },
    });
    return row;
  });
  deps.siteCache.forget(appId, deployment.env);
  return versionView(version, version.id);
}

/** The environment's versions, newest first, and which one is served. */
export async function versions(deps: SiteDeps, developerId: string, appId: string, env: string) {
  const deployment = await ownedDeployment(deps, developerId, appId, env);
  const [site, rows] = await Promise.all([
    deps.prisma.site.findUnique({ where: { deploymentId: deployment.id } }),
    deps.prisma.siteVersion.findMany({
      where: { deploymentId: deployment.id },
      orderBy: { number: 'desc' },
      take: 100,
      select: { id: true, number: true, fileCount: true, bytes: true, spa: true, createdAt: true },
    }),
  ]);
  const activeId = site?.activeVersionId ?? null;
  const views = rows.map(row => versionView(row, activeId));
  return { appId, env: deployment.env, active: views.find(v => v.active)?.number ?? null, versions: views };
}

/**
 * Serves another version: `version` by number, or without one the newest version older than the
 * active one (a rollback; again goes one further back). 409 `no_previous_version` at the oldest.
 */
export async function activate(deps: SiteDeps, developerId: string, appId: string, env: string, input: unknown): Promise<SiteVersionView> {
  const { version } = parseInput(z.strictObject({ version: z.number().int().positive().optional() }), input ?? {});
  const deployment = await ownedDeployment(deps, developerId, appId, env);
  const now = deps.now();
  const row = await deps.transaction(async tx => {
    const site = await tx.site.findUnique({ where: { deploymentId: deployment.id } });
    if (!site) throw fail('site_not_found', `Nothing is published to ${appId}'s '${deployment.env}' environment yet: gatehouse publish <dir>.`);
    let target: Awaited<ReturnType<typeof tx.siteVersion.findFirst>>;
    if (version !== undefined) {
      target = await tx.siteVersion.findUnique({ where: { deploymentId_number: { deploymentId: deployment.id, number: version } } });
      if (!target)
        throw fail('site_version_not_found', `The '${deployment.env}' site has no version ${version}: gatehouse publish --list shows them.`);
    } else {
      const active = await tx.siteVersion.findUniqueOrThrow({ where: { id: site.activeVersionId }, select: { number: true } });
      target = await tx.siteVersion.findFirst({
        where: { deploymentId: deployment.id, number: { lt: active.number } },
        orderBy: { number: 'desc' },
      });
      if (!target)
        throw fail(
          'no_previous_version',
          `Version ${active.number} is the oldest of the '${deployment.env}' site: there is nothing to roll back to.`,
        );
    }
    await tx.site.update({ where: { deploymentId: deployment.id }, data: { activeVersionId: target.id, updatedAt: now } });
    return target;
  });
  deps.siteCache.forget(appId, deployment.env);
  return versionView(row, row.id);
}

function versionView(
  row: { id: string; number: number; fileCount: number; bytes: bigint; spa: boolean; createdAt: Date },
  activeId: string | null,
): SiteVersionView {
  return {
    number: row.number,
    id: row.id,
    files: row.fileCount,
    bytes: Number(row.bytes),
    spa: row.spa,
    active: row.id === activeId,
    createdAt: row.createdAt.toISOString(),
  };
}

/** What `services.sites` offers; src/services.ts binds each to the server's dependencies. */
export const siteOperations = { missingFiles, storeFile, publish, versions, activate };

export type SiteService = Bound<typeof siteOperations>;
