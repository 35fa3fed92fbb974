/**
 * Builds one of the light packages (packages/client, packages/schema) from the sources in src/: one
 * ES module made by esbuild and the type declarations tsc emits, into the package's dist/. The
 * sources stay where the server and the tests use them; a package folder holds only its build.
 *
 * Runs on install in the repository (each package's `prepare`) and before packing (the same
 * `prepare`, and the root's `prepack`). A build whose inputs, options and outputs are unchanged
 * since the last one is skipped (its record is in node_modules/.cache/gatehouse-packages/). Each
 * file is written under a temporary name and renamed, so a process reading dist/ meanwhile (the
 * gateway serving /sdk/client.js) sees a whole file.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * @typedef {object} PackageSpec
 * @property {string} packageDir the package folder; dist/ in it is written
 * @property {string} entry the entry module, relative to the repository
 * @property {string} typesRoot the source folder the declarations mirror under dist/types/, relative to the repository
 * @property {string[]} lib TypeScript libs for the declarations: what the package may assume of its host
 * @property {string[]} [external] packages left as imports (the package's dependencies); all else is bundled
 * @property {Record<string, string>} [alias] esbuild aliases (a package's browser-safe entry point instead of its main)
 * @property {Record<string, { file: string, declarations: string }>} [declaredTypes] type-only packages the
 *   sources import, declared in a file of dist/types instead, so the package needs no dependency for them
 */

/** Build tools this script needs: dev dependencies of the repository. */
const TOOLS = ['esbuild', 'typescript'];

/** Builds the package unless it is up to date; answers whether it built. */
export async function buildPackage(/** @type {PackageSpec} */ spec) {
  const missing = TOOLS.filter(tool => !resolvable(`${tool}/package.json`));
  if (missing.length) {
    // An install without dev dependencies (`npm ci --omit=dev` to run the server from a clone)
    // goes on without the light packages; packing them cannot.
    const message = `${path.basename(spec.packageDir)}: not built, ${missing.join(' and ')} not installed; \`npm run build:sdk\` builds it once they are.`;
    if (['pack', 'publish'].includes(process.env.npm_command ?? '')) throw new Error(message);
    console.warn(message);
    return false;
  }
  // Named after the package's folder: worktrees may share one node_modules.
  const folderKey = createHash('sha256').update(path.resolve(spec.packageDir)).digest('hex').slice(0, 16);
  const record = path.join(repositoryRoot, 'node_modules', '.cache', 'gatehouse-packages', `${folderKey}.json`);
  const previous = await readFile(record, 'utf8').then(JSON.parse, () => null);
  if (previous && previous.key === (await keyOf(spec, previous.inputs)) && previous.outputs === (await outputsDigest(spec.packageDir))) {
    return false;
  }

  const { outputs, inputs } = await compile(spec);
  await writeAll(path.join(spec.packageDir, 'dist'), outputs);
  await mkdir(path.dirname(record), { recursive: true });
  await writeFile(record, JSON.stringify({ key: await keyOf(spec, inputs), inputs, outputs: await outputsDigest(spec.packageDir) }));
  return true;
}

