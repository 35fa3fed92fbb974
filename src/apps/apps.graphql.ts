/** Developer surface: apps, deployments of app schemas, test users. */
import { requireDeveloper } from '../core/caller.rules.js';
import { type AppView, DEPLOYMENT_VERSIONS_KEPT } from './apps.service.js';
import { LIST_PAGE } from '../core/pages.js';
import { builder } from '../graphql/builder.js';
import { wholeListRows } from '../graphql/row-budget.js';

const AppRef = builder.objectRef<AppView>('App').implement({
  fields: t => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    origins: t.exposeStringList('origins'),
    clientIds: t.exposeStringList('clientIds'),
    redirectUris: t.stringList({
      description: 'The redirect URIs its OAuth clients accept (matched exactly, docs/api.md §4.6).',
      resolve: (app, _, ctx) => ctx.services.apps.redirectUris(app.id),
    }),
    environments: t.exposeStringList('environments'),
    createdAt: t.field({ type: 'DateTime', resolve: a => a.createdAt }),
  }),
});

const DeploymentRef = builder
  .objectRef<{ deploymentId: string; appId: string; env: string; version: number; resourceTypes: string[]; tables: string[]; buckets: string[] }>(
    'Deployment',
  )
  .implement({
    fields: t => ({
      deploymentId: t.exposeID('deploymentId'),
      appId: t.exposeID('appId'),
      env: t.exposeString('env'),
      version: t.exposeInt('version'),
      resourceTypes: t.exposeStringList('resourceTypes'),
      tables: t.exposeStringList('tables'),
      buckets: t.exposeStringList('buckets', { description: 'File buckets (docs/api.md §13).' }),
    }),
  });

const TestUserRef = builder.objectRef<{ user_id: string; token: string; expires_at: string; payer: string; env: string }>('TestUser').implement({
  description: 'A test-session token for a synthetic user, shown only in this response.',
  fields: t => ({
    userId: t.exposeID('user_id'),
    token: t.exposeString('token'),
    expiresAt: t.exposeString('expires_at'),
    payer: t.exposeString('payer'),
    env: t.exposeString('env'),
  }),
});

const TestUserRevocationRef = builder.objectRef<{ userId: string; env: string; revoked: number }>('TestUserRevocation').implement({
  fields: t => ({
    userId: t.exposeID('userId'),
    env: t.exposeString('env'),
    revoked: t.exposeInt('revoked', { description: 'How many live tokens were revoked.' }),
  }),
});

const TestUserEntryRef = builder.objectRef<{ userId: string; name: string; createdAt: Date; hasLiveTokens: boolean }>('TestUserEntry').implement({
  description: 'A test user of one environment (its tokens are never shown again).',
  fields: t => ({
    userId: t.exposeID('userId'),
    name: t.exposeString('name'),
    createdAt: t.field({ type: 'DateTime', description: 'When it got its first token in this environment.', resolve: u => u.createdAt }),
    hasLiveTokens: t.exposeBoolean('hasLiveTokens', { description: 'Whether a token of it in this environment is neither revoked nor expired.' }),
  }),
});

const CreateAppInput = builder.inputType('CreateAppInput', {
  fields: t => ({
    name: t.string({ required: true }),
    origins: t.stringList(),
    redirectUris: t.stringList(),
  }),
});

builder.queryFields(t => ({
  apps: t.field({
    type: [AppRef],
    description: 'Your apps (developer token).',
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, __, ctx) => ctx.services.apps.list(requireDeveloper(ctx.caller).developerId),
  }),
  testUsers: t.field({
    type: [TestUserEntryRef],
    description: "The test users of one of your app's environments, by user id (developer token).",
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }) },
    extensions: wholeListRows(LIST_PAGE.max),
    resolve: (_, a, ctx) => ctx.services.apps.testUsers(requireDeveloper(ctx.caller).developerId, String(a.appId), a.env),
  }),
}));

