/**
 * The notes app's data layer: everything the app does with Gatehouse goes through here, and here
 * only through `@gatehouse/client`. The driver (cli.ts, or a page) shows what it answers.
 *
 * - A notebook is a resource; its notes are rows it owns. The notes the app shows come from one
 *   live query: its snapshot, then its changes (after a reconnect the SDK reconciles a fresh
 *   snapshot, so the feed's rows are the server's again).
 * - Every edit goes through an outbox. It shows at once (a pending note), is saved on the device,
 *   and is written when the feed is live; made offline, it waits, and replays when the feed is live
 *   again. An edit carries the note's whole state, so a newer edit of a note replaces an older one
 *   still waiting.
 * - Conflicts: last writer wins, per note, by its `stamp` (./stamp.ts). A write only lands over an
 *   older stamp, and the server judges that in the same statement that writes
 *   (`update(...).eq('key', k).lt('stamp', mine)`), so an edit replayed after reconnecting never
 *   overwrites one made later elsewhere, and no read-then-write race can either.
 * - Presence is one row per member and device, upserted on its unique key.
 */
import {
  GatehouseError,
  type GatehouseClient,
  type Invitation,
  type LiveHandle,
  type LiveStatus,
  type Resource,
  type Role,
  type Room,
  type RoomGrantResult,
  type User,
  type UserProfile,
} from '@gatehouse/client';
import { Clock, type Stamp } from './stamp.js';

export const NOTEBOOK = 'notebook';

/** A note as the server holds it: a row of `notes`. */
export interface NoteRow {
  id: string;
  key: string;
  title: string;
  body: string;
  deleted: boolean;
  stamp: Stamp;
  /** The room it is in; null for the notebook's default room, which every member reads. */
  roomId: string | null;
  createdAt: string;
  updatedAt: string;
  _creatorId: string | null;
}

/** A note as the app shows it: the server's, or this device's edit that is not written yet. */
export interface Note {
  key: string;
  title: string;
  body: string;
  roomId: string | null;
  /** This device holds an edit of it the server does not have yet. */
  pending: boolean;
}

/** An edit waiting in the outbox: the note's whole state after it, and its stamp. */
export interface PendingWrite {
  key: string;
  title: string;
  body: string;
  deleted: boolean;
  /** Where a new note goes (null: the default room); an edit goes wherever the note is by then. */
  roomId: string | null;
  stamp: Stamp;
}

export type PresenceState = 'online' | 'away' | 'offline';

/** Who has the notebook open, on which device: a row of `presence`. */
export interface PresenceRow {
  id: string;
  memberId: string;
  device: string;
  state: PresenceState;
  noteKey: string | null;
  seenAt: string;
}

/** A member with their public profile. */
export interface Member {
  userId: string;
  role: Role;
  state: string;
  handle: string | null;
  displayName: string | null;
}

/** What a notebook keeps on the device between runs: its last known notes and its outbox. */
export interface SavedNotebook {
  notes: NoteRow[];
  outbox: PendingWrite[];
}

/**
 * Where the app keeps things on the device, by key (`user`, `notebook:<id>`): a folder of files
 * (cli.ts), `localStorage` in a page, memory by default.
 */
export interface DeviceStorage {
  load<T>(key: string): T | null;
  save(key: string, value: unknown): void;
}

export function memoryStorage(): DeviceStorage {
  const saved = new Map<string, string>();
  return {
    load: key => (saved.has(key) ? JSON.parse(saved.get(key)!) : null),
    save: (key, value) => void saved.set(key, JSON.stringify(value)),
  };
}

export interface NotesOptions {
  /** A client from `createClient` of `@gatehouse/client`, signed in. */
  client: GatehouseClient;
  /** This device's name (presence, and the stamps' tie-break), e.g. `laptop`. */
  device: string;
  /** Default: memory (nothing survives the process). */
  storage?: DeviceStorage;
  /** The clock stamps are made from (default `Date.now`). */
  now?: () => number;
}

