/**
 * Layers that hold (issue #9): no module of src/ imports a module of a higher layer. The rule is
 * the data below; the test reads every import of every .ts file under src/ (static, re-export and
 * dynamic `import()`), resolves the relative ones and fails on each import that climbs.
 *
 * Low -> high. A module may import its own layer and any lower one.
 *  0 domain      pure rules and the caller type: no I/O. Imports only domain/ and errors.ts.
 *  1 foundation  errors, lib/, config, db/, generated/ (Prisma, codegen), schema/ (the schema IR),
 *                error-responses (the one error formatter), realtime/limits (constants that config reads).
 *  2 idp         the embedded identity provider: a self-contained OIDC server over the database. The
 *                services' provider client names its routes (IDP_ROUTES); it knows nothing above it.
 *  3 services    business rules and data access (services/), and the event bus and feed queue the
 *                services publish to (realtime/ minus the socket transport).
 *  4 graphql     the schema: resolvers call services.
 *  5 transports  HTTP and socket glue: rest/, auth/ (gateway routes, CORS, CSRF, credential
 *                resolution), realtime/websocket.
 *  6 entry       server.ts (assembles the pipeline) and the CLI.
 *
 * Beside them, apart: sdk/ (`gatehouse/client`, issue #11) runs in browsers and knows nothing of the
 * server. It imports only sdk/ (its generated documents included) and the packages a browser
 * needs (graphql-ws); no server module imports it (rank 7: above everything).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** First match wins: specific files before their folder. Paths are relative to src/, posix. */
export const LAYERS: { name: string; rank: number; match: RegExp }[] = [
  { name: 'sdk', rank: 7, match: /^sdk\// },
  { name: 'domain', rank: 0, match: /^domain\// },
  {
    name: 'foundation',
    rank: 1,
    match: /^(errors\.ts|error-responses\.ts|config(\.spec)?\.ts|lib\/|db\/|storage\/|generated\/|graphql-client\/|schema\/|realtime\/limits\.ts)/,
  },
  { name: 'idp', rank: 2, match: /^idp\// },
  { name: 'transports', rank: 5, match: /^realtime\/websocket(\.spec)?\.ts$/ },
  { name: 'services', rank: 3, match: /^(services\/|realtime\/)/ },
  { name: 'graphql', rank: 4, match: /^graphql\// },
  { name: 'transports', rank: 5, match: /^(rest|auth)\// },
  { name: 'entry', rank: 6, match: /^(server\.ts|cli\/)/ },
];

/** The domain is pure: of our modules it may import only these (beyond domain/ itself). */
const DOMAIN_MAY_IMPORT = new Set(['errors.ts']);
/** Packages the domain may use (no I/O among them). Its spec files may also use vitest. */
const DOMAIN_PACKAGES = new Set(['zod']);
/** The SDK's packages: what its browser bundle carries (the typed-document import is types only). */
const SDK_PACKAGES = new Set(['graphql-ws', '@graphql-typed-document-node/core']);

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
      out.push({ from, to: '', why: 'file is in no layer: add its folder to LAYERS' });
      continue;
    }
    for (const spec of specifiersOf(source)) {
      if (!spec.startsWith('.')) {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        const isSpec = from.endsWith('.spec.ts');
        if (own.name === 'domain' && !DOMAIN_PACKAGES.has(pkg) && !(isSpec && pkg === 'vitest')) {
          out.push({ from, to: spec, why: 'the domain does no I/O and uses no packages but zod' });
        }
        if (own.name === 'sdk' && !SDK_PACKAGES.has(pkg)) {
          out.push({ from, to: spec, why: `the SDK runs in browsers: its packages are ${[...SDK_PACKAGES].join(', ')}` });
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
      } else if (own.name === 'domain') {
        // The one exception to ranks: errors.ts (the one error class) sits below the domain's rules.
        if (!to.startsWith('domain/') && !DOMAIN_MAY_IMPORT.has(to)) {
          out.push({ from, to, why: `domain may import only domain/ and ${[...DOMAIN_MAY_IMPORT].join(', ')}` });
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
    else if (entry.name.endsWith('.ts')) out.set(relative(SRC, full).split('\\').join('/'), readFileSync(full, 'utf8'));
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
      ['services/x.ts', "import type { Caller } from '../auth/resolve-caller.js';"],
      ['graphql/y.ts', "export { handle } from '../rest/shim.js';"],
      ['lib/z.ts', "const m = await import('../services/index.js');"],
      ['domain/w.ts', "import { logger } from '../lib/logger.js';\nimport { readFile } from 'node:fs';"],
      ['services/ok.ts', "import { rank } from '../domain/roles.js';\nimport { AppError } from '../errors.js';"],
      [
        'sdk/a.ts',
        "import { AppError } from '../errors.js';\nimport { z } from 'zod';\nimport { createClient } from 'graphql-ws';\nimport { b } from './b.js';",
      ],
      ['rest/c.ts', "import { createClient } from '../sdk/index.js';"],
    ]);
    expect(violations(files).map(v => `${v.from} -> ${v.to}`)).toEqual([
      'services/x.ts -> auth/resolve-caller.ts',
      'graphql/y.ts -> rest/shim.ts',
      'lib/z.ts -> services/index.ts',
      'domain/w.ts -> lib/logger.ts',
      'domain/w.ts -> node:fs',
      'sdk/a.ts -> errors.ts',
      'sdk/a.ts -> zod',
      'rest/c.ts -> sdk/index.ts',
    ]);
  });

  it('every folder of src/ belongs to a layer', () => {
    const unplaced = [...sourceFiles(SRC).keys()].filter(path => !layerOf(path));
    expect(unplaced).toEqual([]);
  });
});
