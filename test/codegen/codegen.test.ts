/**
 * Issue #8 item 23: codegen.ts exists, its committed output is current, every REST route runs a
 * generated (schema-checked, typed) document, and the README's third-party client example works.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generate } from '@graphql-codegen/cli';
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import config from '../../codegen.js';
import * as generated from '../../src/graphql-client/generated/graphql.js';
import { storedOperationEndpoints as routes } from '../../src/http/routes.js';
import { CreateTeam, TeamRoster, execute } from '../../examples/graphql-client/client.js';
import { appTest } from '../helpers/fixtures.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('codegen', () => {
  it('the committed output is what codegen.ts generates from schema/schema.graphql (npm run codegen)', async () => {
    const outputs = await generate({ ...config, cwd: root, silent: true }, false);
    expect(outputs.length).toBeGreaterThan(0);
    for (const { filename, content } of outputs) {
      const committed = readFileSync(new URL(filename, `file://${root}`), 'utf8');
      expect(committed, `${filename} is stale: run npm run codegen`).toBe(content);
    }
  }, 60_000);

  it('every REST route runs a generated document that validates against the SDL', () => {
    const schema = buildSchema(readFileSync(new URL('schema/schema.graphql', `file://${root}`), 'utf8'));
    const documents = new Set(
      Object.values(generated)
        .filter(v => v instanceof generated.TypedDocumentString)
        .map(String),
    );
    for (const route of routes) {
      expect(documents.has(route.operation), `${route.method} ${route.path}`).toBe(true);
      expect(
        validate(schema, parse(route.operation)).map(e => e.message),
        `${route.method} ${route.path}`,
      ).toEqual([]);
    }
  });
});

// The example client takes a URL and uses the global fetch.
const withApp = appTest({ app: { listen: true }, users: ['alice'] });

describe('the README third-party client example', () => {
  const it = withApp;

  it('creates a team and reads its roster through typed documents', async ({ ctx, s }) => {
    const alice = s.users.alice;
    const { createResource } = await execute(ctx.url, alice.token!, CreateTeam, { name: 'Core team' });
    expect(createResource).toMatchObject({ name: 'Core team', memberCount: 1 });
    const roster = await execute(ctx.url, alice.token!, TeamRoster, { id: createResource.id });
    expect(roster.resource.currentMember?.role).toBe('owner');
    expect(roster.members).toEqual([{ userId: alice.id, role: 'owner', state: 'active', kind: 'user' }]);
  });
});
