/**
 * The gateway's one client of its identity and consent provider, with Hydra's contract: the
 * authorization and token endpoints, RFC 7009 revocation, RFC 7662 introspection, userinfo, and
 * the consent admin API. Works against the embedded provider (src/idp) and an external Hydra.
 * Only this module knows the provider's addresses. Tokens are never logged.
 */
import { AppError, type ErrorCode, fail, type StatusOf } from '../errors.js';

export interface ProviderEndpoints {
  /** Public: the browser is sent here. */
  authorization: string;
  token: string;
  revocation: string;
  userinfo: string;
  introspection?: string;
}

export interface ProviderClientOptions {
  /** Resolves the endpoints (discovery for an external provider; fixed paths for the embedded one). */
  endpoints: () => Promise<ProviderEndpoints>;
  /** Base of the consent admin API (`<base>/admin/oauth2/auth/requests/consent…`); unset disables consent. */
  adminBase?: () => string;
  adminToken?: string;
  /** Base of self-service identity flows (`<base>/self-service/<type>/flows?id=`); unset disables the proxy. */
  identityBase?: () => string;
  introspection?: { clientId: string; secret: string };
  fetch?: typeof fetch;
  /** Upstream timeout in milliseconds. */
  timeoutMs?: number;
}

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  expiresIn: number;
}

export interface Introspection {
  active: boolean;
  sub?: string;
  client_id?: string;
  exp?: number;
  scope?: string;
  aud?: string | string[];
}

/** The provider answered with an OAuth error (4xx) or could not be reached (502). */
export class ProviderError<C extends ErrorCode = ErrorCode> extends AppError<C> {
  /**
   * The provider's own OAuth error (RFC 6749 §5.2), relayed as it sent it at its 4xx status: that
   * code is the standard's namespace, outside the catalog, which documents the ones a client meets
   * (`invalid_grant`, `invalid_request`).
   */
  static relayed(code: string, status: number, message: string): ProviderError {
    return new ProviderError(code as ErrorCode, status as StatusOf<ErrorCode>, message);
  }
}

const unavailable = (what: string) =>
  new ProviderError('provider_unavailable', 502, `The identity provider did not answer the ${what} request; try again.`);

