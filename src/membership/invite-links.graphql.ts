/** Invite links: create (admin+) and claim. */
import { z } from 'zod';
import { requirePrincipal } from '../core/caller.rules.js';
import type { Role } from '../core/roles.rules.js';
import { builder } from '../graphql/builder.js';
import { MembershipStateEnum, RoleEnum, ids, validate } from '../graphql/common.js';

const InviteLinkRef = builder.objectRef<{ url: string; role: Role; expiresAt: Date }>('InviteLink').implement({
  description: 'The code in url is shown only here; only its hash is stored.',
  fields: t => ({
    url: t.exposeString('url'),
    role: t.field({ type: RoleEnum, resolve: l => l.role }),
    expiresAt: t.field({ type: 'DateTime', resolve: l => l.expiresAt }),
  }),
});

const ClaimResultRef = builder.objectRef<{ ok: true; resourceId: string; state: 'active'; role: Role }>('InviteLinkClaim').implement({
  fields: t => ({
    ok: t.boolean({ resolve: () => true }),
    resourceId: t.exposeID('resourceId'),
    state: t.field({ type: MembershipStateEnum, resolve: r => r.state }),
    role: t.field({ type: RoleEnum, resolve: r => r.role }),
  }),
});

const code = z.string().min(1, 'must not be empty').max(200, 'is too long');

builder.mutationFields(t => ({
  createInviteLink: t.field({
    type: InviteLinkRef,
    args: { resourceId: t.arg.id({ required: true }), role: t.arg({ type: RoleEnum }) },
    resolve: (_, a, ctx) =>
      ctx.services.inviteLinks.create(
        requirePrincipal(ctx.caller),
        validate(ids.resourceId, String(a.resourceId), 'resourceId'),
        a.role ?? undefined,
      ),
  }),
  claimInviteLink: t.field({
    type: ClaimResultRef,
    args: { code: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.inviteLinks.claim(requirePrincipal(ctx.caller), validate(code, a.code, 'code')),
  }),
}));
