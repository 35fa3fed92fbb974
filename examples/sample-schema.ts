/**
 * A sample app schema: a team workspace with chat rooms, a public forum, photo albums and
 * app-wide settings. `examples/sample-schema.json` is its IR (what a deploy stores); regenerate it
 * with `npx tsx examples/build-sample-json.ts` after editing this file.
 */
import { defineSchema } from 'gatehouse/schema';

export default defineSchema({
  tables: {
    messages: t =>
      t
        .text('body')
        .notNull()
        .uuid('parentId')
        .jsonb('attachments')
        .notNull()
        .default([])
        .boolean('pinned')
        .notNull()
        .default(false)
        .timestamps()
        .index(['parentId'])
        .index(['createdAt'])
        .access({ read: ['reader'], create: ['writer'], update: ['creator'], delete: ['creator', 'admin'], unlink: ['admin'] }),
    tasks: t =>
      t
        .text('title')
        .notNull()
        .text('status')
        .notNull()
        .default('open')
        .uuid('assigneeId')
        .integer('priority')
        .notNull()
        .default(0)
        .timestamp('dueAt')
        .timestamps()
        .index(['status', 'dueAt'])
        .access({ read: ['reader'], create: ['writer'], update: ['writer'], delete: ['admin', 'creator'] }),
    posts: t =>
      t
        .text('title')
        .notNull()
        .text('body')
        .notNull()
        .integer('score')
        .notNull()
        .default(0)
        .timestamps()
        .index(['score'])
        .access({ read: ['reader'], create: ['reader'], update: ['creator'], delete: ['creator', 'admin'] }),
    photos: t => t.text('url').notNull().unique().text('caption').bigint('bytes').notNull().jsonb('exif').timestamps(),
    preferences: t =>
      t
        .text('key')
        .notNull()
        .unique()
        .jsonb('value')
        .notNull()
        .timestamps()
        .access({ read: ['reader'], create: ['admin'], update: ['admin'], delete: ['none'] }),
  },
  resources: {
    team: r =>
      r
        .visibility('members')
        .defaultRole('writer')
        // Team admins may make other admins; writers may bring in readers (e.g. guests).
        .grant({ admin: 'admin', writer: 'reader' })
        .shares('messages', m => m.onMemberRemove('retain').onOwnerDelete('tombstone'))
        .owns('tasks'),
    room: r =>
      r
        .visibility({ default: 'members', allow: ['unlisted', 'discoverable'] })
        .defaultRole('writer')
        .shares('messages', m =>
          m
            .onMemberRemove('hide')
            .onOwnerDelete('tombstone')
            .access({ read: ['reader', 'owner'] }),
        ),
    forum: r =>
      r
        .visibility('discoverable')
        .defaultRole('reader')
        .shares('posts', m => m.onMemberRemove('retain').onOwnerDelete('tombstone')),
    album: r =>
      r.visibility('unlisted').shares('photos', m =>
        m
          .onMemberRemove('remove')
          .onOwnerDelete('remove')
          .access({ read: ['reader'], create: ['writer'], delete: ['creator', 'admin'] }),
      ),
    settings: r => r.visibility('unlisted').static(['global']).owns('preferences'),
  },
});
