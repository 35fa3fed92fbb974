/**
 * The fuzz's source of values: a seeded generator (the same seed makes the same requests) and the
 * hostile inputs every field is tried with: lone UTF-16 surrogates, NUL, huge strings, deep JSON,
 * wrong types, odd unicode, numbers at the edges, text that looks like code.
 */

export type Random = {
  /** A float in [0, 1). */
  next(): number;
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
};

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function seeded(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: max => Math.floor(next() * max),
    pick: items => items[Math.floor(next() * items.length)],
    chance: p => next() < p,
  };
}

/** Strings no field should choke on: each must be a 4xx with a code or an ordinary answer, never a 5xx. */
export const HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  'a\ud800b',
  '\udc00',
  '\ud83d',
  'x\u0000y',
  '\u0000',
  'a'.repeat(10_000),
  '\u202eevil',
  'e\u0301\u0301\u0301',
  '\ufeff',
  '\uffff\ufffe',
  '🏳️‍🌈👩‍👩‍👧',
  'Ω≈ç√∫˜µ≤≥÷',
  '𝕿𝖊𝖘𝖙',
  '\u0085\u2028\u2029',
  '\t\r\n',
  '../../etc/passwd',
  '%',
  '%zz',
  '%ED%A0%80',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE rows; --',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a log4j lookup, as an attacker sends it
  '${jndi:ldap://x}',
  '\r\nSet-Cookie: x=1',
  'null',
  'undefined',
  'true',
  '-1',
  '1e309',
  'NaN',
  '0001-01-01T00:00:00+14:00',
  '9999-12-31T23:59:59-14:00',
  '__proto__',
  'constructor',
  'gst_',
  'res_',
  'test:app:x',
];

export const HOSTILE_NUMBERS: readonly number[] = [0, -1, 1.5, -0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

/** Any JSON value of the wrong kind for whatever the field expects. */
export function wrongType(random: Random): unknown {
  return random.pick<() => unknown>([
    () => null,
    () => true,
    () => random.pick(HOSTILE_NUMBERS),
    () => random.pick(HOSTILE_STRINGS),
    () => [],
    () => [random.pick(HOSTILE_STRINGS)],
    () => ({}),
    () => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":1}}'),
    () => ({ nested: { deeper: [1, 'two', null, { three: false }] } }),
  ])();
}

/** The ones that broke something once (issue #24 items 18, 19): tried more often than the rest. */
const PRIORITY: readonly string[] = ['a\ud800b', '\udc00', 'x\u0000y', 'a'.repeat(10_000), '0001-01-01T00:00:00+14:00'];

/** A hostile value: most often a hostile string, else a wrong type. */
export const hostile = (random: Random): unknown =>
  random.chance(0.25) ? random.pick(PRIORITY) : random.chance(0.6) ? random.pick(HOSTILE_STRINGS) : wrongType(random);

/** JSON text nested `depth` levels (arrays or objects), written directly: JSON.stringify would recurse that deep. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * A string as one path segment. `encodeURIComponent` refuses lone surrogates, so those go as the
 * bytes a careless client would send (CESU-8, which is not UTF-8); the raw `%…` strings go as written.
 */
export function pathSegment(value: string): string {
  if (/^%/.test(value)) return value;
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out +=
        `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    } else out += encodeURIComponent(char);
  }
  return out;
}
