/** An invite link's preview (read only): each state of a link answers as a claim would. */
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import { preview } from './invite-links.service.js';

const NOW = new Date('2026-01-02T00:00:00Z');
const CODE = `inv_${'a'.repeat(43)}`;
const resource = { id: 'res_1', name: 'Team', type: 'team', deployment: { appId: 'app_1', env: 'prod', app: { name: 'Demo' } } };

const depsWith = (link: object | null) => ({
  prisma: { inviteLink: { findUnique: async () => link } } as never,
  now: () => NOW,
});

const codeOf = async (work: Promise<unknown>) => {
  try {
    await work;
    return 'no error';
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
};

describe('preview', () => {
  it('shows the resource, role and app of a live link', async () => {
    const link = { role: 'writer', usedAt: null, expiresAt: new Date(NOW.getTime() + 1000), resource };
    expect(await preview(depsWith(link), CODE)).toEqual({
      appId: 'app_1',
      appName: 'Demo',
      env: 'prod',
      resourceId: 'res_1',
      resourceName: 'Team',
      resourceType: 'team',
      role: 'writer',
    });
  });

  it('refuses a malformed code without a lookup, and an unknown one', async () => {
    const failing = { prisma: { inviteLink: { findUnique: async () => expect.unreachable() } } as never, now: () => NOW };
    expect(await codeOf(preview(failing, 'inv_short'))).toBe('invite_link_not_found');
    expect(await codeOf(preview(depsWith(null), CODE))).toBe('invite_link_not_found');
  });

  it('answers used before expired, and expired at its expiry instant', async () => {
    const used = { role: 'writer', usedAt: NOW, expiresAt: NOW, resource };
    expect(await codeOf(preview(depsWith(used), CODE))).toBe('invite_link_used');
    const expired = { role: 'writer', usedAt: null, expiresAt: NOW, resource };
    expect(await codeOf(preview(depsWith(expired), CODE))).toBe('invite_link_expired');
  });
});
