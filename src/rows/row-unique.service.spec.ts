import { describe, expect, it } from 'vitest';
import type { RowData } from './row-values.rules.js';
import { defineSchema } from '../schema/index.js';
import { bindingIn, userBinding } from './row-binding.service.js';
import { conflictKey, keyConditions, keysToCheck, uniqueKeys, uniqueLockKeys } from './row-unique.service.js';
import { upsertItems } from './row-upsert.service.js';

const schema = defineSchema({
  tables: {
    contacts: t => t.text('email').notNull().unique().text('first').text('last').integer('age').unique(['first', 'last']),
  },
  resources: { team: r => r.visibility('members').owns('plain', t => t.text('title')) },
});
const contacts = userBinding(schema, 'contacts');
const plain = bindingIn(schema, 'team', 'plain');

const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe('unique keys (docs/api.md §11.3)', () => {
  it('each unique() column alone, then each unique([...]) set', () => {
    expect(uniqueKeys(contacts.table)).toEqual([['email'], ['first', 'last']]);
    expect(uniqueKeys(plain.table)).toEqual([]);
  });

  it.each<[string, RowData, string[] | null, string[][]]>([
    ['an insert checks every key whose columns all hold a value', { email: 'a@x', first: 'A', last: 'B' }, null, [['email'], ['first', 'last']]],
    ['a key with a column null or absent is not checked', { email: 'a@x', first: 'A', last: null }, null, [['email']]],
    ['an update checks only the keys it changed a column of', { email: 'a@x', first: 'A', last: 'B', age: 3 }, ['last'], [['first', 'last']]],
    ['an update of no key column checks none', { email: 'a@x', first: 'A', last: 'B', age: 3 }, ['age'], []],
  ])('%s', (_, data, changed, expected) => {
    expect(keysToCheck(contacts.table, data, changed)).toEqual(expected);
  });

  it('lock keys: one per scope, key and values, each once, in one order whatever the order asked', () => {
    const keys = uniqueLockKeys(
      'dep_1',
      contacts,
      [
        { kind: 'resource', id: 'res_b' },
        { kind: 'user', id: 'usr_1' },
        { kind: 'resource', id: 'res_b' },
        { kind: 'resource', id: 'res_a' },
      ],
      [['email'], ['first', 'last']],
      { email: 'a@x', first: 'A', last: 'B' },
    );
    expect(keys).toEqual([
      'rows-unique:dep_1:contacts:resource:res_a:email="a@x"',
      'rows-unique:dep_1:contacts:resource:res_a:first,last="A","B"',
      'rows-unique:dep_1:contacts:resource:res_b:email="a@x"',
      'rows-unique:dep_1:contacts:resource:res_b:first,last="A","B"',
      'rows-unique:dep_1:contacts:user:usr_1:email="a@x"',
      'rows-unique:dep_1:contacts:user:usr_1:first,last="A","B"',
    ]);
  });

  it('lock keys: values the check finds equal name one lock, other values another', () => {
    const lock = (data: RowData) => uniqueLockKeys('dep_1', contacts, [{ kind: 'user', id: 'usr_1' }], [['first', 'last']], data);
    expect(lock({ first: 'A', last: 'B' })).toEqual(lock({ last: 'B', first: 'A', age: 3 }));
    expect(lock({ first: 'A', last: 'B' })).not.toEqual(lock({ first: 'A', last: 'b' }));
    expect(lock({ first: 'A,B', last: '' })).not.toEqual(lock({ first: 'A', last: 'B,' }));
  });

  it("a key's conditions compare each column to the row's value", () => {
    expect(keyConditions(contacts, ['first', 'last'], { first: 'A', last: 'B' })).toEqual([
      { field: { kind: 'column', name: 'first', type: 'text' }, op: 'eq', value: 'A' },
      { field: { kind: 'column', name: 'last', type: 'text' }, op: 'eq', value: 'B' },
    ]);
  });
});

describe('upsert input', () => {
  it('onConflict names a unique key, its columns in any order', () => {
    expect(conflictKey(contacts, ['last', 'first'])).toEqual(['first', 'last']);
    expect(conflictKey(contacts, ['email', 'email'])).toEqual(['email']);
    expect(code(() => conflictKey(contacts, ['first']))).toBe('invalid_operation');
    expect(code(() => conflictKey(plain, ['title']))).toBe('invalid_operation');
  });

  it('each value names every key column, checked as an update would be', () => {
    const items = upsertItems(contacts, [{ email: 'a@x', age: 3 }, { email: 'b@x' }], ['email']);
    expect(items.map(i => i.change.set)).toEqual([{ email: 'a@x', age: 3 }, { email: 'b@x' }]);
    expect(code(() => upsertItems(contacts, [{ email: 'a@x' }, { age: 3 }], ['email']))).toBe('missing_value');
    expect(code(() => upsertItems(contacts, [], ['email']))).toBe('invalid_value');
    expect(
      code(() =>
        upsertItems(
          contacts,
          Array.from({ length: 101 }, (_, i) => ({ email: `${i}@x` })),
          ['email'],
        ),
      ),
    ).toBe('invalid_value');
  });
});
