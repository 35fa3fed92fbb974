import { describe, expect, it } from 'vitest';
import { usdToMicros } from '../config.js';
import { microsToUsd } from './wallet.service.js';

describe('microsToUsd', () => {
  it.each([
    [5_000_000n, '5.00'],
    [5_250_000n, '5.25'],
    [1n, '0.000001'],
    [1_234_567n, '1.234567'],
    [0n, '0.00'],
    [-2_500_000n, '-2.50'],
  ])('%s micro-dollars is $%s', (micros, usd) => {
    expect(microsToUsd(micros)).toBe(usd);
  });

  it('round-trips WELCOME_CREDIT_USD values exactly', () => {
    for (const usd of ['5', '2.5', '0.000001', '123456.789012']) expect(usdToMicros(microsToUsd(usdToMicros(usd)))).toBe(usdToMicros(usd));
  });
});
