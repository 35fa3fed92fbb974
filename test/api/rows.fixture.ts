/** The schema and seed the row-store tests share (docs/api.md §11). */
import { TEST_SCHEMA, type Seed, type TestContext, seed } from '../helpers/app.js';

const GRANT = { owner: 'admin', admin: 'writer', writer: null, reader: null };
const type = (visibility: string, defaultRole: string, owns: { table: string; access: unknown }[], shares: unknown[] = []) => ({
  visibility: { default: visibility, allow: [visibility] },
  defaultRole,
  grant: GRANT,
  static: [],
  shares,
  owns,
});
const col = (type: string, extra: Record<string, unknown> = {}) => ({ type, notNull: false, unique: false, ...extra });

/**
 * A schema shaped like a real app's: a top-level table users keep and share, inline tables owned
 * by a members-only `project` (every column type, timestamps, indexes, single rules), and public
 * `forum` / `club` types for auto-join.
 */
export const ROWS_SCHEMA = {
  version: 1,
  tables: {
    notes: {
      columns: {
        title: col('text', { notNull: true }),
        body: col('text'),
        pinned: col('boolean', { default: false }),
        slug: col('text', { unique: true }),
      },
      timestamps: true,
      indexes: [['title']],
      access: null,
      onOwnerDelete: 'remove',
      ownedBy: null,
    },
    tasks: {
      columns: {
        title: col('text', { notNull: true }),
        done: col('boolean', { notNull: true, default: false }),
        priority: col('integer'),
        estimate: col('bigint'),
        meta: col('jsonb'),
        due: col('timestamp'),
        ref: col('uuid', { unique: true }),
      },
      timestamps: true,
      indexes: [['createdAt'], ['priority'], ['done', 'due']],
      access: {
        read: ['reader'],
        create: ['writer'],
        update: ['creator', 'admin', 'owner'],
        delete: ['admin', 'owner'],
      },
      onOwnerDelete: 'remove',
      ownedBy: 'project',
    },
    diary: {
      columns: { text: col('text') },
      timestamps: false,
      indexes: [],
      access: { read: ['creator'], create: ['reader'] },
      onOwnerDelete: 'remove',
      ownedBy: 'project',
    },
    // Presence by upsert: one row per (member, device), a key of two columns.
    presence: {
      columns: { member: col('text', { notNull: true }), device: col('text', { notNull: true }), state: col('text'), seen: col('integer') },
      timestamps: true,
      indexes: [],
      uniques: [['member', 'device']],
      access: { read: ['reader'], create: ['reader'], update: ['creator'] },
      onOwnerDelete: 'remove',
      ownedBy: 'project',
    },
    // A unique column on rows only their creator reads.
    handles: {
      columns: { name: col('text', { notNull: true, unique: true }), note: col('text') },
      timestamps: false,
      indexes: [],
      access: { read: ['creator'], create: ['writer'], update: ['creator'] },
      onOwnerDelete: 'remove',
      ownedBy: 'project',
    },
    posts: {
      columns: { body: col('text', { notNull: true }), n: col('integer') },
      timestamps: true,
      indexes: [],
      access: {
        read: ['reader'],
        create: ['writer'],
        update: ['creator'],
        delete: ['creator', 'admin', 'owner'],
      },
      onOwnerDelete: 'remove',
      ownedBy: 'forum',
    },
    comments: {
      columns: { body: col('text', { notNull: true }) },
      timestamps: true,
      indexes: [],
      access: null,
      onOwnerDelete: 'remove',
      ownedBy: null,
    },
  },
  resources: {
    ...TEST_SCHEMA.resources,
    project: type(
      'members',
      'writer',
      [
        { table: 'tasks', access: null },
        { table: 'diary', access: null },
        { table: 'presence', access: null },
        { table: 'handles', access: null },
      ],
      [{ table: 'notes', onMemberRemove: 'remove', access: { unlink: ['creator', 'owner'] } }],
    ),
    forum: type('discoverable', 'writer', [{ table: 'posts', access: null }], [{ table: 'notes', onMemberRemove: 'hide', access: null }]),
    // `comments` is a top-level table this type owns, with an override: readers may create here.
    club: type('unlisted', 'reader', [{ table: 'comments', access: { create: ['reader'] } }]),
  },
};

export interface RowsSeed extends Seed {
  deploymentId: string;
}

/** seed() (TEST_SCHEMA), then the row schema deployed over it. */
export async function rowsSeed(ctx: TestContext, names: string[]): Promise<RowsSeed> {
  const s = await seed(ctx, names);
  const deployed = await s.developer.request('PUT', `/dev/apps/${s.appId}/deployments/dev`, { schema: ROWS_SCHEMA });
  if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.body)}`);
  return { ...s, deploymentId: deployed.body.deploymentId };
}

type Caller = { post(path: string, body?: unknown): Promise<{ status: number; body: any }> };

/** POST /v1/db/query. */
export const db = (as: Caller, body: Record<string, unknown>) => as.post('/v1/db/query', body);

export const inResource = (resourceId: string, roomId?: string) => ({ kind: 'resource', resourceId, ...(roomId ? { roomId } : {}) });
export const mine = { kind: 'user' };
