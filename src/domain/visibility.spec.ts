import { describe, expect, it } from 'vitest';
import { VISIBILITY_NAMES, type VisibilityName, type VisibilityPair, compileVisibility, isPublic, isVisibilityName } from './visibility.js';

describe('2.1 visibility: stored pair compiled from the schema enum', () => {
  it('2.1: the schema enum is members, unlisted, discoverable', () => {
    expect([...VISIBILITY_NAMES].sort()).toEqual(['discoverable', 'members', 'unlisted']);
  });

  it.each<[string, VisibilityName, VisibilityPair, boolean]>([
    ['2.1: members gives (members, false): hidden from non-members, not self-joinable', 'members', { visibility: 'members', discoverable: false }, false],
    ['2.1: unlisted gives (public, false): viewable and joinable by id, not listed in browse', 'unlisted', { visibility: 'public', discoverable: false }, true],
    ['2.1: discoverable gives (public, true): listed in browse and self-joinable', 'discoverable', { visibility: 'public', discoverable: true }, true],
  ])('%s', (_, name, pair, isPublicResource) => {
    expect(compileVisibility(name)).toEqual(pair);
    expect(isPublic(compileVisibility(name))).toBe(isPublicResource);
  });

  it.each<[string, unknown, boolean]>([
    ['2.1: "members" is a visibility name', 'members', true],
    ['2.1: "unlisted" is a visibility name', 'unlisted', true],
    ['2.1: "discoverable" is a visibility name', 'discoverable', true],
    ['2.2: the stored value "public" is not a schema visibility name', 'public', false],
    ['2.1: a non-string is not a visibility name', true, false],
  ])('%s', (_, value, expected) => {
    expect(isVisibilityName(value)).toBe(expected);
  });

  it('2.1: a prototype key ("constructor") is not a visibility name', () => {
    expect(isVisibilityName('constructor')).toBe(false);
  });
});
