/** Peer: Mercurius (Fastify) with graphql-jit (`jit: 1`, compiled on the first request), `{ hello }`, beside Yoga's `{ hello }` rows. */
import Fastify from 'fastify';
import mercurius from 'mercurius';
import { announce, main, onShutdown } from './peer-lifecycle.mjs';

main(async () => {
  const app = Fastify({ logger: false });
  await app.register(mercurius, { schema: 'type Query { hello: String }', resolvers: { Query: { hello: async () => 'world' } }, jit: 1 });
  await app.listen({ port: 0, host: '127.0.0.1' });
  onShutdown(() => app.close());
  announce({ url: `http://127.0.0.1:${app.server.address().port}` });
});
