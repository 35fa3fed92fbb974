/**
 * Handles (docs/api.md §4.7, consent rules 5–6): a new account gets one generated from its display
 * name; a handle is issued at most once, so a user who cleared theirs is never given another.
 */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Tx } from '../core/deps.js';

const MAX_LENGTH = 20;

/** A handle as people type it: case does not matter (handles are stored and compared lower-case). */
export const handleSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_]{3,20}$/, 'must be 3-20 letters, digits or underscores');

/** A display name: at most 100 characters, no control characters. */
export const displayNameSchema = z
  .string()
  .trim()
  .max(100, 'must be at most 100 characters')
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  .refine(name => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');

/** "Zoë van der Berg!" -> "zoevanderberg"; too short or empty -> "user". */
export function handleSeed(displayName: string | null | undefined): string {
  const base = (displayName ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
    .slice(0, MAX_LENGTH);
  return base.length >= 3 ? base : 'user';
}

/**
 * Issues a handle to `principalId` if it never had one. Returns the handle, or null when one was
 * issued before (kept or cleared). Taken candidates get a numeric suffix.
 */
export async function issueHandleOnce(tx: Tx, principalId: string, seed: string): Promise<string | null> {
  for (let attempt = 0; attempt < 12; attempt++) {
    const suffix = attempt === 0 && seed !== 'user' ? '' : String(randomInt(1000, attempt < 6 ? 10_000 : 1_000_000));
    const candidate = `${seed.slice(0, MAX_LENGTH - suffix.length)}${suffix}`;
    const taken = await tx.principal.findUnique({ where: { handle: candidate }, select: { id: true } });
    if (taken) continue;
    try {
      const { count } = await tx.principal.updateMany({
        where: { id: principalId, handleIssued: false, handle: null },
        data: { handle: candidate, handleIssued: true },
      });
      return count === 1 ? candidate : null;
    } catch (error) {
      // Someone took the candidate between the check and the write.
      if ((error as { code?: string }).code !== 'P2002') throw error;
    }
  }
  throw new Error(`Could not find a free handle for seed ${seed}.`);
}
