/**
 * The console's one way to the server: GraphQL at /graphql on this origin with the dashboard
 * session cookie (httpOnly: this script never sees it). Every POST carries the CSRF header
 * (docs/api.md §4.5). A session whose access token expired is renewed once with the refresh
 * cookie, then the call is made again.
 */
import type { TypedDocumentString } from './generated/graphql.js';

const CSRF = { 'x-service-csrf': '1' };

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Codes that mean "nobody is signed in here": the console shows its sign-in. */
export const SIGNED_OUT = new Set(['unauthenticated', 'session_expired', 'dashboard_session_required']);

async function post(query: string, variables: unknown) {
  const res = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...CSRF },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json().catch(() => null)) as { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } | null;
  const error = body?.errors?.[0];
  if (error || !body?.data)
    throw new ApiError(error?.extensions?.code ?? `http_${res.status}`, error?.message ?? `The server answered ${res.status}.`);
  return body.data;
}

let refreshing: Promise<boolean> | null = null;
/** One refresh at a time, whatever number of calls found the session expired. */
const refresh = () =>
  (refreshing ??= fetch('/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...CSRF },
    body: '{}',
  })
    .then(res => res.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    }));

export async function gql<R, V>(document: TypedDocumentString<R, V>, ...[variables]: V extends Record<string, never> ? [] : [V]): Promise<R> {
  try {
    return (await post(document.toString(), variables ?? {})) as R;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unauthenticated' && (await refresh()))
      return (await post(document.toString(), variables ?? {})) as R;
    throw error;
  }
}

export async function signOut(): Promise<void> {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', ...CSRF }, body: '{}' });
}

export const describe = (error: unknown) => (error instanceof ApiError ? `${error.message} (${error.code})` : String(error));
