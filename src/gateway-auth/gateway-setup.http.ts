/**
 * Builds the gateway for one server: the embedded provider (when it is the issuer; built on its
 * first request, see identity-provider/lazy.ts) and the routes.
 */
import type { AddressInfo } from 'node:net';
import type { Config } from '../config.js';
import { GATEWAY_CALLBACK_PATH } from '../identity-provider/adapter.js';
import { lazyIdentityProvider } from '../identity-provider/lazy.js';
import type { Services } from '../services.js';
import { createGateway, type Gateway } from './gateway.routes.js';

export interface GatewayAuth {
  gateway: Gateway;
  /** Tells the provider client where this process listens (the embedded provider's backchannel). */
  onListening(address: AddressInfo | string | null): void;
}

export async function createGatewayAuth({ services, config }: { services: Services; config: Config }): Promise<GatewayAuth> {
  const embedded = services.providers.embedded;
  const idp = embedded
    ? lazyIdentityProvider({
        prisma: services.deps.prisma,
        issuer: embedded.issuer,
        consentUrl: config.auth.consentUrl,
        gatewayClient: embedded.gatewayClient,
        adminToken: embedded.adminToken,
        jwtAccessTokens: embedded.jwtAccessTokens,
        secret: config.auth.idpSecret,
        debug: config.logLevel === 'debug',
        signInLimits: config.auth.signInLimits,
        trustProxy: config.auth.trustProxy,
        gatewayCallbackUrl: `${config.publicUrl}${GATEWAY_CALLBACK_PATH}`,
        maxBodyBytes: config.maxBodyBytes,
      })
    : null;
  return {
    gateway: createGateway({ services, config, idp }),
    onListening(address) {
      if (!address || typeof address === 'string') return;
      // PORT=0 picks the port now: the gateway's names are reserved on it from here on.
      services.gatewayHosts.listening(address.port);
      const host =
        address.address === '0.0.0.0'
          ? '127.0.0.1'
          : address.address === '::'
            ? '[::1]'
            : address.family === 'IPv6'
              ? `[${address.address}]`
              : address.address;
      services.providers.setBackchannel(`http://${host}:${address.port}`);
    },
  };
}
