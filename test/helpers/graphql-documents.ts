/** Abusive GraphQL documents from issue #8, shared by test/api/graphql-limits.test.ts and bench/graphql-limits.ts. */

/** Each fragment spreads the previous one twice and once more under `owner` (3^n paths); < 1 KB at 16 levels. */
export function fragmentBomb(levels: number): string {
  const fragments = ['fragment F0 on Principal { id }'];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Principal { ...F${i - 1} ...F${i - 1} owner { ...F${i - 1} } }`);
  // Fragments first: graphql-js validation would walk all of them before reaching the operation.
  return `${fragments.join('\n')}\n{ me { ...F${levels} } }`;
}

/** `count` aliases of `me { id }` (20,000 make 239 KB). */
export const aliasFlood = (count: number) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: me { id }`).join(' ')} }`;

/** `{ me { owner { owner ... { id } } } }` with `levels` owners: depth levels + 2. */
export const ownerChain = (levels: number) => `{ me { ${'owner { '.repeat(levels)}id${' }'.repeat(levels)} } }`;
