/**
 * The client address a per-address limit counts against. The socket's peer unless the server
 * sits behind `trustedProxies` reverse proxies (TRUST_PROXY), whose X-Forwarded-For entries are
 * then believed: the client is the entry the outermost trusted proxy appended, never one the
 * client could have written itself. IPv6 addresses count per /64 (one subscriber's usual share).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { HeaderReader } from './responses.js';

export function clientIp(req: IncomingMessage, trustedProxies = 0): string {
  let address = req.socket.remoteAddress ?? '';
  if (trustedProxies > 0) {
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map(s => s.trim())
      .filter(Boolean);
    // Each trusted proxy appended one entry; the last one appended by the outermost is the client.
    const candidate = hops[hops.length - trustedProxies];
    if (candidate && isIP(candidate)) address = candidate;
  }
  return addressKey(address);
}

/** IPv4 (also IPv4-mapped IPv6) as is; IPv6 as its /64 prefix. */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1];
  if (isIP(address) !== 6) return address || 'unknown';
  const [head, tail = ''] = address.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map(g => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** 127.0.0.0/8 and ::1, also IPv4-mapped (`::ffff:127.0.0.1`), as a socket or a proxy header spells them. */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (plain === '::1') return true;
  const v4 = /^(?:::ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain)?.[1];
  return !!v4 && isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * Every address a request says it passed through: the socket's peer, then each client a proxy
 * named in `X-Forwarded-For`, `X-Real-IP` or `Forwarded` (`for=`), as written, ports dropped. A
 * proxy appends the address it received the request from, which the client cannot remove, so a
 * request from elsewhere names at least one address that is not its own machine's, whatever the
 * client added and whatever TRUST_PROXY says.
 */
export function claimedAddresses(peer: string, headers: HeaderReader): string[] {
  const addresses = [peer];
  for (const name of ['x-forwarded-for', 'x-real-ip']) {
    for (const entry of (headers.get(name) ?? '').split(',')) if (entry.trim()) addresses.push(withoutPort(entry.trim()));
  }
  for (const element of (headers.get('forwarded') ?? '').split(',')) {
    for (const pair of element.split(';')) {
      const [key, value = ''] = pair.split('=');
      if (key.trim().toLowerCase() === 'for') addresses.push(withoutPort(value.trim().replace(/^"|"$/g, '')));
    }
  }
  return addresses;
}

/** `[::1]:4711` -> `::1`, `127.0.0.1:80` -> `127.0.0.1`; anything else as is. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(address);
  return v4 ? v4[1] : address;
}
