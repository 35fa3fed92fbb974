import { describe, expect, it } from 'vitest';
import { newRowId } from './row-id.service.js';

describe('newRowId', () => {
  it('is a UUIDv7 (version 7, RFC 9562 variant) carrying the current millisecond', () => {
    const before = Date.now();
    const id = newRowId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const ms = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now() + 1);
  });

  it('increases within one process, also many ids in one millisecond (the id tie-break keeps insert order)', () => {
    const ids = Array.from({ length: 5000 }, () => newRowId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
