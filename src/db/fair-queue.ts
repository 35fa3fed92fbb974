/**
 * Turns on the embedded database's one connection, shared fairly between the parties that want
 * them. A party is whoever the work is for (a person, a developer, an address: `withParty`); turns
 * go round the waiting parties (the one just served goes last), so one client with many writes
 * queued waits behind its own work, not everyone else behind it. Within a party, turns are first
 * come, first served.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Who the work in this async scope is for; mutable so a request can name its caller once known. */
export interface Party {
  key: string;
}

const parties = new AsyncLocalStorage<Party>();

/** The party of work started outside any request (start-up, upkeep). */
const SYSTEM: Party = { key: 'system' };

/** Runs `fn` as `party`'s work: database turns it asks for queue under `party.key` (read when it asks). */
export function withParty<T>(party: Party, fn: () => T): T {
  return parties.run(party, fn);
}

/**
 * Runs `fn` as nobody's work (start-up, upkeep): a timer set inside a request would otherwise queue
 * its later turns under that request's party.
 */
export function asSystemWork<T>(fn: () => T): T {
  return parties.run(SYSTEM, fn);
}

export function currentParty(): string {
  return (parties.getStore() ?? SYSTEM).key;
}

export class FairQueue {
  /** Waiting parties, longest waiting first (a Map keeps insertion order), each with its waiters in order. */
  readonly #waiting = new Map<string, (() => void)[]>();
  /** The party whose turn it is, or null when the connection is free. */
  #holder: string | null = null;
  /** Turns that had to wait, and their waiting time in ms, since the queue was made (/metrics). */
  #waits = 0;
  #waitedMs = 0;

  /** Resolves with the turn's release (idempotent) once it is `party`'s turn. */
  acquire(party = currentParty()): Promise<() => void> {
    return new Promise(resolve => {
      const grant = () => resolve(this.#releaser());
      if (this.#holder === null) {
        this.#holder = party;
        grant();
        return;
      }
      const queuedAt = performance.now();
      const grantLater = () => {
        this.#waits++;
        this.#waitedMs += performance.now() - queuedAt;
        grant();
      };
      const queue = this.#waiting.get(party);
      if (queue) queue.push(grantLater);
      else this.#waiting.set(party, [grantLater]);
    });
  }

  /** How many turns are waiting, by party (diagnostics and tests). */
  waiting(): Record<string, number> {
    return Object.fromEntries([...this.#waiting].map(([party, queue]) => [party, queue.length]));
  }

  /** The one connection's use now and the waits for it so far (Database.usage). */
  usage() {
    let waiting = 0;
    for (const queue of this.#waiting.values()) waiting += queue.length;
    const busy = this.#holder !== null;
    return { max: 1, open: 1, idle: busy ? 0 : 1, waiting, waits: this.#waits, waitSeconds: this.#waitedMs / 1000 };
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#next();
    };
  }

  /** The next turn: the longest-waiting party other than the one just served, if any waits. */
  #next(): void {
    let party: string | undefined;
    for (const waiting of this.#waiting.keys()) {
      party ??= waiting;
      if (waiting !== this.#holder) {
        party = waiting;
        break;
      }
    }
    if (party === undefined) {
      this.#holder = null;
      return;
    }
    const queue = this.#waiting.get(party)!;
    const grant = queue.shift()!;
    // Served: to the back of the line, behind every party now waiting.
    this.#waiting.delete(party);
    if (queue.length) this.#waiting.set(party, queue);
    this.#holder = party;
    grant();
  }
}
