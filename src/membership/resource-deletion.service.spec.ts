/** The dashboard's resource deletion refuses a resource of another app before taking any lock. */
import { describe, expect, it } from 'vitest';
import { isAppError } from '../errors.js';
import { deleteAsOwner } from './resource-deletion.service.js';

const depsFinding = (found: object | null) => ({
  prisma: { resource: { findUnique: async () => found } } as never,
  now: () => new Date(),
  transaction: () => expect.unreachable('no transaction for a resource outside the app') as never,
  bus: {} as never,
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

describe('deleteAsOwner', () => {
  it('answers resource_not_found for a missing resource and for one of another app', async () => {
    expect(await codeOf(deleteAsOwner(depsFinding(null), 'usr_1', 'app_1', 'res_1'))).toBe('resource_not_found');
    const elsewhere = { deployment: { id: 'dep_2', appId: 'app_2', env: 'prod' } };
    expect(await codeOf(deleteAsOwner(depsFinding(elsewhere), 'usr_1', 'app_1', 'res_1'))).toBe('resource_not_found');
  });
});
