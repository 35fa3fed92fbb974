/**
 * examples/notes-app end to end (issue 25's proof): the app as an app outside the repository has
 * it, its files in a scratch project whose node_modules hold the built @gatehouse/client and
 * @gatehouse/schema (this checkout's packages/*, built first, linked as a workspace install links
 * them), against a real server:
 * - sharing by handle: Bob sets his handle, Alice finds him by it and invites him, he accepts;
 * - both open the notebook live; presence by upsert (one row per member and device) reaches the other;
 * - Alice's line is cut (a TCP proxy between her and the server resets it): her notebook goes
 *   offline, her edits wait in the outbox while Bob edits; the line comes back, the SDK reconnects
 *   by itself, the outbox replays, and both sides and a fresh select hold the same notes, each
 *   note's last writer winning;
 * - a private drafts room: Bob reads its notes once granted, may not edit them as a reader (the
 *   refused edit is dropped and said so), and sees a draft published to the notebook;
 * - the CLI, run as a person runs it, reads and writes the same notebook.
 * No timing: every wait is on a status or a change.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, startTestApp } from '../helpers/app.js';
import { type CuttableProxy, cuttableProxy } from '../helpers/cuttable-proxy.js';

// The scratch copy's modules, loaded at run time; their types are the repository's copies'.
type NotesModule = typeof import('../../examples/notes-app/notes.js');
type ClientModule = typeof import('../../src/sdk/index.js');
type NotesApp = import('../../examples/notes-app/notes.js').NotesApp;
type Notebook = import('../../examples/notes-app/notes.js').Notebook;
type GatehouseClient = import('../../src/sdk/index.js').GatehouseClient;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const run = promisify(execFile);

let ctx: TestContext;
let proxy: CuttableProxy;
let scratch: string;
let project: string;
let notes: NotesModule;
let sdk: ClientModule;
let tokens: { alice: string; bob: string };
let ids: { alice: string; bob: string };
const clients: GatehouseClient[] = [];
const opened: Notebook[] = [];

/** Resolves once `ready()` holds, checked now and at each change of `notebook`. */
function until(notebook: Notebook, ready: () => boolean, what: string, ms = 30_000): Promise<void> {
  if (ready()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`${what}: not within ${ms} ms; notes ${JSON.stringify(notebook.notes())}`));
    }, ms);
    const stop = notebook.on('change', () => {
      if (!ready()) return;
      stop();
      clearTimeout(timer);
      resolve();
    });
  });
}

/** A notebook's notes as both sides must agree on them. */
const shown = (notebook: Notebook) => notebook.notes().map(({ key, title, body, roomId }) => ({ key, title, body, roomId }));

/**
 * The app as `user` on `device`, through `gatewayUrl`. Both devices read one clock, so an edit
 * made later in this test is later in the stamps (two wall clocks can read the same millisecond).
 */
let clock = Date.now();
async function start(user: 'alice' | 'bob', device: string, gatewayUrl: string): Promise<NotesApp> {
  const client = sdk.createClient({ gatewayUrl, accessToken: tokens[user] });
  clients.push(client);
  return notes.openNotes({ client, device, now: () => (clock += 1000) });
}

function open(app: NotesApp, id: string): Notebook {
  const notebook = app.open(id);
  opened.push(notebook);
  return notebook;
}

