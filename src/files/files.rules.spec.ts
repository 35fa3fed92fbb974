import { describe, expect, it } from 'vitest';
import { acceptsType, etagMatches, fileRule, parseFilePath, parsePathPrefix, parseRange } from './files.rules.js';

describe('acceptsType', () => {
  it.each<[string[], string, boolean]>([
    [['*/*'], 'application/octet-stream', true],
    [['image/*'], 'image/png', true],
    [['image/*'], 'IMAGE/PNG; charset=binary', true],
    [['image/*'], 'text/plain', false],
    [['image/png'], 'image/png', true],
    [['image/png'], 'image/jpeg', false],
    [['text/*', 'image/png'], 'text/markdown', true],
    [['*/*'], 'not a type', false],
    [['*/*'], '', false],
  ])('%j accepts %j: %s', (accepted, type, expected) => {
    expect(acceptsType(accepted, type)).toBe(expected);
  });
});

describe('parseFilePath', () => {
  it.each(['a.txt', 'dir/sub/file.png', 'ünïcode/名前.txt', 'a'.repeat(1024)])('accepts %j', path => {
    expect(parseFilePath(path)).toBe(path.normalize('NFC'));
  });
  it.each(['', '/abs', 'trailing/', 'a//b', 'a/../b', '..', './a', 'a\u0000b', 'a\u0007b', 'a\\b', 'é'.repeat(513)])('refuses %j', path => {
    expect(() => parseFilePath(path)).toThrow(expect.objectContaining({ code: 'invalid_path' }));
  });
  it('prefixes may end with a slash', () => {
    expect(parsePathPrefix('photos/')).toBe('photos/');
    expect(parsePathPrefix(null)).toBe('');
  });
});

describe('parseRange (RFC 9110 §14)', () => {
  it.each<[string | null, number, ReturnType<typeof parseRange>]>([
    [null, 10, null],
    ['bytes=0-4', 10, { start: 0, end: 4 }],
    ['bytes=5-', 10, { start: 5, end: 9 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=8-100', 10, { start: 8, end: 9 }],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=5-2', 10, null],
    ['bytes=0-1,4-5', 10, null],
    ['items=0-1', 10, null],
    ['bytes=0-0', 0, 'unsatisfiable'],
  ])('%j of %d bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe('validators and defaults', () => {
  it('etagMatches: *, lists and weak tags', () => {
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
  });
  it('default rules: members read, writers upload, authors and admins change', () => {
    expect(fileRule('read', null)).toEqual(['reader']);
    expect(fileRule('upload', null)).toEqual(['writer']);
    expect(fileRule('delete', { upload: ['admin'] })).toEqual(['creator', 'admin']);
    expect(fileRule('upload', { upload: ['admin'] })).toEqual(['admin']);
  });
});
