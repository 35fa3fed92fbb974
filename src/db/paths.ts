/**
 * Locations inside the package. Resolved from this file (not the working directory) so the CLI,
 * tests and scripts find the same schema and migrations wherever they are started from.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: this file lives in <root>/src/db (or <root>/dist/db once built). */
export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export const defaultSchemaPath = path.join(packageRoot, 'prisma', 'schema.prisma');

export const defaultMigrationsDir = path.join(packageRoot, 'prisma', 'migrations');
