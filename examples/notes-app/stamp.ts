/**
 * Last-writer-wins stamps from a hybrid logical clock: the wall-clock time of the edit, a counter
 * for edits within one millisecond (or while this device's clock is behind a stamp it has seen),
 * and the device, as one string that sorts in time order:
 *
 *   2026-11-27T10:15:00.000Z~000000~test:app_1:alice/laptop
 *
 * A device's stamps only grow, and it moves its clock past every stamp it reads from the feed, so
 * an edit made after seeing another always sorts after it, whatever the two clocks say. Two edits
 * made without seeing each other (one of them offline) are ordered by their wall-clock times, the
 * device breaking a tie: the later edit wins.
 */
export type Stamp = string;

const COUNTER_DIGITS = 6;
const SEPARATOR = '~';

export class Clock {
  private wall = 0;
  private counter = 0;

  /** `device` must be unique to this device (the app uses `<userId>/<device name>`). */
  constructor(
    private readonly device: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A stamp later than every stamp this clock made or observed. */
  next(): Stamp {
    const now = this.now();
    if (now > this.wall) {
      this.wall = now;
      this.counter = 0;
    } else {
      this.counter++;
    }
    return [new Date(this.wall).toISOString(), String(this.counter).padStart(COUNTER_DIGITS, '0'), this.device].join(SEPARATOR);
  }

  /** Moves the clock past a stamp read from elsewhere, so this device's next edit sorts after it. */
  observe(stamp: Stamp): void {
    const [time, counter] = stamp.split(SEPARATOR);
    const wall = Date.parse(time);
    const count = Number(counter);
    if (Number.isNaN(wall) || Number.isNaN(count)) return;
    if (wall > this.wall || (wall === this.wall && count > this.counter)) {
      this.wall = wall;
      this.counter = count;
    }
  }
}
