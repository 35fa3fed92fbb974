/**
 * The invite pages' routes (docs/api.md §4.3): GET and POST /_invite/<code>, on a hosted app origin
 * (that app's links) and on the gateway's own host (apps without an origin). The pages and the
 * sign-in they start are invite.pages.ts's.
 */
import { type Endpoint, defineEndpoint } from '../http/endpoint.js';

export const inviteEndpoints: Endpoint[] = [
  defineEndpoint({
    method: 'GET',
    path: '/_invite/**:code',
    hosted: 'same-path',
    credential: 'none',
    responses: {
      200: { description: 'The confirmation page: its form POSTs a per-session token to this URL', html: true },
      302: {
        description: "Not signed in: to the provider's authorization endpoint (the gateway's own PKCE and state)",
        headers: { Location: "The provider's authorization URL", 'Set-Cookie': '`gh_pending` (HttpOnly, on the callback path, 10 minutes)' },
      },
      404: { description: 'A page: no such link (incomplete code, another app, another environment)', html: true },
      503: { description: 'A page: the app has no OAuth client to sign in with', html: true },
    },
    errors: ['busy', 'provider_unavailable', 'issuer_not_configured', 'introspection_unavailable'],
    pageErrors: ['invite_link_not_found', 'invite_link_used', 'invite_link_expired', 'env_not_deployed'],
    docs: {
      operationId: 'invitePage',
      summary: 'The invite confirmation page',
      description:
        "Signed in to the link's app: a page naming the resource and role with a Join button (a same-origin form POST); it never joins by itself (docs/api.md §4.3). Not signed in: 302 to the provider's sign-in, back through `/auth/callback` to this page. A link that cannot be used is a page saying why, and is not used up. Served on a hosted app origin (that app's links) and on the gateway's host (apps without an origin).",
      tag: 'invites',
      security: [{ sessionCookie: [] }, {}],
      path: '/_invite/{code}',
      parameters: [
        {
          name: 'code',
          in: 'path',
          required: true,
          description: 'The invite code (`inv_…`)',
          schema: { type: 'string', pattern: '^inv_[A-Za-z0-9_-]{43}$' },
        },
      ],
    },
    handle: ({ context, params, runtime }) => runtime.invitePages.invite(context, context.mount, params.code),
  }),
  defineEndpoint({
    method: 'POST',
    path: '/_invite/**:code',
    hosted: 'same-path',
    credential: 'none',
    body: { type: 'object', required: ['csrf'], properties: { csrf: { type: 'string', description: "The page's form token" } } },
    bodyReading: 'handler',
    responses: {
      200: { description: "Joined (the gateway's host): a page saying so", html: true },
      303: {
        description: 'Joined on a hosted origin: to the app; or signed out: back to the page',
        headers: { Location: '`{origin}/?invite=accepted&resource={resourceId}`, or `{origin}/_invite/{code}`' },
      },
      403: { description: 'A page: the request did not come from the invite page, or its token expired', html: true },
      415: { description: 'A page: not a form POST', html: true },
    },
    errors: ['busy', 'provider_unavailable', 'issuer_not_configured', 'introspection_unavailable'],
    pageErrors: [
      'invite_link_not_found',
      'invite_link_used',
      'invite_link_expired',
      'invite_link_inactive',
      'blocked',
      'already_member',
      'conflict',
      'env_not_deployed',
    ],
    docs: {
      operationId: 'inviteJoin',
      summary: 'Join: the confirmation page’s form',
      description:
        "Claims the link for the signed-in user. Only the page's own same-origin form is accepted (its `Origin` and `Sec-Fetch-Site`, and a token bound to this session and link). On a hosted origin the answer is a 303 to the app; on the gateway's host a page saying so. Signed out since the page was shown: 303 back to the page.",
      tag: 'invites',
      security: [{ sessionCookie: [] }],
      path: '/_invite/{code}',
      parameters: [
        {
          name: 'code',
          in: 'path',
          required: true,
          description: 'The invite code (`inv_…`)',
          schema: { type: 'string', pattern: '^inv_[A-Za-z0-9_-]{43}$' },
        },
      ],
      bodyMediaType: 'application/x-www-form-urlencoded',
      bodyRequired: true,
    },
    handle: ({ context, params, runtime }) => runtime.invitePages.join(context, context.mount, params.code),
  }),
];
