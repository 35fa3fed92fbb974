/** Imports every area module (each registers on the builder) and builds the schema once. */
import { builder } from './builder.js';
import './common.js';
import './resources.js';
import './members.js';
import './invite-links.js';
import './principals.js';
import './users.js';
import './apps.js';
import './feeds.js';
import './account.js';
import './rooms.js';
import './rows.js';
import './files.js';
import './billing.js';
import './dashboard.js';
import { assertRowWeights } from './row-budget.js';

export const schema = builder.toSchema({ sortSchema: true });
assertRowWeights(schema);
