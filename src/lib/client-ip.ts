/**
 * The client address a per-address limit counts against. The socket's peer unless the server
 * sits behind `trustedProxies` reverse proxies (TRUST_PROXY), whose X-Forwarded-For entries are
 * then believed: the client is the entry the outermost trusted proxy appended, never one the
 * client could have written itself. IPv6 addresses count per /64 (one subscriber's usual share).
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

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
