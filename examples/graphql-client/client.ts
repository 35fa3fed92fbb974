/**
 * A third-party GraphQL client of Gatehouse, typed by GraphQL Code Generator's client preset from
 * the published SDL (schema/schema.graphql). README "GraphQL clients and codegen" shows this file;
 * test/codegen/codegen.test.ts runs it against a live server, so the example stays runnable.
 */
import { graphql } from './gql/index.js';
import type { TypedDocumentString } from './gql/graphql.js';

export const CreateTeam = graphql(`
  mutation ExampleCreateTeam($name: String!) {
    createResource(input: { type: "team", name: $name }) { id name memberCount }
  }
`);

export const TeamRoster = graphql(`
  query ExampleTeamRoster($id: ID!) {
    resource(id: $id) { name memberCount currentMember { role } }
    members(resourceId: $id) { userId role state kind }
  }
`);

/** POST /graphql with a bearer token; the result and variables are typed by the document. */
export async function execute<TResult, TVariables>(
  gatewayUrl: string,
  token: string,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
): Promise<TResult> {
  const response = await fetch(`${gatewayUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: document, variables }),
  });
  const { data, errors } = (await response.json()) as { data?: TResult; errors?: { message: string; extensions?: { code?: string } }[] };
  if (errors?.length) throw new Error(`${errors[0].extensions?.code ?? 'error'}: ${errors[0].message}`);
  return data as TResult;
}