/** Starts the app as the client's user (offline: as the user last seen on this device). */
export async function openNotes(options: NotesOptions): Promise<NotesApp> {
  const storage = options.storage ?? memoryStorage();
  let me: User | null;
  try {
    me = await options.client.auth.getUser();
    if (me) storage.save('user', me);
  } catch (error) {
    if (!(error instanceof GatehouseError && error.code === 'network_error')) throw error;
    me = storage.load<User>('user');
    if (!me) throw new Error(`Offline, and no one has used the app on this device yet: ${error.message}`);
  }
  if (!me) throw new Error('Not signed in: give the client a session or a token.');
  return new NotesApp({ ...options, storage }, me);
}

export class NotesApp {
  readonly client: GatehouseClient;
  readonly device: string;
  readonly storage: DeviceStorage;
  readonly now: () => number;
  /** This device's clock: every edit is stamped by it. */
  readonly clock: Clock;

  constructor(
    options: NotesOptions,
    public me: User,
  ) {
    this.client = options.client;
    this.device = options.device;
    this.storage = options.storage ?? memoryStorage();
    this.now = options.now ?? Date.now;
    this.clock = new Clock(`${me.id}/${options.device}`, this.now);
  }

  /** Your handle is how others find you to share a notebook. */
  async setHandle(handle: string): Promise<User> {
    return (this.me = await this.client.auth.updateProfile({ handle }));
  }

  notebooks(): Promise<Resource[]> {
    return this.client.resource.list({ type: NOTEBOOK });
  }

  createNotebook(name: string): Promise<Resource> {
    return this.client.resource.create(NOTEBOOK, { name });
  }

  /** Invites the person with this handle (any case); they see it in their invitations. */
  async share(notebookId: string, handle: string, role: Role = 'writer'): Promise<UserProfile> {
    const person = await this.client.users.byHandle(handle);
    if (!person) throw new Error(`No one with the handle @${handle} uses this app.`);
    await this.client.resource(notebookId).members.invite(person.id, { role });
    return person;
  }

  invitations(): Promise<Invitation[]> {
    return this.client.resource.invitations({ type: NOTEBOOK });
  }

  async accept(notebookId: string): Promise<void> {
    await this.client.resource(notebookId).members.accept();
  }

  /** The roster with names: members and pending invites, owner first. */
  async members(notebookId: string): Promise<Member[]> {
    const roster = await this.client.resource(notebookId).members.list();
    const profiles = await this.client.users(roster.map(entry => entry.userId)).profiles();
    const byId = new Map(profiles.map(profile => [profile.id, profile]));
    return roster.map(({ userId, role, state }) => ({
      userId,
      role,
      state,
      handle: byId.get(userId)?.handle ?? null,
      displayName: byId.get(userId)?.displayName ?? null,
    }));
  }

  /** The notebook's default room (the notebook itself) and the rooms you hold; admins see every room. */
  rooms(notebookId: string): Promise<Room[]> {
    return this.client.resource(notebookId).rooms.list();
  }

  /** A room no one reads until granted (drafts): you hold `admin` in it, to read, write and move notes out. */
  async createPrivateRoom(notebookId: string, name: string): Promise<Room> {
    const room = await this.client.resource(notebookId).rooms.create({ name });
    // A new room has no grants, its creator's included.
    await this.client.room(room.id, notebookId).grants.set(this.me.id, 'admin');
    return room;
  }

  /** Gives a member a role in a room (never above their notebook role); they must have accepted. */
  grant(notebookId: string, roomId: string, userId: string, role: Role): Promise<RoomGrantResult> {
    return this.client.room(roomId, notebookId).grants.set(userId, role);
  }

  /** Opens a notebook live: its notes, its members' presence, your edits' outbox. */
  open(notebookId: string): Notebook {
    return new Notebook(this, notebookId);
  }
}

interface NotebookEvents {
  /** The notes, the outbox, the presence or the status changed. */
  change: () => void;
  status: (status: LiveStatus) => void;
  /** The server refused an edit for good (e.g. a room you may only read): it was dropped. */
  rejected: (write: PendingWrite, error: Error) => void;
  /** Something else failed: the notes feed ended (then the status is `closed`), or announcing presence. */
  error: (error: Error) => void;
}

