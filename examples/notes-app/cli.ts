/**
 * The notes app's command line (README.md): each command starts the data layer (./notes.ts), does
 * one thing and exits; `watch` stays, printing the notebook as it changes, until Ctrl-C.
 *
 *   NOTES_TOKEN    a token of the user (a test session: `gatehouse test-session --app <id> --user alice`)
 *   GATEHOUSE_URL  the gateway (default http://127.0.0.1:4000)
 *   NOTES_HOME     where this device keeps your notes and unsent edits (default ~/.gatehouse-notes)
 *   NOTES_DEVICE   this device's name (default the host name)
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import path from 'node:path';
import { createClient, type Role } from '@gatehouse/client';
import { type DeviceStorage, type Note, type Notebook, type NotesApp, openNotes } from './notes.js';

/** One JSON file per key in `dir`, each written whole (a temporary file, then renamed). */
function fileStorage(dir: string): DeviceStorage {
  mkdirSync(dir, { recursive: true });
  const file = (key: string) => path.join(dir, `${encodeURIComponent(key)}.json`);
  return {
    load(key) {
      try {
        return JSON.parse(readFileSync(file(key), 'utf8'));
      } catch {
        return null;
      }
    },
    save(key, value) {
      writeFileSync(`${file(key)}.tmp`, JSON.stringify(value, null, 2));
      renameSync(`${file(key)}.tmp`, file(key));
    },
  };
}

/** A note by its key or the start of it (what `list` prints). */
function noteKey(notebook: Notebook, prefix: string): string {
  const found = notebook.notes().filter(note => note.key.startsWith(prefix));
  if (found.length !== 1) throw new Error(found.length ? `${prefix} names ${found.length} notes: give more of the key.` : `No note ${prefix}.`);
  return found[0].key;
}

function printNotes(notebook: Notebook): void {
  const notes = notebook.notes();
  if (notebook.status !== 'live') console.log(`(${notebook.status}: the notes saved on this device)`);
  if (!notes.length) console.log('No notes.');
  for (const note of notes) printNote(note);
  if (notebook.pendingWrites) console.log(`${notebook.pendingWrites} edit(s) not written yet.`);
}

function printNote(note: Note): void {
  const where = note.roomId ? `  [room ${note.roomId}]` : '';
  console.log(`${note.key.slice(0, 8)}  ${note.title}${where}${note.pending ? '  (not synced)' : ''}`);
  if (note.body) console.log(`          ${note.body.replaceAll('\n', '\n          ')}`);
}

/** Opens a notebook, runs `change` on it, and writes the outbox if the server answers. */
async function withNotebook(app: NotesApp, id: string, change: (notebook: Notebook) => void = () => {}): Promise<Notebook> {
  const notebook = app.open(id);
  notebook.on('rejected', (write, error) => console.error(`Not saved (${write.title}): ${error.message}`));
  notebook.on('error', error => console.error(error.message));
  const status = await notebook.opened();
  if (status === 'closed') throw new Error(`Cannot open notebook ${id}.`);
  change(notebook);
  if (status === 'live') await notebook.synced();
  else if (notebook.pendingWrites) console.log(`Offline: ${notebook.pendingWrites} edit(s) kept on this device; \`sync\` writes them.`);
  return notebook;
}

/** `--room <id>` out of the arguments. */
function roomOption(args: string[]): { rest: string[]; roomId: string | null } {
  const at = args.indexOf('--room');
  if (at === -1) return { rest: args, roomId: null };
  return { rest: [...args.slice(0, at), ...args.slice(at + 2)], roomId: args[at + 1] };
}

type Command = { usage: string; run: (app: NotesApp, args: string[]) => Promise<Notebook | void> };

