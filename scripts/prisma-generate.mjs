// Generates the Prisma client and the Pothos types offline.
// `prisma generate` never runs the schema engine, but the CLI tries to download one unless
// PRISMA_SCHEMA_ENGINE_BINARY names an existing file; point it at this script (it is never executed).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin');
const result = spawnSync(path.join(bin, 'prisma'), ['generate'], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: fileURLToPath(import.meta.url),
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_DISABLE: '1',
    PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
  },
});
process.exit(result.status ?? 1);
