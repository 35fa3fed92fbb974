/**
 * The GraphiQL playground's options (served by Yoga at /graphql outside production, its assets
 * inlined by @graphql-yoga/render-graphiql so it works offline). Cookie sessions need the CSRF
 * header on mutations (docs/api.md §4.5), so it is sent on every request; a bearer token is pasted
 * into the Headers tab, whose template shows where.
 */
import type { GraphiQLOptions } from 'graphql-yoga';

const DEFAULT_QUERY = `# Gatehouse GraphQL (docs/api.md §7).
# Signed in on this origin: your session cookie is sent,
# with X-Service-Csrf: 1 preset. With a token instead, add
#   "Authorization": "Bearer <token>"
# to the Headers tab below.
query Me {
  me { id kind handle displayName }
}
`;

export function graphiqlOptions(endpoint: string): GraphiQLOptions {
  return {
    endpoint,
    title: 'Gatehouse GraphQL',
    defaultQuery: DEFAULT_QUERY,
    // Shown (and editable) in the Headers tab of a new tab; additionalHeaders keeps the CSRF header
    // even when the tab's headers are replaced by a bearer token.
    defaultHeaders: JSON.stringify({ 'X-Service-Csrf': '1' }, null, 2),
    additionalHeaders: { 'X-Service-Csrf': '1' },
    credentials: 'same-origin',
    // Headers can hold a bearer token: never write them to localStorage.
    shouldPersistHeaders: false,
  };
}

/**
 * The page's headers: not frameable, and a CSP admitting what it runs: its one inline script (the
 * inlined bundle), the editor's workers from blob: URLs, data: icons and fonts, requests to this
 * origin only (checked in headless Chromium: no violation, no request off the origin).
 */
export const GRAPHIQL_PAGE_HEADERS = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};
