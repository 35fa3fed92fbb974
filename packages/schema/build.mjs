// Builds @gatehouse/schema from src/schema (scripts/build-package.mjs): dist/index.js and dist/types/.
import { buildPackage } from '../../scripts/build-package.mjs';

await buildPackage({
  packageDir: import.meta.dirname,
  entry: 'src/schema/index.ts',
  // The schema IR names the roles and visibilities (src/core/roles.rules.ts, src/membership/visibility.rules.ts), bundled in with it.
  typesRoot: 'src',
  // Pure: no host API at all.
  lib: ['ES2023'],
  external: ['zod'],
});
