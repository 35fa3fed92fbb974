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

/** The names every local client can reach a listening gateway by. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export interface GatewayHostsInput {
  publicUrl: string;
  /** HOST: the address it listens on. */
  host: string;
  /** The port it listens on (0: not listening yet, picked at start). */
  port: number;
  /**
   * GATEWAY_HOSTS: the names it answers on (`name` on the listening port, or `name:port`); unset,
   * the loopback names and the bound address (with a wildcard HOST, every address and name of
   * the machine: `machineNames`).
   */
  configured?: readonly string[] | null;
  /** The machine's addresses and host name, for a wildcard HOST. */
  machineNames?: readonly string[];
}

/**
 * The `host[:port]` values (URL.host spelling, as a Host header carries them) under which this
 * gateway answers: PUBLIC_URL's host, and each gateway name on the listening port. An app origin
 * on one of them would take over the gateway's routes on that name, so none can be registered,
 * and a request for one is always the gateway's. Other ports of the same names stay free: an
 * app's dev server at `http://localhost:5173` is not the gateway.
 */
export function gatewayHosts({ publicUrl, host, port, configured, machineNames = [] }: GatewayHostsInput): Set<string> {
  const hosts = new Set([new URL(publicUrl).host]);
  const names = configured ?? [...LOOPBACK_NAMES, ...(WILDCARD_HOSTS.has(host) ? machineNames : [host])];
  for (const name of names) {
    const spelled = hostSpelling(name);
    if (spelled === null) continue;
    if (hasPort(spelled)) hosts.add(new URL(`http://${spelled}`).host);
    else if (port > 0) hosts.add(new URL(`http://${spelled}:${port}`).host);
  }
  return hosts;
}

/** A name or address as a URL host (IPv6 in brackets, lower case), or null when no URL can carry it (an IPv6 zone). */
function hostSpelling(name: string): string | null {
  const bracketed = name.includes(':') && !name.startsWith('[') && !/^[^:]+:\d+$/.test(name) ? `[${name}]` : name;
  try {
    new URL(`http://${bracketed}`);
    return bracketed.toLowerCase();
  } catch {
    return null;
  }
}

function hasPort(host: string): boolean {
  return /:\d+$/.test(host.startsWith('[') ? host.slice(host.indexOf(']') + 1) : host);
}

/** GATEWAY_HOSTS' entries: `name` or `name:port`, as a URL could carry them. */
export function gatewayHostProblem(entry: string): string | null {
  if (/[/?#@\s]/.test(entry)) return `${JSON.stringify(entry)} is not a host name (no scheme, path or spaces): name or name:port`;
  return hostSpelling(entry) === null ? `${JSON.stringify(entry)} is not a host name or address` : null;
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
