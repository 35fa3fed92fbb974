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

export type PrincipalKind =
  | 'agent'
  | 'user';

export type Role =
  | 'admin'
  | 'owner'
  | 'reader'
  | 'writer';

export type ExampleCreateTeamMutationVariables = Exact<{
  name: string;
}>;


export type ExampleCreateTeamMutation = { createResource: { id: string, name: string, memberCount: number } };

export type ExampleTeamRosterQueryVariables = Exact<{
  id: string | number;
}>;


export type ExampleTeamRosterQuery = { resource: { name: string, memberCount: number, currentMember: { role: Role } | null }, members: Array<{ userId: string, role: Role, state: MembershipState, kind: PrincipalKind }> };

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

export const ExampleCreateTeamDocument = new TypedDocumentString(`
    mutation ExampleCreateTeam($name: String!) {
  createResource(input: {type: "team", name: $name}) {
    id
    name
    memberCount
  }
}
    `) as unknown as TypedDocumentString<ExampleCreateTeamMutation, ExampleCreateTeamMutationVariables>;
export const ExampleTeamRosterDocument = new TypedDocumentString(`
    query ExampleTeamRoster($id: ID!) {
  resource(id: $id) {
    name
    memberCount
    currentMember {
      role
    }
  }
  members(resourceId: $id) {
    userId
    role
    state
    kind
  }
}
    `) as unknown as TypedDocumentString<ExampleTeamRosterQuery, ExampleTeamRosterQueryVariables>;