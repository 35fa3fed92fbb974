/** File buckets in app schemas (docs/api.md §5.5, §13): what the builders compile to and what validation refuses. */
import { describe, expect, it } from 'vitest';
import { SchemaValidationError, defineSchema, validateSchemaIR, type SchemaIssue } from './index.js';
import { parseSize } from './bucket-builder.js';

function problemsOf(define: () => unknown): SchemaIssue[] {
  try {
    define();
  } catch (error) {
    if (error instanceof SchemaValidationError) return error.issues;
    throw error;
  }
  return [];
}

const album = {
  visibility: { default: 'members', allow: ['members'] },
  defaultRole: 'reader',
  grant: { owner: 'admin', admin: 'writer', writer: null, reader: null },
  static: [],
  shares: [],
  owns: [],
};
const withBuckets = (buckets: Record<string, unknown>) => ({ version: 1, tables: {}, resources: { album }, buckets });
const bucket = (over: Record<string, unknown> = {}) => ({ maxBytes: 1024, contentTypes: ['*/*'], access: null, ownedBy: 'album', ...over });

describe('defineSchema: buckets', () => {
  it("compiles user buckets and a resource type's buckets", () => {
    const ir = defineSchema({
      files: { avatars: { maxSize: '2MB', accept: ['image/*'] } },
      resources: { album: r => r.files('photos', { maxSize: '20MB', accept: ['image/png', 'image/jpeg'], access: { upload: ['admin'] } }) },
    });
    expect(ir.buckets).toEqual({
      avatars: { maxBytes: 2 * 1024 * 1024, contentTypes: ['image/*'], access: null, ownedBy: null },
      photos: { maxBytes: 20 * 1024 * 1024, contentTypes: ['image/png', 'image/jpeg'], access: { upload: ['admin'] }, ownedBy: 'album' },
    });
    expect(validateSchemaIR(JSON.parse(JSON.stringify(ir)))).toEqual(ir);
  });

  it('defaults: 10 MiB, any type, default rules; no buckets key without buckets', () => {
    expect(defineSchema({ resources: { album: r => r.files('docs') } }).buckets?.docs).toEqual({
      maxBytes: 10 * 1024 * 1024,
      contentTypes: ['*/*'],
      access: null,
      ownedBy: 'album',
    });
    expect(defineSchema({}).buckets).toBeUndefined();
  });

  it('a bucket name is one per schema', () => {
    const issues = problemsOf(() => defineSchema({ files: { photos: {} }, resources: { album: r => r.files('photos') } }));
    expect(issues.map(i => i.message).join()).toMatch(/bucket "photos" is also declared/);
  });

  it.each<[string | number, number]>([
    ['500KB', 500 * 1024],
    ['1.5 MB', 1.5 * 1024 * 1024],
    ['1GB', 1024 ** 3],
    [4096, 4096],
    ['lots', Number.NaN],
  ])('parseSize(%j)', (size, bytes) => {
    expect(parseSize(size)).toBe(bytes);
  });
});

describe('validateSchemaIR: buckets', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['an unknown owner type', { b: bucket({ ownedBy: 'shelf' }) }, /ownedBy names unknown resource type "shelf"/],
    ['a bad name', { 'Bad-Name': bucket() }, /bucket name "Bad-Name"/],
    ['zero bytes', { b: bucket({ maxBytes: 0 }) }, /at least 1/],
    ['over 5 GiB', { b: bucket({ maxBytes: 6 * 1024 ** 3 }) }, /at most/],
    ['a fractional size', { b: bucket({ maxBytes: 1.5 }) }, /whole number/],
    ['no media types', { b: bucket({ contentTypes: [] }) }, /at least one media type/],
    ['a malformed media type', { b: bucket({ contentTypes: ['image'] }) }, /lower-case media type/],
    ['an upper-case media type', { b: bucket({ contentTypes: ['Image/PNG'] }) }, /lower-case media type/],
    ['a repeated media type', { b: bucket({ contentTypes: ['image/png', 'image/png'] }) }, /listed twice/],
    ['an unknown action', { b: bucket({ access: { create: ['writer'] } }) }, /create/],
    ['"none" with another rule', { b: bucket({ access: { read: ['none', 'reader'] } }) }, /"none" forbids/],
    ['rules on a user bucket', { b: bucket({ ownedBy: null, access: { read: ['reader'] } }) }, /user bucket/],
    ['an unknown key', { b: { ...bucket(), maxSize: 3 } }, /maxSize/],
  ])('refuses %s', (_what, buckets, message) => {
    const issues = problemsOf(() => validateSchemaIR(withBuckets(buckets)));
    expect(issues.map(i => `${i.path}: ${i.message}`).join('\n')).toMatch(message);
  });

  it('reads a schema deployed before buckets existed', () => {
    expect(validateSchemaIR({ version: 1, tables: {}, resources: { album } }).buckets).toBeUndefined();
  });
});
