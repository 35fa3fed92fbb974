/**
 * Which URLs an app may register (docs/api.md §3, §4.6). An app origin takes over `/auth/*` and `/_osg/*`
 * on its host, so the gateway's own hosts can never be one; an OAuth redirect URI receives
 * authorization codes, so it must be an absolute http(s) URL, with plain http only where the
 * traffic never leaves the machine (RFC 8252 7.3, loopback redirects).
 */

/** localhost, 127.0.0.0/8 and [::1] (URL.hostname spelling: IPv6 in brackets, lower case). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]') return true;
  const octets = host.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every(o => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * The `host[:port]` values (URL.host spelling) under which this gateway answers: the host of
 * PUBLIC_URL, and HOST:PORT (every loopback name when HOST listens on all interfaces). PORT 0 is
 * picked at start, so only PUBLIC_URL names it then.
 */
export function gatewayHosts(config: { publicUrl: string; host: string; port: number }): Set<string> {
  const hosts = new Set([new URL(config.publicUrl).host]);
  if (config.port > 0) {
    const names = WILDCARD_HOSTS.has(config.host)
      ? ['localhost', '127.0.0.1', '[::1]']
      : [config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host];
    for (const name of names) hosts.add(new URL(`http://${name}:${config.port}`).host);
  }
  return hosts;
}

/** Why `uri` cannot be a redirect URI, or null when it can. */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must be an http(s) URL, not ${url.protocol}`;
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) return 'must use https (plain http only for localhost, 127.0.0.0/8 or [::1])';
  if (url.hash || uri.includes('#')) return 'must not contain a fragment (#)';
  if (url.username || url.password) return 'must not contain credentials';
  return null;
}
