/**
 * Locations inside the package. Resolved from this file (not the working directory) so the CLI,
 * tests and scripts find the same schema and migrations wherever they are started from.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the nearest directory above this file with a package.json. This file lives in
 * <root>/src/db, or is bundled into <root>/dist/server/<build> (bin/server-build.mjs).
 */
export const packageRoot = nearestPackageDir(path.dirname(fileURLToPath(import.meta.url)));

function nearestPackageDir(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, 'package.json'))) return at;
    if (path.dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

export const defaultSchemaPath = path.join(packageRoot, 'prisma', 'schema.prisma');

export const defaultMigrationsDir = path.join(packageRoot, 'prisma', 'migrations');