beforeAll(async () => {
  // This checkout's packages, built as `npm ci` builds them (skipped when up to date).
  for (const name of ['client', 'schema']) await run(process.execPath, [path.join(ROOT, 'packages', name, 'build.mjs')], { cwd: ROOT });
  scratch = await mkdtemp(path.join(tmpdir(), 'gatehouse-notes-app-'));
  project = path.join(scratch, 'notes-app');
  const example = path.join(ROOT, 'examples', 'notes-app');
  await mkdir(path.join(project, 'node_modules', '@gatehouse'), { recursive: true });
  for (const file of await readdir(example)) {
    if (file.endsWith('.ts') || file === 'package.json') await cp(path.join(example, file), path.join(project, file));
  }
  for (const name of ['client', 'schema'])
    await symlink(path.join(ROOT, 'packages', name), path.join(project, 'node_modules', '@gatehouse', name), 'dir');

  const scratchRequire = createRequire(path.join(project, 'package.json'));
  sdk = await import(pathToFileURL(scratchRequire.resolve('@gatehouse/client')).href);
  notes = await import(pathToFileURL(path.join(project, 'notes.ts')).href);
  const { default: schema } = await import(pathToFileURL(path.join(project, 'schema.ts')).href);

  ctx = await startTestApp({ listen: true });
  proxy = await cuttableProxy(ctx.url);
  const developer = ctx.client((await ctx.app.services.principals.createDeveloperToken('notes-app@example.test')).token);
  const app = await developer.post('/dev/apps', { name: 'Notes' });
  expect(app.status).toBe(200);
  expect((await developer.request('PUT', `/dev/apps/${app.body.id}/deployments/dev`, { schema })).status).toBe(200);
  const mint = async (name: string) => (await developer.post(`/dev/apps/${app.body.id}/test-users`, { name, env: 'dev' })).body;
  const [alice, bob] = [await mint('alice'), await mint('bob')];
  tokens = { alice: alice.token, bob: bob.token };
  ids = { alice: alice.user_id, bob: bob.user_id };
}, 120_000);

