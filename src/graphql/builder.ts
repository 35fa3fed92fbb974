/** The one Pothos builder: plugins, scalars and the request Context. No domain types here. */
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../generated/pothos-types.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type { Caller } from '../core/caller.rules.js';
import type { Services } from '../services.js';

export interface Context {
  services: Services;
  caller: Caller | null;
  /** Which credential authenticated the request (gateway auth: the CSRF rule needs it). */
  credential?: 'bearer' | 'cookie' | null;
  /** Whether the request carried `X-Service-Csrf: 1`. */
  csrf?: boolean;
  /**
   * The signed-in user of a dashboard session cookie (the dashboard routes, docs/api.md §4.2);
   * throws when the request has none. Absent on sockets.
   */
  dashboardUser?: () => Promise<string>;
}

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: ctx => ctx.services.deps.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
