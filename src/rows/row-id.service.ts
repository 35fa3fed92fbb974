/** Row ids: UUIDv7, ordered within this process. */
import { idBytes } from '../lib/secrets.js';

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): milliseconds, then a 12-bit sequence, then randomness. Ids of one process
 * increase, so rows written in the same millisecond (one insert of several) keep their order under
 * the id tie-break, and primary-key inserts land at the right edge of the index.
 */
export function newRowId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs += 1;
    ms = lastMs;
  } else {
    lastMs = ms;
    sequence = 0;
  }
  const bytes = idBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
