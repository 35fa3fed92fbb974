/** Resources: the view type, reads and createResource. */
import { z } from 'zod';
import { requirePrincipal } from '../core/caller.rules.js';
import type { MemberRow } from './membership.rules.js';
import { LIST_PAGE, wholeList } from '../core/pages.js';
import { BROWSE_PAGE, type ResourcePage, type ResourceView } from './resources.service.js';
import { builder } from '../graphql/builder.js';
import { pageRows, wholeListRows } from '../graphql/row-budget.js';
import { MembershipStateEnum, RoleEnum, StoredVisibilityEnum, VisibilityChoiceEnum, ids, validate } from '../graphql/common.js';

export const CurrentMemberRef = builder.objectRef<MemberRow>('CurrentMember').implement({
  description: "The caller's own membership.",
  fields: t => ({
    role: t.field({ type: RoleEnum, resolve: m => m.role }),
    state: t.field({ type: MembershipStateEnum, resolve: m => m.state }),
  }),
});

export const ResourceRef = builder.objectRef<ResourceView>('Resource').implement({
  fields: t => ({
    id: t.exposeID('id'),
    type: t.exposeString('type'),
    name: t.exposeString('name'),
    visibility: t.field({ type: StoredVisibilityEnum, resolve: r => r.visibility }),
    discoverable: t.exposeBoolean('discoverable'),
    memberCount: t.exposeInt('memberCount'),
    createdAt: t.field({ type: 'DateTime', resolve: r => r.createdAt }),
    currentMember: t.field({
      type: CurrentMemberRef,
      nullable: true,
      description: 'Present on list rows; on fetch only for active members; never on browse or static.',
      resolve: r => r.currentMember ?? null,
    }),
  }),
});

const ResourcePageRef = builder.objectRef<ResourcePage>('ResourcePage').implement({
  description: 'One page of resources; nextCursor is null on the last page.',
  fields: t => ({
    resources: t.field({ type: [ResourceRef], resolve: p => p.resources }),
    nextCursor: t.string({ nullable: true, resolve: p => p.nextCursor }),
  }),
});

const CreateResourceInput = builder.inputType('CreateResourceInput', {
  fields: t => ({
    type: t.string({ required: true }),
    name: t.string({ required: true }),
    visibility: t.field({ type: VisibilityChoiceEnum, required: false }),
  }),
});

const createResourceArgs = z.object({
  type: ids.typeName,
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  visibility: z.enum(['members', 'unlisted', 'discoverable']).nullish(),
});

builder.queryFields(t => ({
  resource: t.field({
    type: ResourceRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, ctx) => ctx.services.resources.get(requirePrincipal(ctx.caller), validate(ids.resourceId, String(id), 'id')),
  }),
  resources: t.field({
    type: [ResourceRef],
    description: `Resources where you are an active member, newest first; more than ${LIST_PAGE.max} is an error (too_many_results): page with resourcePage.`,
    args: { type: t.arg.string() },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: async (_, { type }, ctx) => {
      const page = await ctx.services.resources.list(requirePrincipal(ctx.caller), type);
      return wholeList(page, page.resources, 'resourcePage');
    },
  }),
  resourcePage: t.field({
    type: ResourcePageRef,
    description: `Resources where you are an active member, newest first, a page at a time (limit default and max ${LIST_PAGE.max}).`,
    args: { type: t.arg.string(), limit: t.arg.int(), cursor: t.arg.string() },
    extensions: pageRows(LIST_PAGE),
    resolve: (_, { type, ...page }, ctx) => ctx.services.resources.list(requirePrincipal(ctx.caller), type, page),
  }),
  browseResources: t.field({
    type: ResourcePageRef,
    description: 'Discoverable public resources, newest first.',
    args: { type: t.arg.string(), query: t.arg.string(), limit: t.arg.int(), cursor: t.arg.string() },
    extensions: pageRows(BROWSE_PAGE),
    resolve: (_, args, ctx) => ctx.services.resources.browse(requirePrincipal(ctx.caller), args),
  }),
  staticResource: t.field({
    type: ResourceRef,
    description: 'An app-owned singleton declared in the schema.',
    args: { type: t.arg.string({ required: true }), slug: t.arg.string({ required: true }) },
    resolve: (_, { type, slug }, ctx) => ctx.services.resources.static(requirePrincipal(ctx.caller), type, slug),
  }),
}));

builder.mutationFields(t => ({
  createResource: t.field({
    type: ResourceRef,
    args: { input: t.arg({ type: CreateResourceInput, required: true }) },
    resolve: (_, { input }, ctx) => ctx.services.resources.create(requirePrincipal(ctx.caller), validate(createResourceArgs, input, 'input')),
  }),
}));
