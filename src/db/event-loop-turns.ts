/**
 * The embedded database runs in this thread: each statement is synchronous WebAssembly, and the
 * awaits between a transaction's statements resolve at once, as microtasks. A transaction of many
 * statements was therefore one unbroken run: no socket was read, no timer fired (GET /healthz
 * waited seconds behind one bulk write). `giveTurn()` before a statement hands the event loop a
 * turn once work has run this long without one.
 */
const SLICE_MS = 10;

let turned = true;
let since = 0;

/** Resolves at once, or after one turn of the event loop when this thread has run SLICE_MS without one. */
export function giveTurn(): Promise<void> | undefined {
  if (turned) {
    // The first statement since the loop last turned: start the clock, and note the next turn.
    turned = false;
    since = performance.now();
    setImmediate(() => {
      turned = true;
    });
    return undefined;
  }
  if (performance.now() - since < SLICE_MS) return undefined;
  return new Promise(resolve => setImmediate(resolve));
}
