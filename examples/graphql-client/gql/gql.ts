/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  mutation ExampleCreateTeam($name: String!) {\n    createResource(input: { type: \"team\", name: $name }) { id name memberCount }\n  }\n": typeof types.ExampleCreateTeamDocument,
    "\n  query ExampleTeamRoster($id: ID!) {\n    resource(id: $id) { name memberCount currentMember { role } }\n    members(resourceId: $id) { userId role state kind }\n  }\n": typeof types.ExampleTeamRosterDocument,
};
const documents: Documents = {
    "\n  mutation ExampleCreateTeam($name: String!) {\n    createResource(input: { type: \"team\", name: $name }) { id name memberCount }\n  }\n": types.ExampleCreateTeamDocument,
    "\n  query ExampleTeamRoster($id: ID!) {\n    resource(id: $id) { name memberCount currentMember { role } }\n    members(resourceId: $id) { userId role state kind }\n  }\n": types.ExampleTeamRosterDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ExampleCreateTeam($name: String!) {\n    createResource(input: { type: \"team\", name: $name }) { id name memberCount }\n  }\n"): typeof import('./graphql.js').ExampleCreateTeamDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ExampleTeamRoster($id: ID!) {\n    resource(id: $id) { name memberCount currentMember { role } }\n    members(resourceId: $id) { userId role state kind }\n  }\n"): typeof import('./graphql.js').ExampleTeamRosterDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
