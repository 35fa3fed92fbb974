/**
 * `GET /` on the gateway's own host: where a new user lands after `npm start`. A small page (or,
 * for `Accept: application/json`, the same facts as JSON) linking what the server offers and the
 * next command; `gatehouse serve` prints the same once it listens. Nothing secret: no credential is
 * needed and none is shown.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../db/paths.js';
import type { HeaderReader } from './responses.js';
import { html, json } from './responses.js';

let packageVersion: string | undefined;
const versionOf = () =>
  (packageVersion ??= (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version);

export interface Entrypoints {
  /** The REST API's base, its contract, GraphQL (with GraphiQL outside production), readiness. */
  rest: string;
  openapi: string;
  graphql: string;
  graphiql: boolean;
  healthz: string;
  /** The command that starts a developer's first session with this server. */
  next: string;
}

/** What a server at `base` offers (absolute URLs when a base is given, else paths on this host). */
export function entrypoints(base: string, { graphiql }: { graphiql: boolean }): Entrypoints {
  return {
    rest: `${base}/v1`,
    openapi: `${base}/openapi.json`,
    graphql: `${base}/graphql`,
    graphiql,
    healthz: `${base}/healthz`,
    next: 'npx gatehouse dev-token create --developer you@example.com',
  };
}

/** The lines `gatehouse serve` prints after its listen line. */
export function entrypointLines(links: Entrypoints): string[] {
  return [
    `  REST API  ${links.rest}/…  (every route: ${links.openapi})`,
    `  GraphQL   ${links.graphql}${links.graphiql ? '  (open it in a browser for GraphiQL)' : ''}`,
    `  Health    ${links.healthz}`,
    'Next, a developer token (for the /dev API and the CLI):',
    `  ${links.next}`,
  ];
}

export function landingPage(headers: HeaderReader, { graphiql }: { graphiql: boolean }): Response {
  const links = entrypoints('', { graphiql });
  const version = versionOf();
  const accept = headers.get('accept') ?? '';
  if (/application\/json/.test(accept) && !/text\/html/.test(accept)) return json(200, { name: 'gatehouse', version, ...links });
  return html(200, page(version, links));
}

function page(version: string, links: Entrypoints): string {
  const item = (href: string, label: string, what: string) => `<li><a href="${href}">${label}</a>: ${what}</li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Gatehouse</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#eee;padding:.1rem .3rem}</style></head>
<body>
<h1>Gatehouse ${version}</h1>
<p>This server is running. What it offers:</p>
<ul>
${item(links.graphql, 'GraphQL', links.graphiql ? 'the API; this link opens GraphiQL' : 'the API (POST)')}
${item(links.openapi, 'OpenAPI', `the REST API under <code>${links.rest}/</code>, every route and error`)}
${item(links.healthz, 'Health', 'whether it serves, and its database and event bus')}
</ul>
<p>Next, create a developer token (for the <code>/dev</code> API and the CLI):</p>
<pre><code>${links.next}</code></pre>
<p>The API reference is <code>docs/api.md</code> in the repository.</p>
</body>
</html>
`;
}
