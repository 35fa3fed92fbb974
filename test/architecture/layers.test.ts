/**
 * Layers that hold (issues #9, #26): no module of src/ imports a module of a higher layer. The rule
 * is the data below; the test reads every import of every .ts file under src/ (static, re-export
 * and dynamic `import()`), resolves the relative ones and fails on each import that climbs.
 *
 * The code is a folder per feature (apps, gateway-auth, membership, principals, rooms, rows, files,
 * billing, feeds), and a file's layer is its role, named by its suffix, not its folder:
 *
 *   rank  layer              what                                                   where
 *    0    rules              pure decisions: no I/O, imports only other rules,      *.rules.ts (core/ and features)
 *                            errors.ts and zod (specs also vitest)
 *    1    foundation         errors, config, the generic kernel and infrastructure  errors.ts, config.ts, lib/, db/,
 *                                                                                   storage/, bus/, generated/,
 *                                                                                   graphql-client/, schema/, core/;
 *                            and the pipeline's building blocks lower layers use    http/{body,responses,client-ip,
 *                            (bodies, JSON answers, the client IP, the one error     error-responses}.ts
 *                            formatter)
 *    2    identity-provider  the embedded OIDC server over the database; the        identity-provider/ (whole folder)
 *                            provider client names its routes (IDP_ROUTES)
 *    3    services           transactions, data access, events, SQL building        *.service.ts, *.sql.ts, services.ts
 *    4    graphql            the schema: resolvers call services                    *.graphql.ts, graphql/
 *    5    transports         HTTP and socket glue: endpoints, pages, their          http/, *.routes.ts, *.pages.ts,
 *                            OpenAPI, credential resolution and cookies             *.openapi.ts, *.http.ts
 *    6    entry              assembles the pipeline; the CLI                        server.ts, cli/
 *
 * A module may import its own layer and any lower one. A file in a feature folder names its role:
 * one without a suffix is in no layer and fails the test.
 *
 * Beside them, apart: sdk/ (`gatehouse/client`, issue #11) runs in browsers and knows nothing of the
 * server. It imports only sdk/ (its generated documents included) and the packages a browser
 * needs (graphql-ws); no server module imports it (rank 7: above everything). So is console/ui/ (the
 * web console, issue #29, .tsx included): it imports only console/ui/ and preact, and reaches the
 * server only over HTTP.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** First match wins: the SDK and the provider by folder, then roles by suffix, then folders. Paths are relative to src/, posix. */
