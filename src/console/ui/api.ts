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

async function post(query: string, variables: unknown, bearer?: string) {
  const res = await fetch('/graphql', {
    method: 'POST',
    // A test user's token (the data browser) goes alone: the console session's cookie is not sent with it.
    credentials: bearer ? 'omit' : 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...CSRF, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
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

/** A call as a test user (the data browser, docs/api.md §4.2): that user's token, the app's authorization. */
export const gqlAs = <R, V>(token: string, document: TypedDocumentString<R, V>, variables: V): Promise<R> =>
  post(document.toString(), variables ?? {}, token) as Promise<R>;

/** A file's bytes as a test user (GET /v1/files/...), for preview and download. */
export async function fileAs(token: string, path: string): Promise<Blob> {
  const res = await fetch(path, { credentials: 'omit', headers: { authorization: `Bearer ${token}` } });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string; message?: string } | null;
    throw new ApiError(body?.error ?? `http_${res.status}`, body?.message ?? `The server answered ${res.status}.`);
  }
  return res.blob();
}

export async function signOut(): Promise<void> {
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', ...CSRF }, body: '{}' });
}

export const describe = (error: unknown) => (error instanceof ApiError ? `${error.message} (${error.code})` : String(error));
