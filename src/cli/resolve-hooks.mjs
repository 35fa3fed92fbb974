/**
 * Node module hooks (module.register) for loading app schema files in `gatehouse deploy`.
 * Plain .mjs: hooks run on a loader thread before TypeScript support can be relied on.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// A schema file outside this package (say /tmp/app/gatehouse.schema.ts) has no
// node_modules/gatehouse to find, so 'gatehouse' and 'gatehouse/...' resolve as if imported from
// inside this package: Node's package self-reference then applies package.json "exports" (the one
// map of entry points), and every schema file uses this CLI's copy of the DSL: its sources (the
// "gatehouse-source" condition), the very modules the CLI runs, rather than the built light package.
const insidePackage = new URL('../../package.json', import.meta.url).href;
const SOURCE_CONDITION = 'gatehouse-source';

export async function resolve(specifier, context, nextResolve) {
  const ours = specifier === 'gatehouse' || specifier.startsWith('gatehouse/');
  const resolved = await nextResolve(
    specifier,
    ours ? { ...context, parentURL: insidePackage, conditions: [...context.conditions, SOURCE_CONDITION] } : context,
  );
  // tsx hands .ts/.js files outside a "type": "module" package to the CommonJS loader, which
  // (only tsx's ESM hooks being registered) fails on `import` with ERR_REQUIRE_CYCLE_MODULE.
  // Schema files are ES modules by contract, so user .ts files load as ESM (TypeScript is written
  // in ESM syntax whatever the package type), and so do .js files where no package.json gives a
  // "type" (as Node 22's syntax detection would); a CommonJS package's .js files stay CommonJS.
  // Node 22 leaves the format of a .ts file undetermined at resolve time (its loader then picks
  // CommonJS for a typeless directory), so an unset format is decided here too.
  const undecided = resolved.format === 'commonjs' || resolved.format === 'commonjs-typescript' || resolved.format == null;
  if (undecided && isUserModule(resolved.url)) return { ...resolved, format: 'module' };
  return resolved;
}

function isUserModule(url) {
  if (!url.startsWith('file:')) return false;
  const file = fileURLToPath(url);
  if (file.split(path.sep).includes('node_modules')) return false;
  return file.endsWith('.ts') || (file.endsWith('.js') && packageType(path.dirname(file)) === undefined);
}

const typeByDir = new Map();

/** The "type" field of the nearest package.json above `dir` (undefined if it has none or there is none). */
function packageType(dir) {
  if (!typeByDir.has(dir)) typeByDir.set(dir, readPackageType(dir));
  return typeByDir.get(dir);
}

function readPackageType(dir) {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).type;
  } catch (error) {
    const parent = path.dirname(dir);
    // Only a missing file moves the search up; an unreadable one counts as typeless.
    return error.code === 'ENOENT' && parent !== dir ? packageType(parent) : undefined;
  }
}
