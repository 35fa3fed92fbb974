/** The default consent screen (Hydra's consent URL, `/auth/consent`): asks once, then calls the JSON API. */
import { randomBytes } from 'node:crypto';
import { layout } from '../identity-provider/pages.js';
import { html } from '../http/responses.js';

export function consentPage(url: URL): Response {
  const challenge = url.searchParams.get('consent_challenge') ?? '';
  const nonce = randomBytes(16).toString('base64');
  const body = `<h1>Allow access</h1><div id="details"><p>Loading…</p></div>
<form id="consent"><label>Display name (optional) <input name="displayName" maxlength="100" autocomplete="name"></label>
<button type="submit" name="decision" value="accept">Allow</button> <button type="button" id="deny">Deny</button></form>
<p class="error" id="error" hidden></p>
<script nonce="${nonce}">
const challenge = ${JSON.stringify(challenge).replace(/</g, '\\u003c')};
const show = m => { const e = document.getElementById('error'); e.textContent = m; e.hidden = false; };
const post = async (path, body) => {
  const r = await fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-service-csrf': '1' }, body: JSON.stringify(body) });
  const j = await r.json(); if (!r.ok) throw new Error(j.message || j.error); return j;
};
let scope = [];
fetch('/auth/consent-request?challenge=' + encodeURIComponent(challenge)).then(r => r.json()).then(d => {
  if (d.redirect_to) { location.href = d.redirect_to; return; }
  if (d.error) { show(d.message || d.error); return; }
  scope = d.requested_scope;
  const p = document.createElement('p');
  p.textContent = (d.client_name || d.client_id) + ' asks for: ' + scope.join(', ');
  document.getElementById('details').replaceChildren(p);
  if (d.display_name) document.querySelector('[name=displayName]').value = d.display_name;
}, () => show('Could not load the request.'));
document.getElementById('consent').addEventListener('submit', async ev => {
  ev.preventDefault();
  const displayName = new FormData(ev.target).get('displayName');
  try { location.href = (await post('/auth/consent/accept', { challenge, grant_scope: scope, ...(displayName ? { profile: { displayName } } : {}) })).redirect_to; } catch (e) { show(e.message); }
});
document.getElementById('deny').addEventListener('click', async () => {
  try { location.href = (await post('/auth/consent/reject', { challenge })).redirect_to; } catch (e) { show(e.message); }
});
</script>`;
  return html(200, layout('Allow access', body), {
    'content-security-policy': `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'`,
  });
}
