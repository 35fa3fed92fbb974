/**
 * Sign-in for browser apps (docs/api.md §4.6): PKCE S256 verifier, challenge and state made with
 * WebCrypto, kept in sessionStorage across the redirect; the gateway exchanges the code and keeps
 * the tokens in httpOnly cookies, so page scripts never see one.
 */
import { GatehouseError } from './errors.js';
import { MeDocument, UpdateMyProfileDocument } from './operations.js';
import type { Transport } from './transport.js';

/** Where the pending sign-in (verifier, state, redirect URI) waits for the callback. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface Session {
  authenticated: boolean;
  userId: string | null;
}

export interface User {
  id: string;
  kind: 'user' | 'agent';
  handle: string | null;
  displayName: string | null;
  /** Your sign-in email, when the gateway knows it (its own provider's accounts); otherwise null. */
  email: string | null;
  /** How you are shown to others: the same handle and display name. */
  profile: { handle: string | null; displayName: string | null };
  /** For an agent: the person it acts for. */
  owner: { id: string; handle: string | null; displayName: string | null } | null;
}

/** A profile change: a value sets the field, null (or "") clears it, a field left out stays. */
export interface ProfileChange {
  displayName?: string | null;
  /** 3-20 letters, digits or underscores, any case; taken: 409 `handle_taken`. */
  handle?: string | null;
}

export interface SignInOptions {
  /** A redirect URI registered for the app (matched exactly). Default: the client's, else this page without query. */
  redirectUri?: string;
  scope?: string;
  /** false: answer the authorize URL instead of navigating to it (tests, popups). */
  navigate?: boolean;
}

const PENDING_KEY = 'gatehouse.signin';

function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: key => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: key => void map.delete(key),
  };
}

export function defaultStorage(): KeyValueStorage {
  try {
    if (typeof sessionStorage !== 'undefined') return sessionStorage;
  } catch {
    // Storage can throw in sandboxed frames: fall back to memory.
  }
  return memoryStorage();
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function randomString(byteLength = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(byteLength)));
}

/** RFC 7636 S256: BASE64URL(SHA-256(ASCII(verifier))). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

export class Auth {
  constructor(
    private readonly transport: Transport,
    private readonly storage: KeyValueStorage,
    private readonly options: { redirectUri?: string; onSignOut?: () => void },
  ) {}

  /** Starts sign-in: stores the PKCE verifier and state, then sends the browser to `/auth/authorize`. */
  async signIn(options: SignInOptions = {}): Promise<string> {
    const clientId = await this.transport.resolveClientId();
    if (!clientId) {
      throw new GatehouseError({ status: 400, code: 'client_id_required', message: 'auth.signIn() needs createClient({ clientId }).' });
    }
    const redirectUri = options.redirectUri ?? this.options.redirectUri ?? currentPage();
    if (!redirectUri) {
      throw new GatehouseError({ status: 400, code: 'redirect_uri_required', message: 'auth.signIn() needs a redirectUri outside a browser page.' });
    }
    const verifier = randomString(32);
    const state = randomString(16);
    this.storage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, redirectUri }));
    const params = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: options.scope ?? 'openid profile',
      state,
      code_challenge: await pkceChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const url = `${this.transport.baseUrl}/auth/authorize?${params}`;
    if (options.navigate !== false && typeof location !== 'undefined') location.assign(url);
    return url;
  }

  /**
   * Finishes sign-in on the redirect URI: checks `state` against the stored one, then
   * `POST /auth/token` sets the session cookies. Removes `code` and `state` from the address bar.
   */
  async handleRedirectCallback(url?: string): Promise<Session> {
    const href = url ?? (typeof location !== 'undefined' ? location.href : '');
    const target = new URL(href);
    const error = target.searchParams.get('error');
    if (error) {
      throw new GatehouseError({ status: 400, code: error, message: target.searchParams.get('error_description') ?? `Sign-in failed: ${error}.` });
    }
    const code = target.searchParams.get('code');
    const state = target.searchParams.get('state');
    const raw = this.storage.getItem(PENDING_KEY);
    const pending = raw ? (JSON.parse(raw) as { verifier: string; state: string; redirectUri: string }) : null;
    if (!code || !state || !pending || pending.state !== state) {
      throw new GatehouseError({
        status: 400,
        code: 'invalid_state',
        message: 'This sign-in callback does not match a sign-in started in this tab: start again with auth.signIn().',
      });
    }
    this.storage.removeItem(PENDING_KEY);
    await this.transport.resolveClientId();
    await this.transport.rest('POST', '/auth/token', {
      code,
      code_verifier: pending.verifier,
      redirect_uri: pending.redirectUri,
      client_id: this.transport.clientId,
    });
    if (url === undefined && typeof history !== 'undefined') {
      target.searchParams.delete('code');
      target.searchParams.delete('state');
      target.searchParams.delete('iss');
      history.replaceState(history.state, '', target.toString());
    }
    return this.getSession();
  }

  /** `{ authenticated, userId }`. Cookie mode refreshes once when the access cookie has lapsed. */
  async getSession(): Promise<Session> {
    if (this.transport.mode === 'bearer') {
      const user = await this.getUser();
      return { authenticated: !!user, userId: user?.id ?? null };
    }
    let session = await this.transport.rest<{ authenticated: boolean; user_id?: string }>('GET', '/auth/session');
    if (!session.authenticated && (await this.transport.refresh())) {
      session = await this.transport.rest('GET', '/auth/session');
    }
    return { authenticated: !!session.authenticated, userId: session.user_id ?? null };
  }

  /** The signed-in principal, or null when nobody is signed in. */
  async getUser(): Promise<User | null> {
    try {
      return (await this.transport.graphql(MeDocument)) as User;
    } catch (error) {
      if (error instanceof GatehouseError && error.status === 401) return null;
      throw error;
    }
  }

  /**
   * Edits your profile (`displayName`, `handle`), in every app; answers the user as `getUser()`
   * does. A handle someone else holds is a `GatehouseError` with code `handle_taken` (409).
   */
  async updateProfile(change: ProfileChange): Promise<User> {
    return (await this.transport.graphql(UpdateMyProfileDocument, { input: change })) as User;
  }

  /** Signs out: revokes at the provider and clears the cookies (cookie mode); closes live feeds. */
  async signOut(): Promise<void> {
    this.options.onSignOut?.();
    if (this.transport.mode === 'cookie') {
      await this.transport.raw('POST', '/auth/logout', this.transport.clientId ? { client_id: this.transport.clientId } : {});
    }
  }
}

function currentPage(): string | null {
  if (typeof location === 'undefined') return null;
  return location.origin + location.pathname;
}
