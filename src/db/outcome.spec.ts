import { describe, expect, it } from 'vitest';
import { refusedByServer } from './outcome.js';

describe('refusedByServer', () => {
  it.each([
    ['a unique violation', { code: '23505', severity: 'ERROR' }, true],
    ['a statement timeout', { code: '57014', severity: 'ERROR' }, true],
    ['a localized ERROR', { code: '40P01', severity: 'FEHLER' }, true],
    ['the backend terminated by an operator', { code: '57P01', severity: 'FATAL' }, false],
    ['a localized FATAL of a shutdown', { code: '57P02', severity: 'SCHWERWIEGEND' }, false],
    ['a connection exception', { code: '08006', severity: 'FATAL' }, false],
    ['a FATAL of another class', { code: 'XX000', severity: 'FATAL' }, false],
    ['a socket reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), false],
    ['a connection terminated', new Error('Connection terminated unexpectedly'), false],
    ['nothing', undefined, false],
  ])('%s', (_, error, refused) => {
    expect(refusedByServer(error)).toBe(refused);
  });
});
