/** `grantsJson`, the grants column of a membership write statement, and how its answer is read. */
import { describe, expect, it } from 'vitest';
import { sqlOver } from '../db/sql.js';
import { grantDeletesOf, grantsJson } from './room-events.service.js';

const db = sqlOver(() => Promise.reject(new Error('compile only')));

describe('grantsJson', () => {
  it('sends the resource and principal as parameters, in the order grantDeletes reads them', () => {
    const compiled = grantsJson('res_1', "usr_'1").compile(db);
    expect(compiled.parameters).toEqual(['res_1', "usr_'1"]);
    expect(compiled.sql).toContain('g.resource_id = $1 AND g.principal_id = $2');
    expect(compiled.sql).toContain('ORDER BY g.room_id, g.principal_id');
  });
});

describe('grantDeletesOf', () => {
  const grant = { resourceId: 'res_1', roomId: 'room_1', principalId: 'usr_1', role: 'writer' as const };
  const event = { op: 'delete', deploymentId: 'dep_1', principalId: 'usr_1', row: { resourceId: 'res_1', roomId: 'room_1', role: 'writer' } };

  it('reads the column as the driver returns it: parsed JSON or its text', () => {
    expect(grantDeletesOf('dep_1', [grant])).toEqual([event]);
    expect(grantDeletesOf('dep_1', JSON.stringify([grant]))).toEqual([event]);
  });

  it('reads no grants (SQL NULL) as no events', () => {
    expect(grantDeletesOf('dep_1', null)).toEqual([]);
  });
});
