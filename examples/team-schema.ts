/**
 * An app schema written the way apps write them: block-bodied callbacks, a members-only `team`
 * type whose tables are declared inline with owns(name, table => ...), single-string access rules,
 * `timestamps()` with an index on `createdAt`, and top-level tables shared into a public type.
 * test/api/app-schema.test.ts deploys it; docs/api.md §5.5 describes every call.
 */
import { defineSchema } from 'gatehouse/schema';

export default defineSchema({
  // Each user's own files (a user bucket), which they may link into a team's bucket.
  files: { docs: { maxSize: '10MB' } },
  tables: {
    profiles: table => {
      table.text('displayName').notNull();
      table.text('bio');
      table.jsonb('links').notNull().default([]);
      table.timestamps();
      table.access({ read: 'reader', create: 'reader', update: 'creator', delete: 'creator' });
      // A deleted account's profile stays readable as "deleted user" where it was shared.
      table.onOwnerDelete('tombstone');
    },
    posts: table => {
      table.text('title').notNull();
      table.text('body');
      table.integer('likes').notNull().default(0);
      table.timestamps();
      table.index(['createdAt']);
      table.access({ read: 'reader', create: 'writer', update: 'creator', delete: ['creator', 'admin'], unlink: 'admin' });
    },
  },
  resources: {
    club: resource => {
      resource.visibility({ default: 'discoverable', allow: ['unlisted'] });
      resource.defaultRole('writer');
      resource.shares('posts', share => share.onMemberRemove('hide'));
      resource.shares('profiles', share => share.onMemberRemove('retain'));
    },
    team: resource => {
      resource.visibility('members');
      resource.defaultRole('writer');
      resource.grant({ admin: 'admin' });
      resource.owns('member_notes', table => {
        table.uuid('subjectId').notNull();
        table.text('body').notNull();
        table.boolean('pinned').notNull().default(false);
        table.timestamps();
        table.index(['subjectId', 'createdAt']);
        table.access({ read: 'admin', create: 'admin', update: 'creator', delete: 'admin' });
      });
      // Files of the team, placed in rooms like its rows (docs/api.md §13): writers upload, members read.
      resource.files('shared', { maxSize: '25MB', accept: ['image/*', 'application/pdf', 'text/*'], access: { upload: 'writer' } });
      resource.owns('member_events', table => {
        table.uuid('memberId').notNull();
        table.text('kind').notNull();
        table.jsonb('payload').notNull().default({});
        table.bigint('sequence').notNull();
        table.timestamps();
        table.index(['createdAt']);
        table.access({ read: 'reader', create: 'writer', update: 'none', delete: 'none' });
        table.onOwnerDelete('tombstone');
      });
      // Presence by upsert: one row per member and device, found by that key (docs/api.md §11.1).
      resource.owns('member_presence', table => {
        // A principal id (a user's or an agent's), not a UUID.
        table.text('memberId').notNull();
        table.text('device').notNull();
        table.text('state').notNull().default('online');
        table.unique(['memberId', 'device']);
        table.timestamps();
        table.access({ read: 'reader', create: 'reader', update: 'creator', delete: 'creator' });
      });
      resource.owns('member_budgets', table => {
        table.uuid('memberId').notNull().unique();
        table.bigint('limitCents').notNull().default(0n);
        table.timestamp('resetsAt');
        table.timestamps();
        table.access({ read: ['reader'], create: 'owner', update: ['owner', 'admin'], delete: 'owner' });
        table.onOwnerDelete('retain');
      });
    },
  },
});
