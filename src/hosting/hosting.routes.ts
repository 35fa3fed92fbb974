/**
 * Static sites on hosted app origins (docs/api.md §15). Developer routes publish them (what
 * `gatehouse publish` calls); a hosted origin serves the active version and tells its page where
 * its gateway is:
 *
 *   POST /dev/apps/:appId/origins                  register one more origin (`gatehouse dev`'s)
 *   PUT  /dev/apps/:appId/redirect-uris            replace the app's redirect URIs { redirectUris }
 *   POST /dev/apps/:appId/sites/:env/missing        which file hashes are not uploaded yet
 *   PUT  /dev/apps/:appId/sites/:env/files/:sha256  one file's bytes (raw body)
 *   POST /dev/apps/:appId/sites/:env/versions       publish { files: { path: sha256 }, spa? } and serve it
 *   GET  /dev/apps/:appId/sites/:env/versions       the versions, newest first
 *   POST /dev/apps/:appId/sites/:env/activate       { version? }: serve another (default: roll back one)
 *   GET  {app_origin}/_osg/config.json, /_osg/config.js   { gateway, clientId, appId, env }
 *   GET  {app_origin}/<path>                        the site
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { requireDeveloper } from '../core/caller.rules.js';
import { fail } from '../errors.js';
import { type Endpoint, type EndpointCall, type EndpointParameter, defineEndpoint } from '../http/endpoint.js';
import { json } from '../http/responses.js';
import { restError } from '../http/error-responses.js';
import { appOut } from '../http/rest-shapes.js';
import { answerFromSite } from './site-pages.http.js';
import { configScript, manifestLookup } from './sites.rules.js';
import { type StoredSiteFile, publishInput } from './sites.service.js';

const base = '/dev/apps/:appId/sites/:env';
const developer = { credential: 'developer', csrf: 'none' } as const;
const OWNED = ['app_not_found', 'env_not_deployed'] as const;

const versionOut = z.object({
  number: z.number().int(),
  id: z.string(),
  files: z.number().int(),
  bytes: z.number().int(),
  spa: z.boolean(),
  active: z.boolean(),
  createdAt: z.string(),
});

const who = (call: EndpointCall) => requireDeveloper(call.auth!.caller).developerId;

const configOut = z.object({
  gateway: z.string().describe('This origin + /_osg: the `gatewayUrl` of createClient'),
  clientId: z.string().nullable().describe("The app's OAuth client id"),
  appId: z.string(),
  env: z.string().describe('The environment its sign-in uses (GATEWAY_ENV)'),
});

const sitePathParameter: EndpointParameter = {
  name: 'path',
  in: 'path',
  required: true,
  description: 'Any path outside /_osg and /_invite',
  schema: { type: 'string' },
};

export const hostingEndpoints: Endpoint[] = [
  defineEndpoint<{ origin: string }>({
    ...developer,
    method: 'POST',
    path: '/dev/apps/:appId/origins',
    body: z.strictObject({ origin: z.string({ message: 'is required: scheme://host[:port]' }) }),
    responses: { 200: { description: 'The app (`added: false`: it had the origin already)', json: appOut.extend({ added: z.boolean() }) } },
    errors: ['app_not_found', 'origin_reserved', 'origin_taken'],
    docs: {
      operationId: 'addAppOrigin',
      summary: 'Register one more origin for an app (what `gatehouse dev` does for its local origin)',
      description:
        'The origin then serves the app as a hosted origin (`/_osg`, `/_invite`, its site); its root `/` is an allowed redirect URI of the app’s client.',
      tag: 'developer',
    },
    handle: async call => json(200, await call.runtime.services.apps.addOrigin(who(call), call.params.appId, call.body.origin)),
  }),
  defineEndpoint<{ redirectUris: string[] }>({
    ...developer,
    method: 'PUT',
    path: '/dev/apps/:appId/redirect-uris',
    body: z.strictObject({ redirectUris: z.array(z.string(), { message: 'is required: a list of absolute URLs' }) }),
    responses: { 200: { description: 'The app', json: appOut } },
    errors: ['app_not_found', 'invalid_redirect_uri'],
    docs: {
      operationId: 'setAppRedirectUris',
      summary: "Replace the redirect URIs an app's OAuth client accepts",
      description: 'Each is checked as at creation and matched exactly at sign-in; the roots of the app’s origins stay accepted.',
      tag: 'developer',
    },
    handle: async call => json(200, await call.runtime.services.apps.setRedirectUris(who(call), call.params.appId, call.body.redirectUris)),
  }),
  defineEndpoint<{ sha256: string[] }>({
    ...developer,
    method: 'POST',
    path: `${base}/missing`,
    body: z.strictObject({ sha256: z.array(z.string()).max(10_000) }),
    responses: { 200: { description: 'The hashes not uploaded yet', json: z.object({ missing: z.array(z.string()) }) } },
    errors: [...OWNED],
    docs: { operationId: 'siteMissingFiles', summary: 'Which site files the environment does not hold yet', tag: 'developer' },
    handle: async call => json(200, await call.runtime.services.sites.missingFiles(who(call), call.params.appId, call.params.env, call.body.sha256)),
  }),
  defineEndpoint({
    ...developer,
    method: 'PUT',
    path: `${base}/files/:sha256`,
    bodyReading: 'stream',
    body: { type: 'string', format: 'binary' },
    responses: {
      200: {
        description: 'Stored (`stored: false`: the environment held these bytes already)',
        json: z.object({ sha256: z.string(), size: z.number().int(), stored: z.boolean() }),
      },
    },
    errors: [...OWNED, 'invalid_site', 'site_file_mismatch', 'file_too_large'],
    docs: {
      operationId: 'siteUploadFile',
      summary: "Upload one site file's bytes, named by their SHA-256",
      tag: 'developer',
      bodyMediaType: '*/*',
      bodyRequired: true,
    },
    async handle(call) {
      const { context } = call;
      const length = context.headers.get('content-length');
      const stored = await call.runtime.services.sites.storeFile(who(call), call.params.appId, call.params.env, call.params.sha256, {
        body: context.bodyStream(),
        contentLength: length === null ? null : Number(length),
        signal: context.request.signal,
      });
      return json(200, stored);
    },
  }),
  defineEndpoint<z.infer<typeof publishInput>>({
    ...developer,
    method: 'POST',
    path: `${base}/versions`,
    body: publishInput,
    responses: { 200: { description: 'The new version, now served', json: versionOut } },
    errors: [...OWNED, 'invalid_site', 'site_files_missing'],
    docs: {
      operationId: 'sitePublish',
      summary: 'Publish a site version and serve it',
      description:
        '`files` maps every path to the SHA-256 of bytes already uploaded (409 `site_files_missing` lists the others); `spa`: unknown paths answer `/index.html`. The version is immutable; it becomes the served one in the same transaction.',
      tag: 'developer',
    },
    handle: async call => json(200, await call.runtime.services.sites.publish(who(call), call.params.appId, call.params.env, call.body)),
  }),
  defineEndpoint({
    ...developer,
    method: 'GET',
    path: `${base}/versions`,
    responses: {
      200: {
        description: 'Newest first (at most 100)',
        json: z.object({ appId: z.string(), env: z.string(), active: z.number().int().nullable(), versions: z.array(versionOut) }),
      },
    },
    errors: [...OWNED],
    docs: { operationId: 'siteVersions', summary: "An environment's site versions", tag: 'developer' },
    handle: async call => json(200, await call.runtime.services.sites.versions(who(call), call.params.appId, call.params.env)),
  }),
  defineEndpoint<{ version?: number }>({
    ...developer,
    method: 'POST',
    path: `${base}/activate`,
    body: z.strictObject({ version: z.number().int().positive().optional() }),
    responses: { 200: { description: 'The version now served', json: versionOut } },
    errors: [...OWNED, 'site_not_found', 'site_version_not_found', 'no_previous_version'],
    docs: {
      operationId: 'siteActivate',
      summary: 'Serve another site version (default: roll back to the one before)',
      tag: 'developer',
    },
    handle: async call => json(200, await call.runtime.services.sites.activate(who(call), call.params.appId, call.params.env, call.body)),
  }),
  defineEndpoint({
    method: ['GET', 'HEAD'],
    path: '/_osg/config.json',
    hosted: 'hosted-only',
    credential: 'none',
    responses: { 200: { description: 'Public values only', json: configOut } },
    // not_found: asked of a host that is not an app's hosted origin.
    errors: ['not_found'],
    docs: {
      operationId: 'hostedConfig',
      summary: "What a hosted page's SDK needs: its gateway and client id",
      description: '`createClient()` with no options reads the same values from `/_osg/config.js`, which every served HTML page loads first.',
      tag: 'service',
      security: [{}],
    },
    handle: async ({ context, runtime }) =>
      json(200, await runtime.services.hosting.siteConfig(context.mount.host!), { 'cache-control': 'no-cache' }),
  }),
  defineEndpoint({
    method: ['GET', 'HEAD'],
    path: '/_osg/config.js',
    hosted: 'hosted-only',
    credential: 'none',
    responses: { 200: { description: 'Sets `globalThis.__GATEHOUSE_CONFIG__`', content: { 'text/javascript': { type: 'string' } } } },
    errors: ['not_found'],
    docs: {
      operationId: 'hostedConfigScript',
      summary: 'The config as a script, loaded by every served HTML page before its own',
      tag: 'service',
      security: [{}],
    },
    async handle({ context, runtime }) {
      const script = configScript(await runtime.services.hosting.siteConfig(context.mount.host!));
      return new Response(context.method === 'HEAD' ? null : script, {
        headers: {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'no-cache',
          'content-length': String(Buffer.byteLength(script)),
        },
      });
    },
  }),
  defineEndpoint({
    method: ['GET', 'HEAD'],
    path: '/**:path',
    hosted: 'site',
    credential: 'none',
    responses: {
      200: {
        description: 'The file (or `/index.html` for a single-page app); 304 with no body to a matching If-None-Match',
        content: { '*/*': { type: 'string', format: 'binary' } },
      },
      404: { description: 'A page: no such file (the site’s `404.html` when it has one)', html: true },
    },
    errors: ['site_not_found', 'blob_missing', 'not_found'],
    docs: {
      operationId: 'hostedSite',
      summary: 'The published site of a hosted app origin',
      description:
        'Every GET or HEAD outside `/_osg` and `/_invite` on a hosted origin. Strong ETags (304), `no-cache` for HTML, a year and `immutable` for fingerprinted assets, a strict CSP; HTML pages load `/_osg/config.js` first.',
      tag: 'service',
      path: '/{path}',
      parameters: [sitePathParameter],
      security: [{}],
    },
    async handle({ context, runtime }) {
      const host = context.mount.host!;
      const { hosting, files } = runtime.services;
      const site = await hosting.activeSite(host.appId);
      if (!site) return restError(fail('site_not_found', `Nothing is published on ${host.origin} yet: gatehouse publish <dir> --app ${host.appId}.`));
      const { response, bytes } = await answerFromSite<StoredSiteFile>(
        {
          spa: site.spa,
          find: manifestLookup(site.files),
          open: async (_path, file) => (file.size ? files.blobs.get(file.key) : Readable.from([])),
          caching: 'published',
        },
        { method: context.method, path: context.url.pathname, headers: context.headers, host: new URL(host.origin).host },
      );
      hosting.meterTransfer(site, bytes);
      return response;
    },
  }),
];
