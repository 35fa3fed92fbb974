import { describe, expect, it } from 'vitest';
import { handleSeed } from './handles.service.js';

describe('handle seeds (docs/api.md §4.7, consent rule 5)', () => {
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