/** The package's files (path -> text) and the source files they were made from (relative to the repository). */
async function compile({ packageDir, entry, typesRoot, lib, external = [], alias = {}, declaredTypes = {} }) {
  const { build } = await import('esbuild');
  const { default: ts } = await import('typescript');
  const dist = path.join(packageDir, 'dist');
  const outputs = new Map();
  const inputs = new Set();

  const bundled = await build({
    // The metafile's input paths are relative to it.
    absWorkingDir: repositoryRoot,
    entryPoints: [path.join(repositoryRoot, entry)],
    bundle: true,
    format: 'esm',
    // No Node built-in and no browser global at load: the one file serves Node, bundlers and <script type="module">.
    platform: 'neutral',
    target: 'es2022',
    external,
    alias,
    write: false,
    metafile: true,
    outfile: path.join(dist, 'index.js'),
    logLevel: 'warning',
  });
  for (const input of Object.keys(bundled.metafile.inputs)) inputs.add(input);
  const notices = await bundledNotices(Object.keys(bundled.metafile.inputs), entry);
  for (const file of bundled.outputFiles) outputs.set(file.path, notices + file.text);

  const typesDir = path.join(dist, 'types');
  const program = ts.createProgram([path.join(repositoryRoot, entry)], {
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: path.join(repositoryRoot, typesRoot),
    outDir: typesDir,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: lib.map(name => `lib.${name.toLowerCase()}.d.ts`),
    types: [],
    strict: true,
    skipLibCheck: true,
    isolatedModules: true,
  });
  for (const source of program.getSourceFiles()) {
    if (!program.isSourceFileDefaultLibrary(source) && !source.fileName.includes('/node_modules/')) {
      inputs.add(path.relative(repositoryRoot, source.fileName));
    }
  }
  const emitted = program.emit(
    undefined,
    (file, text) => {
      let declarations = text;
      for (const [specifier, local] of Object.entries(declaredTypes)) {
        const relative = path
          .relative(path.dirname(file), path.join(typesDir, local.file.replace(/\.d\.ts$/, '.js')))
          .split(path.sep)
          .join('/');
        declarations = declarations.replaceAll(`from '${specifier}'`, `from '${relative.startsWith('.') ? relative : `./${relative}`}'`);
      }
      outputs.set(path.resolve(file), declarations);
    },
    undefined,
    true,
  );
  if (emitted.diagnostics.length) {
    const host = { getCanonicalFileName: f => f, getCurrentDirectory: () => repositoryRoot, getNewLine: () => '\n' };
    throw new Error(`the declarations of ${entry} could not be emitted:\n${ts.formatDiagnostics(emitted.diagnostics, host)}`);
  }
  for (const local of Object.values(declaredTypes)) outputs.set(path.join(typesDir, local.file), local.declarations);
  return { outputs, inputs: [...inputs].sort() };
}

/**
 * The notices of the npm packages bundled into the file (MIT and the like require them in every
 * copy), as a legal comment at its top: the file travels alone when the gateway serves it.
 */
async function bundledNotices(inputs, entry) {
  // Package folder -> name, from the bundled files' paths (relative to the repository).
  const packages = new Map();
  for (const input of inputs) {
    const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
    if (match) packages.set(path.join(repositoryRoot, match[1]), match[2]);
  }
  const notices = [];
  for (const [dir, name] of [...packages].sort(([, a], [, b]) => (a < b ? -1 : 1))) {
    const { version, license } = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
    const licenseFile = (await readdir(dir)).find(file => /^licen[cs]e/i.test(file));
    if (!licenseFile) throw new Error(`${name} is bundled into ${entry} but has no LICENSE file to carry`);
    const text = (await readFile(path.join(dir, licenseFile), 'utf8')).trim().replaceAll('*/', '* /');
    notices.push(`${name}@${version} (${license}):\n\n${text}`);
  }
  return notices.length ? `/*! Bundled packages and their notices.\n\n${notices.join('\n\n')}\n*/\n` : '';
}

function resolvable(specifier) {
  try {
    require.resolve(specifier);
    return true;
  } catch {
    return false;
  }
}

/** A digest of everything a build depends on: tool versions, this script, the package's manifest and build file, the spec, the inputs. */
async function keyOf(spec, inputs) {
  const hash = createHash('sha256');
  for (const tool of TOOLS) hash.update(`${tool}@${require(`${tool}/package.json`).version}\n`);
  hash.update(JSON.stringify(spec));
  const files = [fileURLToPath(import.meta.url), path.join(spec.packageDir, 'package.json'), path.join(spec.packageDir, 'build.mjs')];
  for (const file of [...files, ...inputs.map(input => path.join(repositoryRoot, input))]) {
    hash.update(`\0${file}\0`);
    hash.update(await readFile(file).catch(() => 'missing'));
  }
  return hash.digest('hex');
}

/** A digest of dist/ as it is on disk: a file edited or removed since the build makes it build again. */
async function outputsDigest(packageDir) {
  const dist = path.join(packageDir, 'dist');
  const entries = await readdir(dist, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries
    .filter(entry => entry.isFile())
    .map(entry => path.join(entry.parentPath, entry.name))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(`\0${path.relative(dist, file)}\0`).update(await readFile(file));
  return hash.digest('hex');
}

/** Writes each file whole (a temporary name, then a rename) and removes what an earlier build left that this one did not make. */
async function writeAll(dist, outputs) {
  for (const [file, text] of outputs) {
    await mkdir(path.dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, text);
    await rename(partial, file);
  }
  const present = await readdir(dist, { recursive: true, withFileTypes: true });
  for (const entry of present) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && !outputs.has(file) && !file.endsWith('.partial')) await rm(file, { force: true });
  }
}
