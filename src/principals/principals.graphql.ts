/** The caller (`me`), agents and blocks. */
import { type GraphQLResolveInfo, Kind } from 'graphql';
import type { Principal } from '../generated/prisma/client.js';
import { requirePrincipal } from '../core/caller.rules.js';
import { LIST_PAGE } from '../core/pages.js';
import { agentNameSchema } from './principals.service.js';
import { AccountDeletionRef } from './account.graphql.js';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../graphql/builder.js';
import { PrincipalKindEnum, ids, validate } from '../graphql/common.js';
import { wholeListRows } from '../graphql/row-budget.js';

const ProfileRef = builder.objectRef<{ handle: string | null; displayName: string | null }>('Profile').implement({
  description: 'How a principal is shown: its handle and display name.',
  fields: t => ({
    handle: t.exposeString('handle', { nullable: true }),
    displayName: t.exposeString('displayName', { nullable: true }),
  }),
});

const PrincipalRef = builder.prismaObject('Principal', {
  name: 'Principal',
  fields: t => ({
    id: t.exposeID('id'),
    kind: t.field({ type: PrincipalKindEnum, resolve: p => p.kind }),
    handle: t.exposeString('handle', { nullable: true }),
    displayName: t.exposeString('displayName', { nullable: true }),
    email: t.string({
      nullable: true,
      description: "Your own sign-in email, when the gateway knows it (the embedded provider's accounts); null for anyone else.",
      select: { account: { select: { email: true } } },
      resolve: (p, _, ctx) => (ctx.caller?.type === 'principal' && ctx.caller.principal.id === p.id ? (p.account?.email ?? null) : null),
    }),
    profile: t.field({ type: ProfileRef, resolve: p => ({ handle: p.handle, displayName: p.displayName }) }),
    owner: t.relation('owner', { nullable: true }),
  }),
});

const CreatedAgentRef = builder.objectRef<{ id: string; name: string; ownerId: string; token: string }>('CreatedAgent').implement({
  description: 'A new agent. `token` is its bearer credential, shown only in this response.',
  fields: t => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    ownerId: t.exposeID('ownerId'),
    token: t.exposeString('token'),
  }),
});

const AgentRef = builder.objectRef<{ id: string; name: string; createdAt: Date }>('Agent').implement({
  description: 'One of your agents in this app.',
  fields: t => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.field({ type: 'DateTime', resolve: a => a.createdAt }),
  }),
});

const BlockResultRef = builder.objectRef<{ ok: true; userId: string }>('BlockResult').implement({
  fields: t => ({ ok: t.boolean({ resolve: () => true }), userId: t.exposeID('userId') }),
});

const BlockRef = builder.objectRef<{ userId: string; createdAt: Date }>('Block').implement({
  fields: t => ({ userId: t.exposeID('userId'), createdAt: t.field({ type: 'DateTime', resolve: b => b.createdAt }) }),
});

/** A Pothos query that includes and selects nothing: the row's own columns answer every field asked. */
const isEmpty = (query: object) => Object.keys(query).length === 0;

/** The principal's fields its credential already carries (checked with the token, docs/api.md §9.6). */
const CREDENTIAL_FIELDS = new Set(['id', 'kind', '__typename']);

/** Whether `me` asks only for what the credential carries (`{ me { id } }`, an app learning who it acts as). */
const asksOnlyCredentialFields = (info: GraphQLResolveInfo) =>
  info.fieldNodes.every(node =>
    node.selectionSet?.selections.every(
      selection => selection.kind === Kind.FIELD && !selection.directives?.length && CREDENTIAL_FIELDS.has(selection.name.value),
    ),
  );

builder.queryFields(t => ({
  // A plain field, not a prismaField: that maps the selection to a Prisma query on every request
  // before the resolver runs, which `{ me { id } }` never uses (bench/README.md).
  me: t.field({
    type: PrincipalRef,
    description: 'The principal your credential acts as.',
    resolve: async (_, __, ctx, info) => {
      const { principal } = requirePrincipal(ctx.caller);
      // The caller's principal as its credential resolved it: no read, the same as every other
      // authorization this request makes (a deleted principal's tokens end with its deletion).
      if (asksOnlyCredentialFields(info)) return principal as Principal;
      const { id } = principal;
      const query = queryFromInfo({ context: ctx, info });
      // Own columns only (`{ me { id kind } }`, Pothos' query `{}`): the prepared read. A relation
      // asked for (email, owner) is Prisma's one query, as is a principal that is gone (its error).
      const row = isEmpty(query) ? await ctx.services.principals.principalRow(id) : null;
      return row ?? ctx.services.deps.prisma.principal.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  agents: t.field({
    type: [AgentRef],
    description: 'Your agents in this app, oldest first.',
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, __, ctx) => ctx.services.principals.agents(requirePrincipal(ctx.caller)),
  }),
  blocks: t.field({
    type: [BlockRef],
    description: 'Users you have blocked.',
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, __, ctx) => ctx.services.principals.blocks(requirePrincipal(ctx.caller)),
  }),
}));

builder.mutationFields(t => ({
  createAgent: t.field({
    type: CreatedAgentRef,
    args: { name: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.principals.createAgent(requirePrincipal(ctx.caller), validate(agentNameSchema, a.name, 'name')),
  }),
  deleteAgent: t.field({
    type: AccountDeletionRef,
    description:
      "Deletes one of your agents in this app, as deleting your account deletes them: its rows by each table's onOwnerDelete, its memberships (a resource it owns passes to its longest-standing admin, else it is deleted) and its tokens.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.accountDeletion.deleteAgent(requirePrincipal(ctx.caller), validate(ids.principalId, String(a.id), 'id')),
  }),
  blockUser: t.field({
    type: BlockResultRef,
    args: { userId: t.arg.id({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.principals.block(requirePrincipal(ctx.caller), validate(ids.principalId, String(a.userId), 'userId')),
  }),
  unblockUser: t.field({
    type: BlockResultRef,
    args: { userId: t.arg.id({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.principals.unblock(requirePrincipal(ctx.caller), validate(ids.principalId, String(a.userId), 'userId')),
  }),
}));
