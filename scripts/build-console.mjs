/**
 * Builds the web console (src/console/ui, preact) into dist/console/console.{js,css} with esbuild:
 * one minified ES module and one stylesheet, nothing from a CDN. Run by `npm install` (postinstall)
 * and `npm run build:console`. esbuild and preact are dev dependencies: an install without them
 * (`--omit=dev`, or the packed package, which ships the build from `prepack`) keeps the build it has,
 * or skips it, saying so, and the gateway answers /console with console_not_built until it is built.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist/console/console.js');

let esbuild;
try {
  // Both from this package's own dependencies: an installed gatehouse may find an esbuild of another package's.
  createRequire(path.join(root, 'package.json')).resolve('preact');
  esbuild = await import('esbuild');
} catch {
  console.warn(
    existsSync(built)
      ? 'build-console: preact or esbuild is not installed; the console built before packing is kept.'
      : 'build-console: preact or esbuild is not installed (a production install): the web console is not built.',
  );
  process.exit(0);
}

await esbuild.build({
  entryPoints: { console: path.join(root, 'src/console/ui/main.tsx') },
  outdir: path.join(root, 'dist/console'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});
