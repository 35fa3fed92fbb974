/**
 * planRowWrite: the one write a transition's outcome takes, with the events, the member count and
 * the link effects the change set used to derive row by row (src/membership/membership-store.service.ts).
 */
import { describe, expect, it } from 'vitest';
import { PENDING_TTL_MS, type StoredMember, liveRow, planRowWrite } from './membership.rules.js';

const now = new Date('2026-01-10T12:00:00.000Z');
const fresh = new Date(now.getTime() + PENDING_TTL_MS);
const later = new Date(now.getTime() + 1000);
const earlier = new Date(now.getTime() - 1000);
const row = (state: StoredMember['state'], role: StoredMember['role'] = 'writer', expiresAt: Date | null = state === 'active' ? null : later) => ({
  role,
  state,
  expiresAt,
});

describe('planRowWrite', () => {
  it('none -> invited inserts with a fresh expiry', () => {
    expect(planRowWrite(null, { state: 'invited', role: 'writer' }, now)).toEqual({
      write: { kind: 'insert', role: 'writer', state: 'invited', expiresAt: fresh },
      purged: null,
      events: [{ op: 'insert', role: 'writer', state: 'invited' }],
      countDelta: 0,
      restoresLinks: false,
      endsActive: false,
    });
  });

  it('invited -> active updates, clears the expiry, counts and restores links', () => {
    const plan = planRowWrite(row('invited'), { state: 'active', role: 'writer' }, now);
    expect(plan.write).toEqual({ kind: 'update', role: 'writer', state: 'active', expiresAt: null });
    expect(plan).toMatchObject({ countDelta: 1, restoresLinks: true, endsActive: false, purged: null });
    expect(plan.events).toEqual([{ op: 'update', role: 'writer', state: 'active' }]);
  });

  it('a role change in the same pending state keeps the expiry', () => {
    expect(planRowWrite(row('invited'), { state: 'invited', role: 'reader' }, now).write).toEqual({
      kind: 'update',
      role: 'reader',
      state: 'invited',
    });
  });

  it('an unchanged row writes nothing', () => {
    const plan = planRowWrite(row('active'), { state: 'active', role: 'writer' }, now);
    expect(plan).toEqual({ write: { kind: 'none' }, purged: null, events: [], countDelta: 0, restoresLinks: false, endsActive: false });
  });

  it('active -> none deletes, ends the membership and uncounts it', () => {
    const plan = planRowWrite(row('active'), null, now);
    expect(plan).toMatchObject({ write: { kind: 'delete' }, countDelta: -1, endsActive: true, restoresLinks: false });
    expect(plan.events).toEqual([{ op: 'delete', role: 'writer', state: 'active' }]);
  });

  it('an expired row is purged, then the outcome is written over none', () => {
    const expired = row('requested', 'reader', earlier);
    expect(liveRow(expired, now)).toBeNull();
    const plan = planRowWrite(expired, { state: 'active', role: 'writer' }, now);
    expect(plan.write).toEqual({ kind: 'replace', role: 'writer', state: 'active', expiresAt: null });
    expect(plan.purged).toEqual({ op: 'delete', role: 'reader', state: 'requested' });
    expect(plan.events).toEqual([{ op: 'insert', role: 'writer', state: 'active' }]);
    expect(plan).toMatchObject({ countDelta: 1, restoresLinks: true });
  });

  it('an expired row with no outcome is deleted with only its purge event', () => {
    const plan = planRowWrite(row('invited', 'writer', now), null, now);
    expect(plan).toMatchObject({ write: { kind: 'delete' }, purged: { op: 'delete' }, events: [], countDelta: 0, endsActive: false });
  });

  it('no row and no outcome: nothing', () => {
    expect(planRowWrite(null, null, now).write).toEqual({ kind: 'none' });
  });
});
