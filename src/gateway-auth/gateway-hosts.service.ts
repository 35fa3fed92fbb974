/**
 * The names this gateway answers on (GATEWAY_HOSTS, else the loopback names and the bound
 * addresses: with a wildcard HOST every address and the host name of the machine), on its
 * listening port, known once it listens (PORT=0 picks one then). No app may register one as its
 * origin, and a request for one is the gateway's even if an app registered it before this rule.
 */
import os from 'node:os';
import type { Config } from '../config.js';
import { gatewayHosts } from '../apps/app-urls.rules.js';

export type GatewayHostConfig = Pick<Config, 'publicUrl' | 'host' | 'port' | 'gatewayHosts'>;

export function createGatewayHosts(config: GatewayHostConfig) {
  const compute = (port: number) =>
    gatewayHosts({ publicUrl: config.publicUrl, host: config.host, port, configured: config.gatewayHosts, machineNames: machineNames() });
  let hosts = compute(config.port);
  return {
    /** Whether `host` (a Host header's `host[:port]`) names this gateway. */
    has: (host: string) => hosts.has(host.toLowerCase()),
    /** Once listening: the names on the port it got. */
    listening(port: number) {
      hosts = compute(port);
    },
    list: () => [...hosts],
  };
}

export type GatewayHosts = ReturnType<typeof createGatewayHosts>;

/** Every address of the machine's interfaces, and its host name. */
function machineNames(): string[] {
  const addresses = Object.values(os.networkInterfaces()).flatMap(list => (list ?? []).map(entry => entry.address));
  return [...addresses, os.hostname()];
}
