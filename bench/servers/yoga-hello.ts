/**
 * Baseline (d): a plain graphql-yoga server with a one-field Pothos schema, `{ hello }`: the cost
 * of the GraphQL layer with no data access. `--jit` adds graphql-jit as Gatehouse does.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import SchemaBuilder from '@pothos/core';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { createYoga } from 'graphql-yoga';
import { announce, closeServer, listen, main, onShutdown } from './lifecycle.js';

main(async () => {
  const { values } = parseArgs({ options: { jit: { type: 'boolean', default: false } } });
  // No plugins. The cast is for the type checker only: src/ loads @pothos/plugin-prisma, whose
  // global type augmentation makes a `prisma` option required on every builder in the program.
  const builder = new SchemaBuilder({} as ConstructorParameters<typeof SchemaBuilder>[0]);
  builder.queryType({ fields: t => ({ hello: t.string({ resolve: () => 'world' }) }) });
  const yoga = createYoga({
    schema: builder.toSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: false,
    landingPage: false,
    logging: false,
    plugins: values.jit ? [useGraphQlJit()] : [],
  });
  const server = createServer(yoga);
  const url = await listen(server);
  onShutdown(() => closeServer(server));
  announce({ url });
});