builder.mutationFields(t => ({
  createApp: t.field({
    type: AppRef,
    args: { input: t.arg({ type: CreateAppInput, required: true }) },
    resolve: (_, { input }, ctx) =>
      ctx.services.apps.create(requireDeveloper(ctx.caller).developerId, {
        name: input.name,
        origins: input.origins ?? undefined,
        redirectUris: input.redirectUris ?? undefined,
      }),
  }),
  addAppOrigin: t.field({
    type: AppRef,
    description: 'Registers one more origin for your app (as POST /dev/apps/:appId/origins); its root becomes a redirect URI.',
    args: { appId: t.arg.id({ required: true }), origin: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.addOrigin(requireDeveloper(ctx.caller).developerId, String(a.appId), a.origin),
  }),
  removeAppOrigin: t.field({
    type: AppRef,
    description: "Unregisters one of your app's origins (no change when it is not one).",
    args: { appId: t.arg.id({ required: true }), origin: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.removeOrigin(requireDeveloper(ctx.caller).developerId, String(a.appId), a.origin),
  }),
  setAppRedirectUris: t.field({
    type: AppRef,
    description: "Replaces the redirect URIs your app's OAuth clients accept, checked as at createApp (its origins' roots stay accepted).",
    args: { appId: t.arg.id({ required: true }), redirectUris: t.arg.stringList({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.setRedirectUris(requireDeveloper(ctx.caller).developerId, String(a.appId), a.redirectUris),
  }),
  deploy: t.field({
    type: DeploymentRef,
    description: 'Deploys an app schema IR (the JSON defineSchema compiles to) to one environment.',
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }), schema: t.arg({ type: 'JSON', required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.deploy(requireDeveloper(ctx.caller).developerId, String(a.appId), a.env, a.schema),
  }),
  createTestUser: t.field({
    type: TestUserRef,
    args: { appId: t.arg.id({ required: true }), name: t.arg.string({ required: true }), env: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.mintTestUser(requireDeveloper(ctx.caller).developerId, String(a.appId), { name: a.name, env: a.env }),
  }),
  revokeTestUser: t.field({
    type: TestUserRevocationRef,
    description:
      'Revokes every test-session token of the test user `name` in `env` (developer token): they stop at once; the user and its data stay, and createTestUser gives it a new token.',
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.revokeTestUser(requireDeveloper(ctx.caller).developerId, String(a.appId), { name: a.name, env: a.env }),
  }),
}));

const RemovalRef = builder
  .objectRef<{ appId: string; environments: string[]; rows: number; files: number; resources: number; testUsers: number }>('Removal')
  .implement({
    description: 'What deleting an app or an environment, or resetting one, removed (docs/api.md §3.2).',
    fields: t => ({
      appId: t.exposeID('appId'),
      environments: t.exposeStringList('environments', { description: 'The environments deleted or reset.' }),
      rows: t.exposeInt('rows'),
      files: t.exposeInt('files'),
      resources: t.exposeInt('resources', { description: 'Resources deleted (a reset makes the static ones anew).' }),
      testUsers: t.exposeInt('testUsers'),
    }),
  });

const DeveloperRef = builder.objectRef<{ developerId: string; email: string }>('Developer').implement({
  description: 'The developer a developer token belongs to.',
  fields: t => ({ developerId: t.exposeID('developerId'), email: t.exposeString('email') }),
});

const DeployedSchemaRef = builder
  .objectRef<{ appId: string; env: string; version: number; schema: Record<string, unknown> }>('DeployedSchema')
  .implement({
    fields: t => ({
      appId: t.exposeID('appId'),
      env: t.exposeString('env'),
      version: t.exposeInt('version'),
      schema: t.field({ type: 'JSON', description: 'The schema IR as deployed.', resolve: d => d.schema }),
    }),
  });

const DeploymentVersionRef = builder.objectRef<{ version: number; schema: Record<string, unknown>; createdAt: Date }>('DeploymentVersion').implement({
  fields: t => ({
    version: t.exposeInt('version'),
    schema: t.field({ type: 'JSON', description: 'The schema IR that version deployed.', resolve: d => d.schema }),
    createdAt: t.field({ type: 'DateTime', resolve: d => d.createdAt }),
  }),
});

builder.queryFields(t => ({
  developer: t.field({
    type: DeveloperRef,
    description: 'Who this developer token belongs to (`gatehouse whoami`).',
    resolve: (_, __, ctx) => ctx.services.apps.developer(requireDeveloper(ctx.caller).developerId),
  }),
  deployedSchema: t.field({
    type: DeployedSchemaRef,
    description: "The schema deployed to one of your app's environments.",
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }) },
    resolve: (_, a, ctx) => ctx.services.apps.deployedSchema(requireDeveloper(ctx.caller).developerId, String(a.appId), a.env),
  }),
  deploymentVersions: t.field({
    type: [DeploymentVersionRef],
    description: "The schemas one of your app's environments was deployed with, newest first (the last 50 kept).",
    args: { appId: t.arg.id({ required: true }), env: t.arg.string({ required: true }) },
    extensions: wholeListRows(DEPLOYMENT_VERSIONS_KEPT),
    resolve: (_, a, ctx) => ctx.services.apps.deploymentVersions(requireDeveloper(ctx.caller).developerId, String(a.appId), a.env),
  }),
}));

builder.mutationFields(t => ({
  deleteApp: t.field({
    type: RemovalRef,
    description: 'Deletes your app with every environment, its data, test users, origins and clients.',
    args: { appId: t.arg.id({ required: true }), confirm: t.arg.string({ description: '"prod" when the app has a prod environment.' }) },
    resolve: (_, a, ctx) => ctx.services.appRemoval.deleteApp(requireDeveloper(ctx.caller).developerId, String(a.appId), a.confirm),
  }),
  deleteEnvironment: t.field({
    type: RemovalRef,
    description: 'Deletes one environment of your app: its deployment, rows, files, resources and test users.',
    args: {
      appId: t.arg.id({ required: true }),
      env: t.arg.string({ required: true }),
      confirm: t.arg.string({ description: '"prod" to delete prod.' }),
    },
    resolve: (_, a, ctx) => ctx.services.appRemoval.deleteEnvironment(requireDeveloper(ctx.caller).developerId, String(a.appId), a.env, a.confirm),
  }),
  resetEnvironment: t.field({
    type: RemovalRef,
    description: 'Empties one environment of your app (rows, files, resources, test users); its schema stays deployed.',
    args: {
      appId: t.arg.id({ required: true }),
      env: t.arg.string({ required: true }),
      confirm: t.arg.string({ description: '"prod" to reset prod.' }),
    },
    resolve: (_, a, ctx) => ctx.services.appRemoval.resetEnvironment(requireDeveloper(ctx.caller).developerId, String(a.appId), a.env, a.confirm),
  }),
}));
