/**
 * The notes app's schema: a `notebook` resource type that owns its notes and its members' presence.
 * Deploy it with `gatehouse deploy examples/notes-app/schema.ts --app <id> --env dev` (README.md).
 */
import { defineSchema } from '@gatehouse/schema';

export default defineSchema({
  resources: {
    notebook: resource => {
      resource.visibility('members');
      // Whoever accepts an invite without a role writes notes.
      resource.defaultRole('writer');
      resource.owns('notes', table => {
        // The app's own id for a note, made on the device: a note written offline has one before
        // the server has seen it, and replaying its first write cannot make a second note.
        table.uuid('key').notNull().unique();
        table.text('title').notNull();
        table.text('body').notNull().default('');
        // A deleted note stays as a tombstone, so a delete is an edit like any other and last
        // writer wins between them (a hard delete would let an older offline edit bring it back).
        table.boolean('deleted').notNull().default(false);
        // Who wrote last: a hybrid logical clock stamp (stamp.ts); a write applies only over an older one.
        table.text('stamp').notNull();
        table.timestamps();
        // Every write finds its note by key.
        table.index(['key']);
        // Every member may edit any note of the notebook; compacting tombstones is for admins.
        table.access({ read: 'reader', create: 'writer', update: 'writer', delete: 'admin' });
      });
      resource.owns('presence', table => {
        table.text('memberId').notNull();
        table.text('device').notNull();
        table.text('state').notNull();
        table.uuid('noteKey');
        table.timestamp('seenAt').notNull();
        // One row per member and device: the app upserts it.
        table.unique(['memberId', 'device']);
        table.access({ read: 'reader', create: 'reader', update: 'creator', delete: 'creator' });
      });
    },
  },
});