/** Tries of one write whose note keeps changing under it before giving up. */
const WRITE_ATTEMPTS = 5;
const RETRY_MS = { first: 1_000, max: 30_000 };

/**
 * Refused for good: the same write would be refused again. Anything else (no answer, 401 until
 * a new token, 402 until the budget is raised, 408, 429, 5xx) keeps the edit for later.
 */
function refused(error: unknown): boolean {
  if (!(error instanceof GatehouseError)) return true;
  return error.status >= 400 && error.status < 500 && ![401, 402, 408, 429].includes(error.status);
}

export class Notebook {
  status: LiveStatus = 'connecting';
  /** The server's notes by key: the feed's, and until it is first live, those saved last time. */
  private rows = new Map<string, NoteRow>();
  /** Edits not yet written, by note key, oldest first. */
  private readonly outbox = new Map<string, PendingWrite>();
  private readonly people = new Map<string, PresenceRow>();
  private readonly notesFeed: LiveHandle<NoteRow>;
  private readonly feeds: { close(): void }[];
  private readonly listeners: { [E in keyof NotebookEvents]: Set<NotebookEvents[E]> } = {
    change: new Set(),
    status: new Set(),
    rejected: new Set(),
    error: new Set(),
  };
  private flushing = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retries = 0;
  private presenceNow: { state: PresenceState; noteKey: string | null } = { state: 'online', noteKey: null };

  constructor(
    private readonly app: NotesApp,
    readonly id: string,
  ) {
    const saved = app.storage.load<SavedNotebook>(`notebook:${id}`);
    for (const row of saved?.notes ?? []) this.rows.set(row.key, row);
    for (const write of saved?.outbox ?? []) this.outbox.set(write.key, write);
    for (const stamped of [...this.rows.values(), ...this.outbox.values()]) app.clock.observe(stamped.stamp);

    const client = app.client;
    this.notesFeed = client
      .resource(id)
      .table<NoteRow>('notes')
      .select()
      .live()
      .on('insert', row => this.received(row))
      .on('update', row => this.received(row))
      .on('delete', ({ id: rowId }) => this.removed(rowId))
      .on('status', status => this.statusChanged(status))
      // A feed that ends for good (a refused credential, access lost): status 'closed'.
      .on('error', error => this.emit('error', error));
    const presence = client
      .resource(id)
      .table<PresenceRow>('presence')
      .select()
      .live()
      .on('insert', row => this.seen(row))
      .on('update', row => this.seen(row))
      .on('delete', ({ id: rowId }) => {
        if (rowId && this.people.delete(rowId)) this.emit('change');
      });
    // A grant given or taken in one of this notebook's rooms changes which notes you may read, and
    // no note changed: read the notes feed's snapshot again (the SDK reports only the difference).
    const grants = client.rooms.live();
    for (const op of ['insert', 'update', 'delete'] as const) {
      grants.on(op, (grant, { snapshot }) => {
        if (grant.resourceId === id && !snapshot) this.notesFeed.resync();
      });
    }
    this.feeds = [this.notesFeed, presence, grants];
  }

  on<E extends keyof NotebookEvents>(event: E, listener: NotebookEvents[E]): () => void {
    this.listeners[event].add(listener);
    return () => this.listeners[event].delete(listener);
  }

  /** The notes to show: the server's with this device's pending edits over them, by title. */
  notes(): Note[] {
    const shown = new Map<string, Note>();
    for (const row of this.rows.values()) {
      if (!row.deleted) shown.set(row.key, { key: row.key, title: row.title, body: row.body, roomId: row.roomId, pending: false });
    }
    for (const write of this.outbox.values()) {
      const row = this.rows.get(write.key);
      // The server already holds this edit, or a later one that wins over it.
      if (row && row.stamp >= write.stamp) continue;
      if (write.deleted) shown.delete(write.key);
      else shown.set(write.key, { key: write.key, title: write.title, body: write.body, roomId: row ? row.roomId : write.roomId, pending: true });
    }
    return [...shown.values()].sort((a, b) => a.title.localeCompare(b.title) || a.key.localeCompare(b.key));
  }

  /** Edits waiting to be written. */
  get pendingWrites(): number {
    return this.outbox.size;
  }

