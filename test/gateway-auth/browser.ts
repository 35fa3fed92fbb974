/**
 * A browserless browser for the sign-in tests: a cookie jar that honours host-only cookies,
 * Path, Max-Age and HttpOnly, and HTTP over node:http so hosted app origins can be reached by
 * sending their Host header to the gateway's test server.
 */
import { request as httpRequest } from 'node:http';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface StoredCookie {
  name: string;
  value: string;
  host: string;
  path: string;
  expires: number | null;
  attributes: string[];
  raw: string;
}

export interface BrowserResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
  location: string | null;
  setCookies: string[];
}

export class Browser {
  readonly cookies: StoredCookie[] = [];

  /** `server` is where requests to non-loopback hosts really go (the gateway, http://127.0.0.1:port). */
  constructor(private readonly server: string) {}

  cookie(host: string, name: string): StoredCookie | undefined {
    return this.cookies.find(c => c.host === host && c.name === name && (c.expires === null || c.expires > Date.now()));
  }

  private store(host: string, header: string) {
    const [pair, ...attrs] = header.split(';').map(s => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = decodeURIComponent(pair.slice(eq + 1));
    let path = '/';
    let expires: number | null = null;
    for (const attr of attrs) {
      const [k, v] = attr.split('=');
      if (k.toLowerCase() === 'path') path = v;
      if (k.toLowerCase() === 'max-age') expires = Date.now() + Number(v) * 1000;
      if (k.toLowerCase() === 'expires' && expires === null) expires = Date.parse(v);
      if (k.toLowerCase() === 'domain') throw new Error(`cookie ${name} has a Domain attribute`);
    }
    const index = this.cookies.findIndex(c => c.host === host && c.name === name && c.path === path);
    if (index >= 0) this.cookies.splice(index, 1);
    if (expires !== null && expires <= Date.now()) return;
    this.cookies.push({ name, value, host, path, expires, attributes: attrs, raw: header });
  }

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter(c => c.host === url.host && (url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)))
      .filter(c => c.expires === null || c.expires > Date.now())
      .map(c => `${c.name}=${encodeURIComponent(c.value)}`)
      .join('; ');
  }

  async request(method: string, target: string, options: { body?: string; headers?: Record<string, string> } = {}): Promise<BrowserResponse> {
    const url = new URL(target);
    // Loopback addresses are real servers (the gateway, a standalone provider); any other host
    // is a hosted app origin served by the gateway.
    const server = LOOPBACK.has(url.hostname) ? url : new URL(this.server);
    const cookie = this.cookieHeader(url);
    const headers: Record<string, string> = { host: url.host, ...(cookie ? { cookie } : {}), ...(options.headers ?? {}) };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const res = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
      const req = httpRequest({ host: server.hostname, port: server.port, method, path: url.pathname + url.search, headers }, response => {
        const chunks: Buffer[] = [];
        response.on('data', chunk => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      req.on('error', error => reject(new Error(`${method} ${target}: ${(error as Error).message}`, { cause: error })));
      if (options.body !== undefined) req.write(options.body);
      req.end();
    });
    const setCookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
    for (const header of setCookies) this.store(url.host, header);
    let json: any = null;
    try {
      json = res.text ? JSON.parse(res.text) : null;
    } catch {
      json = null;
    }
    const location = typeof res.headers.location === 'string' ? new URL(res.headers.location, url).href : null;
    return { ...res, json, location, setCookies };
  }

  get(target: string, headers?: Record<string, string>) {
    return this.request('GET', target, { headers });
  }

  post(target: string, body: unknown, headers: Record<string, string> = {}) {
    return this.request('POST', target, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  }

  postForm(target: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
    return this.request('POST', target, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });
  }

  /** Follows redirects from `target` until `stop(url)` or a non-redirect answer; returns the last response and its URL. */
  async follow(target: string, stop: (url: URL) => boolean = () => false, first?: BrowserResponse): Promise<{ url: string; res: BrowserResponse }> {
    let url = target;
    let res = first ?? (await this.get(url));
    for (let hops = 0; hops < 20; hops++) {
      if (!res.location || res.status < 300 || res.status >= 400) return { url, res };
      url = res.location;
      if (stop(new URL(url))) return { url, res };
      res = await this.get(url);
    }
    throw new Error('too many redirects');
  }
}
