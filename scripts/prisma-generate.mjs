// Generates the Prisma client and the Pothos types offline.
// `prisma generate` never runs the schema engine, but the CLI tries to download one unless
// PRISMA_SCHEMA_ENGINE_BINARY names an existing file; point it at this script (it is never executed).
// Prisma's CLI is found the way Node finds the package, so this works in the repository and where
// Gatehouse is installed as a dependency (its packages then sit in the app's node_modules).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const prismaCli = createRequire(path.join(root, 'package.json')).resolve('prisma/build/index.js');
// Prisma runs generators by their bin names (prisma-pothos-types): every node_modules/.bin from
// the package up, as npm gives its scripts.
const bins = [];
for (let dir = root; ; dir = path.dirname(dir)) {
  bins.push(path.join(dir, 'node_modules', '.bin'));
  if (path.dirname(dir) === dir) break;
}
const result = spawnSync(process.execPath, [prismaCli, 'generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: fileURLToPath(import.meta.url),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
    PATH: [...bins, process.env.PATH ?? ''].join(path.delimiter),
  },
});
process.exit(result.status ?? 1);