  /** Adds a note (to a room of the notebook, or its default room); answers its key. */
  add(note: { title: string; body?: string; roomId?: string | null }): string {
    const key = crypto.randomUUID();
    this.enqueue({ key, title: note.title, body: note.body ?? '', deleted: false, roomId: note.roomId ?? null });
    return key;
  }

  edit(key: string, change: { title?: string; body?: string }): void {
    const note = this.note(key);
    this.enqueue({ key, title: change.title ?? note.title, body: change.body ?? note.body, deleted: false, roomId: note.roomId });
  }

  remove(key: string): void {
    const note = this.note(key);
    this.enqueue({ key, title: note.title, body: note.body, deleted: true, roomId: note.roomId });
  }

  /** Resolves once the feed is live (the notes are the server's), offline, or closed (an `error` says why). */
  opened(): Promise<LiveStatus> {
    return this.untilStatus(status => status !== 'connecting');
  }

  /** Resolves once every edit of this device is written (or refused). */
  synced(): Promise<void> {
    return new Promise(resolve => {
      const check = () => {
        if (this.outbox.size > 0) return;
        stop();
        resolve();
      };
      const stop = this.on('change', check);
      check();
    });
  }

  // Moving notes, presence and rooms need the connection: unlike note edits, they are not queued.

  /** Moves a note (written already) to a room, or with null to the default room: publishing a draft. */
  async move(key: string, roomId: string | null): Promise<void> {
    const row = this.rows.get(key);
    if (!row) throw new Error(`Note ${key} is not on the server yet: sync first.`);
    await this.app.client
      .resource(this.id)
      .table('notes')
      .moveRoom(row.id, roomId ?? this.id);
  }

  /**
   * Deletes the tombstones of notes deleted before `before` (admins: the `delete` rule). Safe to
   * run from two devices at once: the second deletes nothing. An edit made offline before a note's
   * deletion and replayed after its tombstone is gone brings the note back: keep tombstones longer
   * than a device may stay offline.
   */
  async compact(before: Date): Promise<number> {
    const gone = await this.app.client.resource(this.id).table<NoteRow>('notes').delete().eq('deleted', true).lt('updatedAt', before.toISOString());
    return gone.length;
  }

  /** Who has the notebook open, on which device. */
  presence(): PresenceRow[] {
    return [...this.people.values()].sort((a, b) => a.memberId.localeCompare(b.memberId) || a.device.localeCompare(b.device));
  }

  /** Tells the others what you are doing (sent now when live, else once the feed is live again). */
  async setPresence(state: PresenceState, noteKey: string | null = null): Promise<void> {
    this.presenceNow = { state, noteKey };
    if (this.status === 'live') await this.announce();
  }

  /** Says goodbye (presence `offline`, when live) and closes the feeds. The outbox stays saved. */
  async close(): Promise<void> {
    clearTimeout(this.retryTimer);
    if (this.status === 'live') await this.setPresence('offline').catch(() => {});
    for (const feed of this.feeds) feed.close();
  }

  private note(key: string): Note {
    const note = this.notes().find(n => n.key === key);
    if (!note) throw new Error(`No note ${key} in this notebook.`);
    return note;
  }

  private enqueue(write: Omit<PendingWrite, 'stamp'>): void {
    const stamped = { ...write, stamp: this.app.clock.next() };
    this.outbox.delete(write.key);
    this.outbox.set(write.key, stamped);
    this.saved();
    void this.flush();
  }

  /** A note as the server holds it, from the feed or a write's answer: the later stamp stays. */
  private received(row: NoteRow): void {
    this.app.clock.observe(row.stamp);
    const known = this.rows.get(row.key);
    if (known && known.stamp > row.stamp) return;
    this.rows.set(row.key, row);
    this.saved();
  }

  private removed(rowId: string | undefined): void {
    for (const [key, row] of this.rows) {
      if (row.id !== rowId) continue;
      this.rows.delete(key);
      this.saved();
      return;
    }
  }

  private seen(row: PresenceRow): void {
    this.people.set(row.id, row);
    this.emit('change');
  }

