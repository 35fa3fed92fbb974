/**
 * Linking a developer to the person signed in to the console (docs/api.md §4.2): dashboard session
 * only, so no app credential can link, unlink or learn the link.
 */
import { builder } from '../graphql/builder.js';
import { OkRef } from '../graphql/common.js';
import { dashboardUser } from '../membership/dashboard.graphql.js';
import type { LinkedDeveloper } from './developer-link.service.js';

const LinkedDeveloperRef = builder.objectRef<LinkedDeveloper>('LinkedDeveloper').implement({
  description: 'The developer your console session acts as on the developer fields (apps, deploy, createTestUser, budgets, …).',
  fields: t => ({
    developerId: t.exposeID('developerId'),
    email: t.exposeString('email'),
    linkedAt: t.field({ type: 'DateTime', resolve: l => l.linkedAt }),
  }),
});

builder.queryField('consoleDeveloper', t =>
  t.field({
    type: LinkedDeveloperRef,
    nullable: true,
    description: 'The developer linked to the dashboard user, or null (dashboard session only).',
    resolve: async (_, __, ctx) => ctx.services.developerLinks.linkedDeveloper(await dashboardUser(ctx)),
  }),
);

builder.mutationFields(t => ({
  linkDeveloper: t.field({
    type: LinkedDeveloperRef,
    description:
      'Links the developer whose token you paste to you (dashboard session only): your console session then acts as that developer on the developer fields of /graphql. A person links one developer; a developer, one person.',
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_, { token }, ctx) => ctx.services.developerLinks.linkDeveloper(await dashboardUser(ctx), token),
  }),
  unlinkDeveloper: t.field({
    type: OkRef,
    description: 'Ends the link: your console session no longer acts as a developer (dashboard session only). Idempotent.',
    resolve: async (_, __, ctx) => {
      await ctx.services.developerLinks.unlinkDeveloper(await dashboardUser(ctx));
      return { ok: true as const };
    },
  }),
}));