afterAll(async () => {
  for (const notebook of opened) await notebook.close().catch(() => {});
  for (const client of clients) client.close();
  await proxy?.close();
  await ctx?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('examples/notes-app', { timeout: 120_000 }, () => {
  let alice: NotesApp;
  let bob: NotesApp;
  let notebookId: string;
  let aliceBook: Notebook;
  let bobBook: Notebook;
  const keys: Record<string, string> = {};

  it('runs on the built @gatehouse/client, as installed beside the app', () => {
    const scratchRequire = createRequire(path.join(project, 'package.json'));
    expect(scratchRequire.resolve('@gatehouse/client')).toBe(path.join(ROOT, 'packages', 'client', 'dist', 'index.js'));
    expect(scratchRequire.resolve('@gatehouse/schema')).toBe(path.join(ROOT, 'packages', 'schema', 'dist', 'index.js'));
  });

  it('shares a notebook by handle: Bob sets his, Alice finds him by it and invites him, he accepts', async () => {
    // Alice's line goes through the proxy (cut later on); Bob's goes straight to the server.
    alice = await start('alice', 'laptop', proxy.url);
    bob = await start('bob', 'phone', ctx.url);
    expect((await bob.setHandle('Bob_Notes')).handle).toBe('bob_notes');
    notebookId = (await alice.createNotebook('Groceries')).id;
    // The app knows only the people who use it: Bob, once he has a notebook of his own.
    await expect(alice.share(notebookId, 'bob_notes')).rejects.toThrow('No one with the handle @bob_notes uses this app.');
    await bob.createNotebook("Bob's notebook");
    expect(await alice.share(notebookId, 'BOB_NOTES')).toEqual({ id: ids.bob, handle: 'bob_notes', displayName: 'bob' });
    expect((await bob.invitations()).map(invite => [invite.resourceId, invite.name, invite.role])).toEqual([[notebookId, 'Groceries', 'writer']]);
    await bob.accept(notebookId);
    expect((await alice.members(notebookId)).map(m => [m.handle ?? m.displayName, m.role, m.state])).toEqual([
      ['alice', 'owner', 'active'],
      ['bob_notes', 'writer', 'active'],
    ]);
    expect((await bob.notebooks()).map(n => n.name).sort()).toEqual(["Bob's notebook", 'Groceries']);
  });

  it('both open it live: an edit on one shows on the other, and presence by upsert reaches the other', async () => {
    aliceBook = open(alice, notebookId);
    bobBook = open(bob, notebookId);
    expect(await aliceBook.opened()).toBe('live');
    expect(await bobBook.opened()).toBe('live');
    for (const title of ['Milk', 'Bread', 'Eggs', 'Butter', 'Jam']) keys[title] = aliceBook.add({ title });
    await until(bobBook, () => bobBook.notes().length === 5, 'Bob sees the five notes');
    await aliceBook.synced();
    expect(shown(bobBook)).toEqual(shown(aliceBook));
    expect(aliceBook.notes().every(note => !note.pending)).toBe(true);

    // Each opened notebook announced its device as online; Alice says what she is editing, then steps away.
    const aliceOn = (state: string) => () => bobBook.presence().some(p => p.memberId === ids.alice && p.state === state);
    await until(bobBook, aliceOn('online'), "Bob sees Alice's laptop");
    await aliceBook.setPresence('online', keys.Milk);
    await until(bobBook, () => bobBook.presence().some(p => p.memberId === ids.alice && p.noteKey === keys.Milk), 'Bob sees what Alice edits');
    await aliceBook.setPresence('away');
    // One row per member and device, upserted: never a second one.
    const devices = () => JSON.stringify(bobBook.presence().map(p => [p.memberId, p.device, p.state]));
    const expected = JSON.stringify([
      [ids.alice, 'laptop', 'away'],
      [ids.bob, 'phone', 'online'],
    ]);
    await until(bobBook, () => devices() === expected, 'Bob sees Alice away, and himself online');
  });

  it('Alice goes offline: her edits wait in the outbox while Bob edits; back online they replay and both converge, last writer winning', async () => {
    const statuses: string[] = [];
    aliceBook.on('status', status => statuses.push(status));
    proxy.cut();
    await until(aliceBook, () => aliceBook.status === 'offline', "Alice's notebook offline");

    // Bob edits Butter before Alice does; Alice edits Milk before Bob does.
    bobBook.edit(keys.Butter, { title: 'Salted butter' });
    await bobBook.synced();
    aliceBook.edit(keys.Butter, { title: 'Unsalted butter' });
    aliceBook.edit(keys.Milk, { title: 'Oat milk' });
    aliceBook.edit(keys.Bread, { body: 'sourdough' });
    keys.Coffee = aliceBook.add({ title: 'Coffee', body: 'beans' });
    aliceBook.remove(keys.Jam);
    bobBook.edit(keys.Milk, { title: 'Soy milk' });
    await bobBook.synced();

    // Offline, Alice sees her own edits (pending) over the notes she had; none reached Bob.
    expect(aliceBook.pendingWrites).toBe(5);
    expect(aliceBook.notes().map(n => [n.title, n.pending])).toEqual([
      ['Bread', true],
      ['Coffee', true],
      ['Eggs', false],
      ['Oat milk', true],
      ['Unsalted butter', true],
    ]);
    expect(bobBook.notes().map(n => n.title)).toEqual(['Bread', 'Eggs', 'Jam', 'Salted butter', 'Soy milk']);

    proxy.restore();
    await until(aliceBook, () => aliceBook.status === 'live', "Alice's notebook live again", 60_000);
    await aliceBook.synced();
    const expected = [
      { key: keys.Bread, title: 'Bread', body: 'sourdough', roomId: null },
      { key: keys.Coffee, title: 'Coffee', body: 'beans', roomId: null },
      { key: keys.Eggs, title: 'Eggs', body: '', roomId: null },
      // Bob's edit came after Alice's offline one: his stays.
      { key: keys.Milk, title: 'Soy milk', body: '', roomId: null },
      // Alice's came after Bob's: hers replaces it, although it reached the server later.
      { key: keys.Butter, title: 'Unsalted butter', body: '', roomId: null },
    ];
    const converged = (notebook: Notebook) => () => JSON.stringify(shown(notebook)) === JSON.stringify(expected);
    await until(aliceBook, converged(aliceBook), 'Alice converges');
    await until(bobBook, converged(bobBook), 'Bob converges');
    expect(shown(aliceBook)).toEqual(expected);
    expect(shown(bobBook)).toEqual(expected);
    expect(statuses).toEqual(['offline', 'live']);

    // And the server holds exactly that: a fresh select by a new client.
    const fresh = sdk.createClient({ gatewayUrl: ctx.url, accessToken: tokens.bob });
    clients.push(fresh);
    const rows = await fresh.resource(notebookId).table('notes').select().order('title');
    expect(rows.filter(row => !row.deleted).map(({ key, title, body, roomId }) => ({ key, title, body, roomId }))).toEqual(expected);
    expect(rows.find(row => row.key === keys.Jam)).toMatchObject({ deleted: true });

    // Compacting the tombstones, twice at once: one deletes Jam's, the other nothing, both succeed.
    const cutoff = new Date();
    expect((await Promise.all([aliceBook.compact(cutoff), aliceBook.compact(cutoff)])).sort()).toEqual([0, 1]);
    const left = await fresh.resource(notebookId).table('notes').select();
    expect(left.map(row => row.key).sort()).toEqual(expected.map(note => note.key).sort());
  });

  it('a private drafts room: Bob reads it once granted, cannot edit as a reader, and sees a draft published', async () => {
    const drafts = await alice.createPrivateRoom(notebookId, 'Drafts');
    const party = aliceBook.add({ title: 'Party menu', body: 'a surprise', roomId: drafts.id });
    await aliceBook.synced();
    // Changes reach Bob in commit order: once he sees the next note, he would have seen the draft.
    aliceBook.add({ title: 'Tea' });
    await until(bobBook, () => bobBook.notes().some(n => n.title === 'Tea'), 'Bob sees Tea');
    expect(bobBook.notes().some(n => n.key === party)).toBe(false);

    // A grant changes no note: Bob's notebook reads its notes again when his grants change.
    await alice.grant(notebookId, drafts.id, ids.bob, 'reader');
    await until(bobBook, () => bobBook.notes().some(n => n.key === party), 'Bob sees the draft');
    expect(bobBook.notes().find(n => n.key === party)).toMatchObject({ title: 'Party menu', roomId: drafts.id, pending: false });

    const rejected: { title: string; code: string }[] = [];
    bobBook.on('rejected', (write, error) => rejected.push({ title: write.title, code: (error as Error & { code: string }).code }));
    bobBook.edit(party, { title: 'No surprise' });
    await bobBook.synced();
    expect(rejected).toEqual([{ title: 'No surprise', code: 'room_forbidden' }]);
    expect(bobBook.notes().find(n => n.key === party)?.title).toBe('Party menu');

    await aliceBook.move(party, null);
    await until(bobBook, () => bobBook.notes().find(n => n.key === party)?.roomId === null, 'Bob sees the draft published');
    await until(aliceBook, () => aliceBook.notes().find(n => n.key === party)?.roomId === null, 'Alice sees it published');
    expect(shown(bobBook)).toEqual(shown(aliceBook));
  });

  it('the CLI, as a person runs it: adds a note, lists the notebook, and says when it is offline', async () => {
    const cli = async (user: 'alice' | 'bob', gatewayUrl: string, ...args: string[]) => {
      const env = {
        ...process.env,
        NOTES_TOKEN: tokens[user],
        GATEHOUSE_URL: gatewayUrl,
        NOTES_HOME: path.join(scratch, `home-${user}`),
        NOTES_DEVICE: 'cli',
      };
      const tsx = pathToFileURL(require.resolve('tsx')).href;
      return (await run(process.execPath, ['--import', tsx, 'cli.ts', ...args], { cwd: project, env })).stdout;
    };
    const key = (await cli('bob', ctx.url, 'add', notebookId, 'Honey', 'from the market')).trim();
    await until(aliceBook, () => aliceBook.notes().some(n => n.key === key && n.title === 'Honey'), 'Alice sees the note the CLI added');
    const listed = await cli('bob', ctx.url, 'list', notebookId);
    for (const title of ['Honey', 'Party menu', 'Soy milk', 'Unsalted butter']) expect(listed).toContain(title);
    expect(listed).toContain(`${key.slice(0, 8)}  Honey`);
    const refused = await cli('bob', ctx.url, 'list', 'res_00000000000000000000').catch((error: { stderr: string }) => error.stderr);
    expect(refused).toContain('Cannot open notebook res_00000000000000000000.');

    // Offline (the line cut): the edit is kept on this device, then `sync` writes it.
    proxy.cut();
    const offline = await cli('bob', proxy.url, 'edit', notebookId, key.slice(0, 8), 'Honey (raw)');
    expect(offline).toContain('Offline: 1 edit(s) kept on this device');
    proxy.restore();
    expect(await cli('bob', proxy.url, 'sync', notebookId)).toContain('In sync.');
    await until(aliceBook, () => aliceBook.notes().some(n => n.key === key && n.title === 'Honey (raw)'), 'Alice sees the edit synced by the CLI');
  });
});
