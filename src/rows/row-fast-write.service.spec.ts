import { describe, expect, it } from 'vitest';
import { ROLES } from '../core/roles.rules.js';
import { ACCESS_RULE_NAMES, type AccessRule, passesAccessRule } from '../rooms/rooms.rules.js';
import { reachOf, reachesNothing, roleIn } from './row-access.rules.js';
import type { Binding } from './row-binding.service.js';
import { defaultRoomRoles } from './row-fast-write.service.js';

/** Every rule list of up to two entries: enough to meet each kind of entry alone and beside another. */
const RULES: AccessRule[][] = [[], ...ACCESS_RULE_NAMES.map(a => [a]), ...ACCESS_RULE_NAMES.flatMap(a => ACCESS_RULE_NAMES.map(b => [a, b]))];

describe('defaultRoomRoles: the default room judged role by role, as readable and admits judge the caller there', () => {
  it('matches reachOf and passesAccessRule for every role, whatever room grants the caller holds', () => {
    for (const read of RULES)
      for (const write of RULES) {
        const binding = { override: null, table: { access: { read, update: write } } } as unknown as Binding;
        const roles = defaultRoomRoles(binding, 'update');
        for (const role of ROLES) {
          const held = { resourceRole: role, grants: new Map([['room_0123456789', 'reader' as const]]) };
          const reach = reachOf(read, held, role, null, []);
          const where = JSON.stringify({ read, write, role });
          expect(roles.readAll.includes(role), where).toBe(reach.defaultRoom === 'all');
          expect(roles.readOwn.includes(role), where).toBe(reach.defaultRoom === 'own');
          const admits = (isCreator: boolean) => passesAccessRule(write, roleIn(held, null), isCreator, held.resourceRole);
          expect(roles.writeOwn.includes(role), where).toBe(!reachesNothing(reach) && admits(true));
          expect(roles.writeOthers.includes(role), where).toBe(admits(false));
        }
      }
  });
});
