/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type MembershipState =
  | 'active'
  | 'invited'
  | 'requested';

export type Role =
  | 'admin'
  | 'owner'
  | 'reader'
  | 'writer';

export type ConsoleAccountQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAccountQuery = { myDashboardAccount: { id: string, displayName: string | null, handle: string | null, email: string | null, createdAt: string } };

export type ConsoleDeleteAccountMutationVariables = Exact<{
  confirm: string;
}>;


export type ConsoleDeleteAccountMutation = { deleteMyAccount: { ok: boolean, deleted: Array<string>, transferred: Array<{ resourceId: string, ownerId: string }> } };

export type ConsoleInvitationsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleInvitationsQuery = { myInvitationsAcrossApps: Array<{ resourceId: string, type: string, name: string, role: Role, invitedBy: string | null, expiresAt: string, appId: string, appName: string, env: string }> };

export type ConsoleAnswerInvitationMutationVariables = Exact<{
  resourceId: string | number;
  accept: boolean;
}>;


export type ConsoleAnswerInvitationMutation = { answerInvitationAcrossApps: { resourceId: string, state: MembershipState | null, role: Role | null } };

export type ConsoleOwnedResourcesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleOwnedResourcesQuery = { myOwnedResources: Array<{ resourceId: string, type: string, name: string, memberCount: number, appId: string, appName: string, env: string, createdAt: string }> };

export type ConsoleDeleteResourceMutationVariables = Exact<{
  appId: string | number;
  resourceId: string | number;
}>;


export type ConsoleDeleteResourceMutation = { deleteResourceAsOwner: { ok: boolean } };

export type ConsoleMySpendQueryVariables = Exact<{
  days?: number | null | undefined;
}>;


export type ConsoleMySpendQuery = { mySpendByDay: Array<{ appId: string, appName: string | null, since: string, until: string, days: Array<{ day: string, readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string }>, total: { readsUsd: string, writesUsd: string, transferUsd: string, storageUsd: string, totalUsd: string } }> };

export type ConsoleWalletQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleWalletQuery = { myWallet: { balanceUsd: string, entries: Array<{ id: string, kind: string, amountUsd: string, appId: string | null, env: string | null, quantity: number | null, createdAt: string }> } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}

export const ConsoleAccountDocument = new TypedDocumentString(`
    query ConsoleAccount {
  myDashboardAccount {
    id
    displayName
    handle
    email
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleAccountQuery, ConsoleAccountQueryVariables>;
export const ConsoleDeleteAccountDocument = new TypedDocumentString(`
    mutation ConsoleDeleteAccount($confirm: String!) {
  deleteMyAccount(confirm: $confirm) {
    ok
    transferred {
      resourceId
      ownerId
    }
    deleted
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteAccountMutation, ConsoleDeleteAccountMutationVariables>;
export const ConsoleInvitationsDocument = new TypedDocumentString(`
    query ConsoleInvitations {
  myInvitationsAcrossApps {
    resourceId
    type
    name
    role
    invitedBy
    expiresAt
    appId
    appName
    env
  }
}
    `) as unknown as TypedDocumentString<ConsoleInvitationsQuery, ConsoleInvitationsQueryVariables>;
export const ConsoleAnswerInvitationDocument = new TypedDocumentString(`
    mutation ConsoleAnswerInvitation($resourceId: ID!, $accept: Boolean!) {
  answerInvitationAcrossApps(resourceId: $resourceId, accept: $accept) {
    resourceId
    state
    role
  }
}
    `) as unknown as TypedDocumentString<ConsoleAnswerInvitationMutation, ConsoleAnswerInvitationMutationVariables>;
export const ConsoleOwnedResourcesDocument = new TypedDocumentString(`
    query ConsoleOwnedResources {
  myOwnedResources {
    resourceId
    type
    name
    memberCount
    appId
    appName
    env
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleOwnedResourcesQuery, ConsoleOwnedResourcesQueryVariables>;
export const ConsoleDeleteResourceDocument = new TypedDocumentString(`
    mutation ConsoleDeleteResource($appId: ID!, $resourceId: ID!) {
  deleteResourceAsOwner(appId: $appId, resourceId: $resourceId) {
    ok
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteResourceMutation, ConsoleDeleteResourceMutationVariables>;
export const ConsoleMySpendDocument = new TypedDocumentString(`
    query ConsoleMySpend($days: Int) {
  mySpendByDay(days: $days) {
    appId
    appName
    since
    until
    days {
      day
      readsUsd
      writesUsd
      transferUsd
      storageUsd
      totalUsd
    }
    total {
      readsUsd
      writesUsd
      transferUsd
      storageUsd
      totalUsd
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleMySpendQuery, ConsoleMySpendQueryVariables>;
export const ConsoleWalletDocument = new TypedDocumentString(`
    query ConsoleWallet {
  myWallet {
    balanceUsd
    entries {
      id
      kind
      amountUsd
      appId
      env
      quantity
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleWalletQuery, ConsoleWalletQueryVariables>;