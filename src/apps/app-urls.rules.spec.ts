import { describe, expect, it } from 'vitest';
import { gatewayHostProblem, gatewayHosts, isLoopbackHost, redirectUriProblem } from './app-urls.rules.js';

describe('app registration: redirect URIs', () => {
  it.each<[string, string, boolean]>([
    ['an https URL is accepted', 'https://app.example.com/callback', true],
    ['plain http on localhost is accepted (loopback redirect)', 'http://localhost:5173/cb', true],
    ['plain http on 127.0.0.1 is accepted', 'http://127.0.0.1:8080/cb', true],
    ['plain http on 127.3.2.1 (127.0.0.0/8) is accepted', 'http://127.3.2.1/cb', true],
    ['plain http on [::1] is accepted', 'http://[::1]:3000/cb', true],
    ['plain http on a public host is refused', 'http://app.example.com/cb', false],
    ['plain http on a host that only starts with 127 is refused', 'http://127.0.0.1.evil.example/cb', false],
    ['javascript: is refused', 'javascript:alert(document.cookie)', false],
    ['data: is refused', 'data:text/html,<script>alert(1)</script>', false],
    ['a custom scheme is refused', 'myapp://callback', false],
    ['a relative path is refused', '/callback', false],
    ['a fragment is refused', 'https://app.example.com/cb#x', false],
    ['credentials in the URL are refused', 'https://user:pw@app.example.com/cb', false],
  ])('%s', (_, uri, ok) => {
    expect(redirectUriProblem(uri) === null).toBe(ok);
  });

  it.each<[string, boolean]>([
    ['localhost', true],
    ['app.localhost', true],
    ['127.0.0.1', true],
    ['127.255.255.255', true],
    ['[::1]', true],
    ['128.0.0.1', false],
    ['127.0.0.256', false],
    ['example.com', false],
  ])('loopback host %s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe("app registration: the gateway's own hosts", () => {
  it('names the PUBLIC_URL host, the loopback names and HOST on PORT', () => {
    expect([...gatewayHosts({ publicUrl: 'https://gw.example.com', host: '127.0.0.1', port: 4000 })].sort()).toEqual([
      '127.0.0.1:4000',
      '[::1]:4000',
      'gw.example.com',
      'localhost:4000',
    ]);
    expect([...gatewayHosts({ publicUrl: 'https://gw.example.com', host: '10.1.2.3', port: 4000 })].sort()).toEqual([
      '10.1.2.3:4000',
      '127.0.0.1:4000',
      '[::1]:4000',
      'gw.example.com',
      'localhost:4000',
    ]);
  });

  it("names every address and the host name of the machine when HOST listens on all interfaces (IPv6 zones cannot be a URL's)", () => {
    const machineNames = ['127.0.0.1', '::1', '192.168.1.20', 'fe80::1%eth0', '2001:db8::20', 'Build-Box'];
    expect([...gatewayHosts({ publicUrl: 'https://gw.example.com:8443', host: '0.0.0.0', port: 4000, machineNames })].sort()).toEqual([
      '127.0.0.1:4000',
      '192.168.1.20:4000',
      '[2001:db8::20]:4000',
      '[::1]:4000',
      'build-box:4000',
      'gw.example.com:8443',
      'localhost:4000',
    ]);
  });

  it('GATEWAY_HOSTS replaces the defaults: a name on PORT, a name:port as given', () => {
    expect(
      [
        ...gatewayHosts({ publicUrl: 'https://gw.example.com', host: '0.0.0.0', port: 4000, configured: ['gw.internal', 'alias.test:8443', '::1'] }),
      ].sort(),
    ).toEqual(['[::1]:4000', 'alias.test:8443', 'gw.example.com', 'gw.internal:4000']);
  });

  it('PORT 0 (picked at start) leaves PUBLIC_URL and the names given with a port', () => {
    expect([...gatewayHosts({ publicUrl: 'https://gw.example.com', host: '127.0.0.1', port: 0 })]).toEqual(['gw.example.com']);
    expect([...gatewayHosts({ publicUrl: 'https://gw.example.com', host: '127.0.0.1', port: 0, configured: ['a.test:81'] })]).toEqual([
      'gw.example.com',
      'a.test:81',
    ]);
  });

  it('spells an IPv6 HOST in brackets and drops a default port', () => {
    expect([...gatewayHosts({ publicUrl: 'https://gw.example.com:443', host: '::1', port: 80 })].sort()).toEqual([
      '127.0.0.1',
      '[::1]',
      'gw.example.com',
      'localhost',
    ]);
  });

  it.each([
    ['gw.internal', null],
    ['gw.internal:8443', null],
    ['[::1]:4000', null],
    ['https://gw.internal', 'is not a host name'],
    ['gw.internal/path', 'is not a host name'],
    ['two words', 'is not a host name'],
  ])('GATEWAY_HOSTS entry %s: %s', (entry, problem) => {
    if (problem === null) expect(gatewayHostProblem(entry)).toBeNull();
    else expect(gatewayHostProblem(entry)).toContain(problem);
  });
});
