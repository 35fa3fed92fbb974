/** The embedded provider's HTML: sign in / sign up and its error page. Plain forms, no script. */
import { escapeHtml } from '../http/responses.js';

/**
 * Headers of every page the provider and the gateway's invite flow render: no framing anywhere
 * (clickjacking a sign-in or a Join button), no script, styles inline only. No form-action: a
 * sign-in form's redirect chain legitimately ends on the app's origin.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'";
export const PAGE_HEADERS = { 'content-security-policy': PAGE_CSP, 'x-frame-options': 'DENY' } as const;
/** oidc-provider's pages: `script-src 'self'` so it can add the hash of the one script it writes (form_post). */
export const PROVIDER_CSP = `${PAGE_CSP}; script-src 'self'`;

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1d1d1f}
form{display:grid;gap:.5rem;margin:1rem 0 2rem}input,button{font:inherit;padding:.5rem}button{cursor:pointer}
.error{color:#b00020;border:1px solid #b00020;padding:.5rem}.muted{color:#666;font-size:.9rem}`;

export function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function loginPage(input: { action: string; clientName: string; error?: string; email?: string }): string {
  const error = input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '';
  const email = escapeHtml(input.email ?? '');
  return layout(
    'Sign in',
    `<h1>Sign in</h1><p class="muted">to continue to ${escapeHtml(input.clientName)}</p>${error}
<form method="post" action="${escapeHtml(input.action)}/login">
<label>Email <input name="email" type="email" autocomplete="username" required value="${email}"></label>
<label>Password <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
<h2>New here? Create an account</h2>
<form method="post" action="${escapeHtml(input.action)}/signup">
<label>Display name <input name="display_name" autocomplete="name" maxlength="100"></label>
<label>Email <input name="email" type="email" autocomplete="username" required></label>
<label>Password <input name="password" type="password" autocomplete="new-password" minlength="8" required></label>
<button type="submit">Create account</button></form>
<p><a href="${escapeHtml(input.action)}/abort">Cancel</a></p>`,
  );
}

export function errorPage(title: string, message: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}
