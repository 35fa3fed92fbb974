/** The rejection of an SDK call as a GatehouseError (the test fails if it resolves or throws anything else). */
import { expect } from 'vitest';
import { GatehouseError } from '../../src/sdk/index.js';

export async function refusal(promise: PromiseLike<unknown>): Promise<GatehouseError> {
  const error = await Promise.resolve(promise).then(
    () => null,
    e => e,
  );
  expect(error).toBeInstanceOf(GatehouseError);
  return error as GatehouseError;
}