const COMMANDS: Record<string, Command> = {
  whoami: {
    usage: 'whoami',
    run: async app => console.log(`${app.me.id}  @${app.me.handle ?? '(no handle)'}  ${app.me.displayName ?? ''}`),
  },
  handle: {
    usage: 'handle <handle>                   set the handle others share with',
    run: async (app, [handle]) => console.log(`@${(await app.setHandle(handle)).handle}`),
  },
  notebooks: {
    usage: 'notebooks',
    run: async app => {
      for (const notebook of await app.notebooks()) console.log(`${notebook.id}  ${notebook.name}  (${notebook.currentMember?.role})`);
    },
  },
  create: {
    usage: 'create <name>                     prints the new notebook id',
    run: async (app, [name]) => console.log((await app.createNotebook(name)).id),
  },
  share: {
    usage: 'share <notebook> <handle> [role]   invite someone by handle (role default writer)',
    run: async (app, [id, handle, role]) => {
      const person = await app.share(id, handle, (role ?? 'writer') as Role);
      console.log(`Invited @${person.handle} (${person.displayName ?? person.id}).`);
    },
  },
  invitations: {
    usage: 'invitations',
    run: async app => {
      for (const invite of await app.invitations()) console.log(`${invite.resourceId}  ${invite.name}  as ${invite.role}, from ${invite.invitedBy}`);
    },
  },
  accept: {
    usage: 'accept <notebook>',
    run: (app, [id]) => app.accept(id),
  },
  members: {
    usage: 'members <notebook>',
    run: async (app, [id]) => {
      for (const m of await app.members(id))
        console.log(`${m.role.padEnd(7)} ${m.state.padEnd(8)} @${m.handle ?? '-'}  ${m.displayName ?? ''}  ${m.userId}`);
    },
  },
  list: {
    usage: 'list <notebook>',
    run: async (app, [id]) => {
      const notebook = await withNotebook(app, id);
      printNotes(notebook);
      return notebook;
    },
  },
  add: {
    usage: 'add <notebook> <title> [body] [--room <room>]',
    run: async (app, args) => {
      const {
        rest: [id, title, body],
        roomId,
      } = roomOption(args);
      let key = '';
      const notebook = await withNotebook(app, id, nb => {
        key = nb.add({ title, body, roomId });
      });
      console.log(key);
      return notebook;
    },
  },
  edit: {
    usage: 'edit <notebook> <note> <title> [body]',
    run: (app, [id, note, title, body]) => withNotebook(app, id, nb => nb.edit(noteKey(nb, note), { title, body })),
  },
  rm: {
    usage: 'rm <notebook> <note>',
    run: (app, [id, note]) => withNotebook(app, id, nb => nb.remove(noteKey(nb, note))),
  },
  sync: {
    usage: 'sync <notebook>                   write the edits made offline',
    run: async (app, [id]) => {
      const notebook = await withNotebook(app, id);
      if (notebook.status === 'live') console.log('In sync.');
      return notebook;
    },
  },
  rooms: {
    usage: 'rooms <notebook>',
    run: async (app, [id]) => {
      for (const room of await app.rooms(id)) console.log(`${room.id}  ${room.name}  ${room.currentGrant?.role ?? '(no grant)'}`);
    },
  },
  room: {
    usage: 'room <notebook> <name>            a private room (you hold admin); prints its id',
    run: async (app, [id, name]) => console.log((await app.createPrivateRoom(id, name)).id),
  },
  grant: {
    usage: 'grant <notebook> <room> <handle> <role>',
    run: async (app, [id, roomId, handle, role]) => {
      const person = await app.client.users.byHandle(handle);
      if (!person) throw new Error(`No one with the handle @${handle} uses this app.`);
      await app.grant(id, roomId, person.id, role as Role);
      console.log(`@${person.handle} holds ${role} in ${roomId}.`);
    },
  },
  move: {
    usage: 'move <notebook> <note> <room|default>',
    run: async (app, [id, note, roomId]) => {
      const notebook = await withNotebook(app, id);
      await notebook.move(noteKey(notebook, note), roomId === 'default' ? null : roomId);
      return notebook;
    },
  },
  watch: {
    usage: 'watch <notebook>                  the notes and who is here, live, until Ctrl-C',
    run: async (app, [id]) => {
      // Names for presence rows (offline: none, the ids stand in).
      const members = await app.members(id).catch(() => []);
      const names = new Map(members.map(m => [m.userId, m.handle ? `@${m.handle}` : (m.displayName ?? m.userId)]));
      const notebook = app.open(id);
      const show = () => {
        if (notebook.status === 'closed') return;
        console.log(`\n--- ${new Date().toLocaleTimeString()}  ${notebook.status}`);
        printNotes(notebook);
        for (const p of notebook.presence()) {
          console.log(`  ${p.state === 'online' ? '●' : '○'} ${names.get(p.memberId) ?? p.memberId} on ${p.device} (${p.state})`);
        }
      };
      let timer: ReturnType<typeof setTimeout> | undefined;
      notebook.on('change', () => {
        clearTimeout(timer);
        timer = setTimeout(show, 100);
      });
      notebook.on('status', show);
      await new Promise(resolve => process.once('SIGINT', resolve));
      clearTimeout(timer);
      return notebook;
    },
  },
};

async function main(): Promise<void> {
  const [name, ...args] = process.argv.slice(2);
  const command = COMMANDS[name ?? ''];
  if (!command || !process.env.NOTES_TOKEN) {
    console.error(
      `Usage: notes <command>, with NOTES_TOKEN set (README.md)\n\n${Object.values(COMMANDS)
        .map(c => `  ${c.usage}`)
        .join('\n')}`,
    );
    process.exitCode = 1;
    return;
  }
  const client = createClient({ gatewayUrl: process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:4000', accessToken: process.env.NOTES_TOKEN });
  try {
    const app = await openNotes({
      client,
      device: process.env.NOTES_DEVICE ?? hostname(),
      storage: fileStorage(process.env.NOTES_HOME ?? path.join(homedir(), '.gatehouse-notes')),
    });
    const notebook = await command.run(app, args);
    await notebook?.close();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    client.close();
  }
}

await main();
