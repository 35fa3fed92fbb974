/** openDatabase's choices that need no concurrency: backend selection, validation, descriptions. */
import { describe, expect, it } from 'vitest';
import { openDatabase, redactUrl } from '../../src/db/database.js';
import { createTestDatabase } from '../helpers/db.js';

describe('openDatabase', () => {
  it('refuses a URL that is not postgres:// or postgresql://, without echoing its password', async () => {
    const attempt = openDatabase({ databaseUrl: 'mysql://root:hunter2@localhost/db' });
    await expect(attempt).rejects.toThrow(/postgres:\/\/ or postgresql:\/\//);
    await expect(attempt).rejects.not.toThrow(/hunter2/);
  });

  it('describes an in-memory PGlite database', async () => {
    const db = await createTestDatabase();
    try {
      expect(db.kind).toBe('pglite');
      expect(db.describe()).toBe('PGlite in memory');
    } finally {
      await db.close();
    }
  });
});

describe('redactUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactUrl('postgresql://gate:s3cret@db.internal:5432/gatehouse?sslmode=require')).toBe(
      'postgresql://gate:***@db.internal:5432/gatehouse?sslmode=require',
    );
    expect(redactUrl('postgres://postgres@127.0.0.1:5432/test')).toBe('postgres://postgres@127.0.0.1:5432/test');
  });
});
