import { describe, expect, it } from 'vitest';
import { handleSeed } from './handles.js';

describe('handle seeds (spec 4.1 rule 5)', () => {
  it.each([
    ['Ada Lovelace', 'adalovelace'],
    ['Zoë van der Berg!', 'zoevanderberg'],
    ['  ', 'user'],
    [null, 'user'],
    ['李', 'user'],
    ['A very long display name indeed', 'averylongdisplayname'],
  ])('%s -> %s', (input, seed) => {
    expect(handleSeed(input)).toBe(seed);
  });
});
