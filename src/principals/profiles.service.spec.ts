import { describe, expect, it } from 'vitest';
import type { PrincipalCaller } from '../core/caller.rules.js';
import type { ServiceDeps } from '../core/deps.js';
import { countLookup, profileLookups } from './profiles.service.js';

const callerOf = (principalId: string, appId = 'app_1') =>
  ({
    type: 'principal',
    principal: { id: principalId, kind: 'user', ownerId: null },
    deployment: { id: 'dep_1', appId },
  }) as unknown as PrincipalCaller;

function lookupDeps(limit: number) {
  let clock = 0;
  const now = () => new Date(clock);
  const deps = { now, config: { quotas: { profileLookupsPerMinute: limit } } as ServiceDeps['config'], profileLookups: profileLookups(now) };
  return { deps, advance: (ms: number) => void (clock += ms) };
}

describe('countLookup', () => {
  it('refuses the lookup past the limit in a window, with the seconds left', () => {
    const { deps, advance } = lookupDeps(2);
    countLookup(deps, callerOf('usr_1'));
    countLookup(deps, callerOf('usr_1'));
    advance(20_000);
    expect(() => countLookup(deps, callerOf('usr_1'))).toThrow(expect.objectContaining({ code: 'too_many_lookups', details: { retryAfter: 40 } }));
  });

  it('counts per person and app, and starts again when the window ends', () => {
    const { deps, advance } = lookupDeps(1);
    countLookup(deps, callerOf('usr_1'));
    countLookup(deps, callerOf('usr_2'));
    countLookup(deps, callerOf('usr_1', 'app_2'));
    expect(() => countLookup(deps, callerOf('usr_1'))).toThrow(expect.objectContaining({ code: 'too_many_lookups' }));
    advance(60_000);
    countLookup(deps, callerOf('usr_1'));
  });
});