export function createProviderClient(options: ProviderClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;

  async function call(what: string, url: string, init: RequestInit): Promise<{ status: number; body: any }> {
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    } catch {
      throw unavailable(what);
    }
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (res.status >= 500) throw unavailable(what);
    return { status: res.status, body };
  }

  function oauthError(what: string, status: number, body: any): ProviderError {
    const oauthCode = typeof body?.error === 'string' && /^[a-z_]{1,64}$/.test(body.error) ? (body.error as string) : null;
    const code = oauthCode ?? 'provider_error';
    const description = typeof body?.error_description === 'string' ? `: ${body.error_description.slice(0, 300)}` : '';
    const message = `The identity provider refused the ${what} request (${code})${description}.`;
    // An answer without an OAuth code is the catalog's provider_error, at its one status whatever the provider sent.
    if (oauthCode === null) return new ProviderError('provider_error', 502, message);
    return ProviderError.relayed(oauthCode, status >= 400 && status < 500 ? status : 502, message);
  }

  const form = (fields: Record<string, string | undefined>) =>
    new URLSearchParams(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));

  async function tokenRequest(what: string, fields: Record<string, string | undefined>): Promise<TokenSet> {
    const { token } = await options.endpoints();
    const { status, body } = await call(what, token, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form(fields),
    });
    if (status !== 200 || typeof body?.access_token !== 'string') throw oauthError(what, status, body);
    return {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : undefined,
      expiresIn: Number.isFinite(body.expires_in) ? Number(body.expires_in) : 3600,
    };
  }

  function admin(path: string): string {
    if (!options.adminBase) throw fail('consent_unavailable', 'No consent admin API is configured (OIDC_ADMIN_URL).');
    return `${options.adminBase().replace(/\/$/, '')}/admin/oauth2/auth/requests/consent${path}`;
  }

  const adminHeaders = () => ({
    accept: 'application/json',
    'content-type': 'application/json',
    ...(options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {}),
  });

  async function adminCall(what: string, method: string, path: string, challenge: string, body?: unknown) {
    // URLSearchParams, not encodeURIComponent: it cannot throw on text that is not well formed.
    const url = `${admin(path)}?${new URLSearchParams({ consent_challenge: challenge })}`;
    const res = await call(what, url, { method, headers: adminHeaders(), body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status === 404) throw fail('consent_request_not_found', 'No consent request with this challenge (unknown or expired).');
    if (res.status === 410) throw fail('consent_request_handled', 'This consent request was already handled.');
    // The gateway's own credential was refused: a configuration fault, not the user's.
    if (res.status === 401 || res.status === 403) {
      throw new ProviderError('provider_admin_refused', 502, "The identity provider's admin API refused the gateway (check OIDC_ADMIN_TOKEN).");
    }
    if (res.status !== 200) throw oauthError(what, res.status, res.body);
    return res.body;
  }

  return {
    introspectionConfigured: !!options.introspection,

    async authorizationUrl(search: string): Promise<string> {
      const { authorization } = await options.endpoints();
      return search ? `${authorization}${authorization.includes('?') ? '&' : '?'}${search.replace(/^\?/, '')}` : authorization;
    },

    exchangeCode(input: { code: string; codeVerifier: string; redirectUri: string; clientId: string }) {
      return tokenRequest('token', {
        grant_type: 'authorization_code',
        code: input.code,
        code_verifier: input.codeVerifier,
        redirect_uri: input.redirectUri,
        client_id: input.clientId,
      });
    },

    refresh(input: { refreshToken: string; clientId: string }) {
      return tokenRequest('refresh', { grant_type: 'refresh_token', refresh_token: input.refreshToken, client_id: input.clientId });
    },

    /** RFC 7009 as the app's public client. Unknown tokens are success by definition. */
    async revoke(input: { token: string; clientId: string; hint: 'refresh_token' | 'access_token' }): Promise<void> {
      const { revocation } = await options.endpoints();
      const { status, body } = await call('revocation', revocation, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ token: input.token, token_type_hint: input.hint, client_id: input.clientId }),
      });
      if (status !== 200) throw oauthError('revocation', status, body);
    },

    async introspect(token: string): Promise<Introspection> {
      const { introspection } = await options.endpoints();
      if (!options.introspection || !introspection) throw fail('introspection_unavailable', 'No introspection credential is configured.');
      const basic = Buffer.from(`${encodeURIComponent(options.introspection.clientId)}:${encodeURIComponent(options.introspection.secret)}`).toString(
        'base64',
      );
      const { status, body } = await call('introspection', introspection, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', authorization: `Basic ${basic}` },
        body: form({ token }),
      });
      if (status !== 200 || typeof body?.active !== 'boolean') throw oauthError('introspection', status, body);
      return body as Introspection;
    },

    /** The subject of a valid token, or null when the provider refuses it. */
    async userinfo(token: string): Promise<{ sub: string } | null> {
      const { userinfo } = await options.endpoints();
      const { status, body } = await call('userinfo', userinfo, {
        method: 'GET',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      if (status === 401 || status === 403) return null;
      if (status !== 200 || typeof body?.sub !== 'string') throw oauthError('userinfo', status, body);
      return { sub: body.sub };
    },

    getConsentRequest(challenge: string) {
      return adminCall('consent request', 'GET', '', challenge);
    },

    acceptConsentRequest(
      challenge: string,
      body: { grant_scope: string[]; remember: boolean; remember_for?: number },
    ): Promise<{ redirect_to: string }> {
      return adminCall('consent accept', 'PUT', '/accept', challenge, body);
    },

    rejectConsentRequest(challenge: string, body: { error: string; error_description: string }): Promise<{ redirect_to: string }> {
      return adminCall('consent reject', 'PUT', '/reject', challenge, body);
    },

    /** GET <identity base>/self-service/<type>/flows?id=<id>; the caller allowlists type and id. */
    async identityFlow(type: 'login' | 'registration', id: string): Promise<{ status: number; body: unknown }> {
      if (!options.identityBase) throw fail('identity_flows_unavailable', 'No self-service identity flows are configured for this provider.');
      const url = `${options.identityBase().replace(/\/$/, '')}/self-service/${type}/flows?id=${encodeURIComponent(id)}`;
      return call('identity flow', url, { method: 'GET', headers: { accept: 'application/json' } });
    },
  };
}

export type ProviderClient = ReturnType<typeof createProviderClient>;

/** Endpoints from an external provider's discovery document, cached after the first success. */
export function discoveredEndpoints(issuer: string, adminUrl: string | undefined, doFetch: typeof fetch = fetch): () => Promise<ProviderEndpoints> {
  let cached: Promise<ProviderEndpoints> | null = null;
  return () => {
    cached ??= (async () => {
      let res: Response;
      try {
        res = await doFetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
      } catch {
        throw unavailable('discovery');
      }
      if (!res.ok) throw unavailable('discovery');
      const d = (await res.json()) as Record<string, string | undefined>;
      if (!d.authorization_endpoint || !d.token_endpoint) throw unavailable('discovery');
      return {
        authorization: d.authorization_endpoint,
        token: d.token_endpoint,
        revocation: d.revocation_endpoint ?? `${issuer}/oauth2/revoke`,
        userinfo: d.userinfo_endpoint ?? `${issuer}/userinfo`,
        // Hydra serves introspection on its admin API only.
        introspection: d.introspection_endpoint ?? (adminUrl ? `${adminUrl}/admin/oauth2/introspect` : undefined),
      };
    })().catch(error => {
      cached = null;
      throw error;
    });
    return cached;
  };
}
