/**
 * `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with
 * what changed in prisma/schema.prisma since the last checked-in migration (never `prisma migrate dev`,
 * which downloads a native engine).
 */
import path from 'node:path';
import { createMigration, validateMigrationName } from '../src/db/migrations.js';
import { packageRoot } from '../src/db/paths.js';

const usage = 'Usage: npm run db:migration -- <name>   (e.g. add_invite_links)';

async function main(args: string[]): Promise<number> {
  if (args.length !== 1) {
    console.error(usage);
    return 2;
  }
  const [name] = args;
  const invalid = validateMigrationName(name);
  if (invalid) {
    console.error(`${invalid}\n${usage}`);
    return 2;
  }
  const result = await createMigration(name);
  if (!result.created) {
    console.log(result.message);
    return 0;
  }
  const statements = result.sql.split(';').filter(s => s.trim() !== '').length;
  console.log(`Wrote ${path.relative(packageRoot, result.file)} (${statements} statements).`);
  console.log('Review it, then apply it with `npm run db:migrate` (or open the database with migrate: true).');
  return 0;
}

main(process.argv.slice(2)).then(
  code => process.exit(code),
  error => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
