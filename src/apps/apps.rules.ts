/**
 * Apps' inputs and shapes (docs/api.md §3): what a developer may send when registering an app,
 * deploying an environment or minting a test user, and how a stored schema is shown to code that
 * indexes it by names callers send.
 */
import { z } from 'zod';
import { fail, shown } from '../errors.js';
import type { VisibilityName } from '../membership/visibility.rules.js';

/** The resource type every deployment gets; app-level membership (joined at consent). */
export const APP_RESOURCE_TYPE = '_app';
/** The slug of that resource: one per deployment. */
export const APP_RESOURCE_SLUG = 'app';

/** 404 for an app that does not exist or is another developer's (the same answer for both). */
export const appNotFound = (appId: string) => fail('app_not_found', `No app ${shown(appId)} owned by you.`);

const originSchema = z
  .string()
  .url()
  .transform(value => new URL(value))
  .refine(url => url.protocol === 'https:' || url.protocol === 'http:', 'must be an http(s) origin')
  .refine(url => url.pathname === '/' && !url.search && !url.hash, 'must be an origin only (scheme://host[:port]), without a path')
  .transform(url => url.origin);

export const appInputSchema = z.object({
  name: z.string().trim().min(1, 'name must not be empty').max(100, 'name must be at most 100 characters'),
  origins: z.array(originSchema).max(20).default([]),
  // Checked one by one in `create` (redirectUriProblem) so the answer is invalid_redirect_uri.
  redirectUris: z.array(z.string()).max(20).default([]),
});

export const envNameSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'env must be lowercase letters, digits and dashes (e.g. dev, staging, prod)');

export const testUserNameSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'name must be 1-64 letters, digits, dashes or underscores');

/** A registered origin: an http(s) scheme and a host (with port); no path. */
const ORIGIN_SHAPE = /^https?:\/\/([a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(:\d{1,5})?$/;

/** Whether `origin` is spelled as a registered origin can be (lowercase, no path): anything else names no app. */
export const isOriginShaped = (origin: string): boolean => ORIGIN_SHAPE.test(origin);

/** Every origin naming `origin`'s host, under either scheme: a host belongs to one app under both. */
export function sameHostOrigins(origin: string): string[] {
  const { host } = new URL(origin);
  return [`https://${host}`, `http://${host}`];
}

export interface AppView {
  id: string;
  name: string;
  origins: string[];
  clientIds: string[];
  environments: string[];
  createdAt: Date;
}

/** An app as stored, with its origins, OAuth clients and deployed environments. */
export interface StoredApp {
  id: string;
  name: string;
  createdAt: Date;
  origins: { origin: string }[];
  clients: { clientId: string }[];
  deployments: { env: string }[];
}

export function appView(app: StoredApp): AppView {
  return {
    id: app.id,
    name: app.name,
    origins: app.origins.map(o => o.origin),
    clientIds: app.clients.map(c => c.clientId),
    environments: app.deployments.map(d => d.env).sort(),
    createdAt: app.createdAt,
  };
}

/** A resource every deployment holds from its deploy on: `_app`, and each static resource the schema declares. */
export interface StaticResource {
  type: string;
  slug: string;
  def: { visibility: { default: VisibilityName } };
}

/** What of a schema's resource types decides its static resources (SchemaIR's `resources`). */
type DeclaredResources = { resources: Record<string, { static: string[]; visibility: { default: VisibilityName } }> };

export function staticResourcesOf(schema: DeclaredResources): StaticResource[] {
  const wanted: StaticResource[] = [{ type: APP_RESOURCE_TYPE, slug: APP_RESOURCE_SLUG, def: { visibility: { default: 'members' } } }];
  for (const [type, def] of Object.entries(schema.resources)) {
    for (const slug of def.static) wanted.push({ type, slug, def });
  }
  return wanted;
}

/**
 * The stored IR with its name-keyed maps (types, tables, buckets) made prototype-free: they are
 * indexed by names callers send, and `constructor` or `toString` must be absent like any unknown
 * name, not Object.prototype's functions (a create of type `constructor` was a 500).
 */
export function withBareMaps<S extends { resources: object; tables: object; buckets?: object }>(schema: S): S {
  const bare = <T extends object>(map: T): T => Object.assign(Object.create(null), map);
  return { ...schema, resources: bare(schema.resources), tables: bare(schema.tables), ...(schema.buckets ? { buckets: bare(schema.buckets) } : {}) };
}
