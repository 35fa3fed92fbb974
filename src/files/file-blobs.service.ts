/**
 * The bytes side of files: where a new blob goes, what a deletion leaves to remove after commit,
 * and the sweep of blobs no row names (a crash between a blob and its row's commit leaves them).
 */
import { randomBytes } from 'node:crypto';
import type { BlobStore } from '../storage/index.js';
import type { ServiceDeps } from '../core/deps.js';
import type { ChangeSet } from '../membership/membership-store.service.js';
import type { Db } from './file-store.service.js';

/** Blobs no row names are garbage only after this long: an upload in flight has no row yet. */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

export const newBlobKey = (deploymentId: string, fileId: string) => `${deploymentId}/${fileId}/${randomBytes(12).toString('hex')}`;

/** After a write: publish auto-join events, drop the blobs nothing names any more. */
export function afterCommit(deps: Pick<ServiceDeps, 'bus'> & { blobs: BlobStore }, joins: ChangeSet[], orphanedKeys: string[]) {
  deps.bus.publish(joins.flatMap(c => c.events));
  deps.bus.publishGrants(joins.flatMap(c => c.grantEvents));
  if (orphanedKeys.length) deps.blobs.delete(orphanedKeys).catch(() => {});
}

/** Blob keys of what deleting a resource or an account removes; delete them after that commits. */
export async function blobKeysOf(
  deps: Pick<ServiceDeps, 'prisma'>,
  owner: { resourceId: string } | { accountId: string },
  db: Db = deps.prisma,
): Promise<string[]> {
  const rows = await db.file.findMany({
    where: 'resourceId' in owner ? { resourceId: owner.resourceId } : { scope: `u:${owner.accountId}` },
    select: { blobKey: true },
  });
  return rows.map(r => r.blobKey);
}

/** Site bytes (src/hosting) live under their own prefix; their rows are `site_blobs`. */
const SITE_PREFIX = 'site/';

/** Deletes blobs no file (or site file) row names, older than the grace period (uploads in flight have no row yet). */
export async function sweep(deps: Pick<ServiceDeps, 'prisma'> & { blobs: BlobStore }, now: Date = new Date()): Promise<{ deleted: number }> {
  const stale: string[] = [];
  for await (const blob of deps.blobs.list()) {
    if (now.getTime() - blob.modifiedAt.getTime() < SWEEP_GRACE_MS) continue;
    stale.push(blob.key);
  }
  const named = new Set<string>();
  for (let i = 0; i < stale.length; i += 1000) {
    const batch = stale.slice(i, i + 1000);
    const files = batch.filter(key => !key.startsWith(SITE_PREFIX));
    const sites = batch.filter(key => key.startsWith(SITE_PREFIX));
    const rows = files.length ? await deps.prisma.file.findMany({ where: { blobKey: { in: files } }, select: { blobKey: true } }) : [];
    const siteRows = sites.length ? await deps.prisma.siteBlob.findMany({ where: { blobKey: { in: sites } }, select: { blobKey: true } }) : [];
    for (const r of [...rows, ...siteRows]) named.add(r.blobKey);
  }
  const garbage = stale.filter(key => !named.has(key));
  await deps.blobs.delete(garbage);
  return { deleted: garbage.length };
}
