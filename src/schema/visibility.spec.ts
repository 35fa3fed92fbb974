import { describe, expect, it } from 'vitest';
import { VISIBILITY_NAMES, compileVisibility } from './index.js';

describe('docs/api.md §5.1: the stored (visibility, discoverable) pair compiled from the schema enum', () => {
  it.each([
    ['members', { visibility: 'members', discoverable: false }],
    ['unlisted', { visibility: 'public', discoverable: false }],
    ['discoverable', { visibility: 'public', discoverable: true }],
  ] as const)('%s gives %o', (name, pair) => {
    expect(compileVisibility(name)).toEqual(pair);
  });

  it('covers every schema visibility', () => {
    expect(VISIBILITY_NAMES).toEqual(['members', 'unlisted', 'discoverable']);
  });
});
