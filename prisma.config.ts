import { defineConfig } from 'prisma/config';

// Connection details live in the driver adapters (src/db/); this file only locates the schema.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