export const LAYERS: { name: string; rank: number; match: RegExp }[] = [
  { name: 'sdk', rank: 7, match: /^sdk\// },
  { name: 'console-ui', rank: 7, match: /^console\/ui\// },
  { name: 'identity-provider', rank: 2, match: /^identity-provider\// },
  { name: 'rules', rank: 0, match: /\.rules(\.spec)?\.ts$/ },
  { name: 'services', rank: 3, match: /\.(service|sql)(\.spec)?\.ts$/ },
  { name: 'graphql', rank: 4, match: /\.graphql(\.spec)?\.ts$/ },
  { name: 'transports', rank: 5, match: /\.(routes|pages|openapi|http)(\.spec)?\.ts$/ },
  {
    name: 'foundation',
    rank: 1,
    match:
      /^(errors\.ts|config(\.spec)?\.ts|(lib|db|storage|bus|generated|graphql-client|schema|core)\/|http\/(body|responses|client-ip|error-responses)\.ts$)/,
  },
  { name: 'services', rank: 3, match: /^services\.ts$/ },
  { name: 'graphql', rank: 4, match: /^graphql\// },
  { name: 'transports', rank: 5, match: /^http\// },
  { name: 'entry', rank: 6, match: /^(server\.ts|cli\/)/ },
];

/** Rules are pure: of our modules they may import only other rules and these. */
const RULES_MAY_IMPORT = new Set(['errors.ts']);
/** Packages rules may use (no I/O among them). Their spec files may also use vitest. */
const RULES_PACKAGES = new Set(['zod']);
/** The SDK's packages: what its browser bundle carries (the typed-document import is types only). */
const SDK_PACKAGES = new Set(['graphql-ws', '@graphql-typed-document-node/core']);
/** The console's packages: preact (its hooks and JSX runtime) and, types only, the typed documents'. */
const CONSOLE_UI_PACKAGES = new Set(['preact', '@graphql-typed-document-node/core']);

export function layerOf(path: string) {
  return LAYERS.find(l => l.match.test(path)) ?? null;
}

/** Every module specifier a file names: `import … from`, `export … from`, bare `import '…'` and `import('…')`. */
export function specifiersOf(source: string): string[] {
  const found: string[] = [];
  // Comment lines are not imports (a doc comment may show one as an example); no statement starts with `//` or `*`.
  const code = source
    .split('\n')
    .filter(line => !/^\s*(\/\/|\/?\*)/.test(line))
    .join('\n');
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) found.push(m[1]);
  return found;
}

interface Violation {
  from: string;
  to: string;
  why: string;
}

/** The imports of `files` (path relative to src/ -> source text) that break the layering. */
export function violations(files: Map<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [from, source] of files) {
    const own = layerOf(from);
    if (!own) {
      out.push({
        from,
        to: '',
        why: 'file is in no layer: a feature file names its role (*.rules.ts, *.service.ts, …); a new folder goes in LAYERS',
      });
      continue;
    }
    for (const spec of specifiersOf(source)) {
      if (!spec.startsWith('.')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        const isSpec = from.endsWith('.spec.ts');
        if (own.name === 'rules' && !RULES_PACKAGES.has(pkg) && !(isSpec && pkg === 'vitest')) {
          out.push({ from, to: spec, why: 'rules do no I/O and use no packages but zod' });
        }
        if (own.name === 'sdk' && !SDK_PACKAGES.has(pkg)) {
          out.push({ from, to: spec, why: `the SDK runs in browsers: its packages are ${[...SDK_PACKAGES].join(', ')}` });
        }
        if (own.name === 'console-ui' && !CONSOLE_UI_PACKAGES.has(pkg)) {
          out.push({ from, to: spec, why: `the console runs in browsers: its packages are ${[...CONSOLE_UI_PACKAGES].join(', ')}` });
        }
        continue;
      }
      const to = posix.normalize(posix.join(posix.dirname(from), spec)).replace(/\.js$/, '.ts');
      if (to.startsWith('..')) continue; // outside src/ (examples/, package.json)
      const target = layerOf(to);
      if (!target) {
        out.push({ from, to, why: 'imported file is in no layer' });
        continue;
      }
      if (own.name === 'sdk') {
        if (!to.startsWith('sdk/')) out.push({ from, to, why: 'the SDK imports only sdk/: it knows nothing of the server' });
      } else if (own.name === 'console-ui') {
        if (!to.startsWith('console/ui/')) out.push({ from, to, why: 'the console imports only console/ui/: it reaches the server over HTTP' });
      } else if (target.name === 'console-ui') {
        out.push({ from, to, why: 'no server module imports the console: it is built for browsers' });
      } else if (own.name === 'rules') {
        // The one exception to ranks: errors.ts (the one error class) sits below the rules.
        if (target.name !== 'rules' && !RULES_MAY_IMPORT.has(to)) {
          out.push({ from, to, why: `rules may import only rules and ${[...RULES_MAY_IMPORT].join(', ')}` });
        }
      } else if (target.rank > own.rank) {
        out.push({ from, to, why: `${own.name} (${own.rank}) imports ${target.name} (${target.rank})` });
      }
    }
  }
  return out;
}

function sourceFiles(dir: string, out = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) sourceFiles(full, out);
    else if (/\.tsx?$/.test(entry.name)) out.set(relative(SRC, full).split('\\').join('/'), readFileSync(full, 'utf8'));
  }
  return out;
}

describe('layers', () => {
  it('no module of src/ imports a module of a higher layer', () => {
    const found = violations(sourceFiles(SRC)).map(v => `${v.from} -> ${v.to}: ${v.why}`);
    expect(found).toEqual([]);
  });

  it('the checker catches an upward import, a static re-export and a dynamic import', () => {
    const files = new Map([
      ['rooms/rooms.service.ts', "import type { Caller } from '../gateway-auth/resolve-caller.http.js';"],
      ['rooms/rooms.graphql.ts', "export { handle } from '../http/rest-shim.js';"],
      ['lib/z.ts', "const m = await import('../services.js');"],
      ['core/deps.ts', "import type { RoomService } from '../rooms/rooms.service.js';"],
      ['membership/membership.service.ts', "import { createGateway } from '../gateway-auth/gateway.routes.js';"],
      ['rows/rows.sql.ts', "import { RowsRef } from './rows.graphql.js';"],
      ['identity-provider/x.ts', "import { tokens } from '../gateway-auth/tokens.service.js';"],
      ['files/files.routes.ts', "import { main } from '../cli/main.js';"],
      [
        'rooms/ok.service.ts',
        "import { rank } from '../core/roles.rules.js';\nimport { AppError } from '../errors.js';\nimport { pageLimit } from '../core/pages.js';",
      ],
      ['rooms/ok.graphql.ts', "import { builder } from '../graphql/builder.js';\nimport { roomRef } from './rooms.service.js';"],
      ['http/ok.ts', "import { roomsRoutes } from '../rooms/rooms.routes.js';\nimport { json } from './responses.js';"],
      [
        'sdk/a.ts',
        "import { AppError } from '../errors.js';\nimport { z } from 'zod';\nimport { createClient } from 'graphql-ws';\nimport { b } from './b.js';",
      ],
      ['http/c.ts', "import { createClient } from '../sdk/index.js';"],
    ]);
    expect(violations(files).map(v => `${v.from} -> ${v.to}`)).toEqual([
      'rooms/rooms.service.ts -> gateway-auth/resolve-caller.http.ts',
      'rooms/rooms.graphql.ts -> http/rest-shim.ts',
      'lib/z.ts -> services.ts',
      'core/deps.ts -> rooms/rooms.service.ts',
      'membership/membership.service.ts -> gateway-auth/gateway.routes.ts',
      'rows/rows.sql.ts -> rows/rows.graphql.ts',
      'identity-provider/x.ts -> gateway-auth/tokens.service.ts',
      'files/files.routes.ts -> cli/main.ts',
      'sdk/a.ts -> errors.ts',
      'sdk/a.ts -> zod',
      'http/c.ts -> sdk/index.ts',
    ]);
  });

  it('rules stay pure: only other rules, errors.ts and zod', () => {
    const files = new Map([
      ['rooms/room-grants.rules.ts', "import { logger } from '../lib/logger.js';\nimport { readFile } from 'node:fs';"],
      ['membership/resources.rules.ts', "import type { DeploymentInfo } from '../apps/apps.service.js';"],
      ['core/caller.rules.ts', "import type { Config } from '../config.js';"],
      ['rows/rows.rules.spec.ts', "import { describe } from 'vitest';\nimport { pageLimit } from '../core/pages.js';"],
      [
        'rows/ok.rules.ts',
        "import { z } from 'zod';\nimport { AppError } from '../errors.js';\nimport { rank } from '../core/roles.rules.js';\nimport { isPublic } from '../membership/visibility.rules.js';",
      ],
      ['rows/ok.rules.spec.ts', "import { describe } from 'vitest';\nimport { check } from './ok.rules.js';"],
    ]);
    expect(violations(files).map(v => `${v.from} -> ${v.to}`)).toEqual([
      'rooms/room-grants.rules.ts -> lib/logger.ts',
      'rooms/room-grants.rules.ts -> node:fs',
      'membership/resources.rules.ts -> apps/apps.service.ts',
      'core/caller.rules.ts -> config.ts',
      'rows/rows.rules.spec.ts -> core/pages.ts',
    ]);
  });

  it('a file in a feature folder names its role', () => {
    expect(layerOf('rooms/room-grants.ts')).toBeNull();
    expect(layerOf('rooms/room-grants.rules.ts')?.name).toBe('rules');
    expect(layerOf('feeds/websocket.routes.spec.ts')?.name).toBe('transports');
    expect(layerOf('core/pages.ts')?.name).toBe('foundation');
    expect(layerOf('http/body.ts')?.name).toBe('foundation');
    expect(layerOf('http/rest-shim.ts')?.name).toBe('transports');
    expect(layerOf('identity-provider/pages.ts')?.name).toBe('identity-provider');
    expect(layerOf('schema/rules.ts')?.name).toBe('foundation');
  });

  it('every folder of src/ belongs to a layer', () => {
    const unplaced = [...sourceFiles(SRC).keys()].filter(path => !layerOf(path));
    expect(unplaced).toEqual([]);
  });
});
