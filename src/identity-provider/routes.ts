/** Hydra's public paths, so the gateway's provider client works against either (no oidc-provider import). */
export const IDP_ROUTES = {
  authorization: '/oauth2/auth',
  token: '/oauth2/token',
  revocation: '/oauth2/revoke',
  introspection: '/oauth2/introspect',
  userinfo: '/userinfo',
  jwks: '/.well-known/jwks.json',
  end_session: '/oauth2/sessions/logout',
} as const;

/** The issuer without a trailing slash, and its path: where the provider is mounted. */
export function issuerMount(issuerUrl: string): { issuer: string; mountPath: string; owns(path: string): boolean } {
  const issuer = issuerUrl.replace(/\/$/, '');
  const mountPath = new URL(issuer).pathname.replace(/\/$/, '');
  const owns = (path: string) => !mountPath || path === mountPath || path.startsWith(`${mountPath}/`);
  return { issuer, mountPath, owns };
}