  private statusChanged(status: LiveStatus): void {
    this.status = status;
    if (status === 'live') {
      // The feed holds the server's notes now: those saved last time may include some deleted since.
      this.rows = new Map(this.notesFeed.rows().map(row => [row.key, row]));
      this.saved();
      this.announce().catch(error => this.emit('error', error));
      void this.flush();
    }
    this.emit('status', status);
    this.emit('change');
  }

  private async announce(): Promise<void> {
    const { state, noteKey } = this.presenceNow;
    await this.app.client
      .resource(this.id)
      .table('presence')
      .upsert(
        { memberId: this.app.me.id, device: this.app.device, state, noteKey, seenAt: new Date(this.app.now()).toISOString() },
        { onConflict: ['memberId', 'device'] },
      );
  }

  /** Writes the outbox, oldest first, while the feed is live. */
  private async flush(): Promise<void> {
    if (this.flushing || this.status !== 'live') return;
    this.flushing = true;
    try {
      for (let write = this.oldest(); write && this.status === 'live'; write = this.oldest()) {
        try {
          // What the server holds now, shown at once: the feed may bring it a moment later.
          const row = await this.write(write);
          if (row) this.received(row);
          this.retries = 0;
        } catch (error) {
          if (!refused(error)) {
            // Offline after all, or the server is busy: keep it; the next 'live' or a timer tries again.
            this.retryLater();
            return;
          }
          this.emit('rejected', write, error as Error);
        }
        if (this.outbox.get(write.key) === write) this.outbox.delete(write.key);
        this.saved();
      }
    } finally {
      this.flushing = false;
    }
  }

  private oldest(): PendingWrite | undefined {
    return this.outbox.values().next().value;
  }

  private retryLater(): void {
    if (this.retryTimer) return;
    const delay = Math.min(RETRY_MS.max, RETRY_MS.first * 2 ** this.retries++);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.flush();
    }, delay);
  }

  /**
   * One edit, last writer wins: written only over an older stamp, wherever the note is now.
   * Answers the note as the server holds it after: this edit, or the later one that won.
   */
  private async write(write: PendingWrite): Promise<NoteRow | null> {
    const values = { title: write.title, body: write.body, deleted: write.deleted, stamp: write.stamp };
    let taken = false;
    for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
      // Across every room you read: the note may have moved while this edit waited.
      const current = await this.app.client.resource(this.id).table<NoteRow>('notes').select().eq('key', write.key).maybeSingle();
      // A later edit is there already: it wins, and this one is dropped.
      if (current && current.stamp >= write.stamp) return current;
      const notes = this.app.client.room(current?.roomId ?? write.roomId ?? this.id, this.id).table<NoteRow>('notes');
      if (!current) {
        if (taken) throw new Error(`Note ${write.key} is in a room you no longer read; this edit was not saved.`);
        try {
          return await notes.insert({ key: write.key, ...values });
        } catch (error) {
          // Written meanwhile (this very edit, whose answer was lost): read it again.
          if (!(error instanceof GatehouseError && error.code === 'unique_violation')) throw error;
          taken = true;
          continue;
        }
      }
      // The server compares the stamps as it writes: an edit landing in between wins over this one.
      const [changed] = await notes.update(values).eq('key', write.key).lt('stamp', write.stamp);
      if (changed) return changed;
    }
    throw new Error(`Note ${write.key} kept changing while this edit was written; it was not saved.`);
  }

  private saved(): void {
    const saved: SavedNotebook = { notes: [...this.rows.values()], outbox: [...this.outbox.values()] };
    this.app.storage.save(`notebook:${this.id}`, saved);
    this.emit('change');
  }

  private untilStatus(done: (status: LiveStatus) => boolean): Promise<LiveStatus> {
    return new Promise(resolve => {
      const check = () => {
        if (!done(this.status)) return;
        stop();
        resolve(this.status);
      };
      const stop = this.on('status', check);
      check();
    });
  }

  private emit<E extends keyof NotebookEvents>(event: E, ...args: Parameters<NotebookEvents[E]>): void {
    for (const listener of [...this.listeners[event]]) (listener as (...a: Parameters<NotebookEvents[E]>) => void)(...args);
  }
}
