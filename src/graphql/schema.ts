/** Imports every feature's GraphQL module (each registers on the builder) and builds the schema once. */
import { builder } from './builder.js';
import './common.js';
import '../membership/resources.graphql.js';
import '../membership/members.graphql.js';
import '../membership/invite-links.graphql.js';
import '../principals/principals.graphql.js';
import '../principals/users.graphql.js';
import '../apps/apps.graphql.js';
import '../feeds/feeds.graphql.js';
import '../principals/account.graphql.js';
import '../rooms/rooms.graphql.js';
import '../rows/rows.graphql.js';
import '../files/files.graphql.js';
import '../billing/billing.graphql.js';
import '../membership/dashboard.graphql.js';
import '../principals/developer-link.graphql.js';
import { assertRowWeights } from './row-budget.js';

export const schema = builder.toSchema({ sortSchema: true });
assertRowWeights(schema);
