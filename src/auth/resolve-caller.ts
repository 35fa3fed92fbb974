/** Turns a request's credentials into a Caller. Provider tokens and cookies slot in here (gateway issue). */
import type { Caller } from './caller.js';
import type { TokenService } from '../services/tokens.js';

export async function resolveCaller(tokens: TokenService, authorization: string | null | undefined): Promise<Caller | null> {
  if (!authorization) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!match) return null;
  return tokens.resolve(match[1]);
}
