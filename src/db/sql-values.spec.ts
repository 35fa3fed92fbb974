import { describe, expect, it } from 'vitest';
import { parseUtcTimestamp } from './sql-values.js';

/** What the Date string parser reads a timestamp's text as (the reading before the digit-by-digit one). */
const byDateParser = (text: string) => new Date(`${text.replace(' ', 'T')}Z`).getTime();

const pad = (value: number, width: number) => String(value).padStart(width, '0');

describe('parseUtcTimestamp', () => {
  it('reads every shape PostgreSQL writes as the Date parser does, fractions truncated to milliseconds', () => {
    const texts = [
      '2026-11-26 17:40:00',
      '2026-11-26 17:40:00.1',
      '2026-11-26 17:40:00.12',
      '2026-11-26 17:40:00.123',
      '2026-11-26 17:40:00.1239',
      '2026-11-26 17:40:00.12399',
      '2026-11-26 17:40:00.999999',
      '2024-02-29 23:59:59.5',
      '1970-01-01 00:00:00',
      '1969-12-31 23:59:59.999',
      '0100-01-01 00:00:00',
      '9999-12-31 23:59:59.999999',
    ];
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    for (let i = 0; i < 2000; i++) {
      const fraction = random(7);
      texts.push(
        `${pad(100 + random(9900), 4)}-${pad(1 + random(12), 2)}-${pad(1 + random(28), 2)} ${pad(random(24), 2)}:${pad(random(60), 2)}:${pad(random(60), 2)}` +
          (fraction ? `.${pad(random(10 ** fraction), fraction)}` : ''),
      );
    }
    for (const text of texts) expect([text, parseUtcTimestamp(text).getTime()]).toEqual([text, byDateParser(text)]);
  });

  it('leaves any other text to the Date parser: BC, infinity, years before 100, fields out of range, other separators', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '2026-11-26 17:40:00 BC',
      '0050-01-01 00:00:00',
      '2026-11-26 24:00:00',
      '2026-11-26 23:59:60',
      '2026-13-01 00:00:00',
      '2026-11-26 17:40:00.',
      '2026-11-26 17:40:00.1234567',
      '2026-11-26T17:40:00',
      '12026-11-26 17:40:00',
      '2026-1a-26 17:40:00',
    ]) {
      expect([text, parseUtcTimestamp(text).getTime()]).toEqual([text, byDateParser(text)]);
    }
  });
});
