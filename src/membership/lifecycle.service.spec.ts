/** The link parts a membership write statement joins: values go as parameters, the guard as given. */
import { describe, expect, it } from 'vitest';
import { sql, sqlOver } from '../db/sql.js';
import { dropVisibleLinks, removalIsDropOnly, unhideLinks } from './lifecycle.service.js';

const db = sqlOver(() => Promise.reject(new Error('compile only')));
const when = sql`(SELECT ok FROM guard)`;

describe('dropVisibleLinks and unhideLinks', () => {
  it('take the principal and resource as parameters and end with the guard', () => {
    for (const part of [dropVisibleLinks('res_1', 'usr_1', when), unhideLinks('res_1', 'usr_1', when)]) {
      const compiled = part.compile(db);
      expect(compiled.parameters).toEqual(['usr_1', 'res_1']);
      expect(compiled.sql).toMatch(/w\.creator_id = \$1 AND l\.resource_id = \$2 AND .*\(SELECT ok FROM guard\)\s*$/);
    }
  });

  it('drop only visible links and unhide only hidden ones', () => {
    expect(dropVisibleLinks('r', 'p', when).compile(db).sql).toContain('NOT l.hidden');
    expect(unhideLinks('r', 'p', when).compile(db).sql).toMatch(/SET hidden = false[\s\S]*AND l\.hidden AND/);
  });
});

describe('removalIsDropOnly', () => {
  it('holds only when every shared table removes its links', () => {
    expect(removalIsDropOnly([])).toBe(true);
    expect(removalIsDropOnly([{ onMemberRemove: 'remove' }] as never)).toBe(true);
    expect(removalIsDropOnly([{ onMemberRemove: 'remove' }, { onMemberRemove: 'hide' }] as never)).toBe(false);
    expect(removalIsDropOnly(undefined)).toBe(false);
  });
});
