import { defineConfig } from 'prisma/config';

// DATABASE_URL is only needed by Prisma's own CLI (migrate); generate runs offline without it.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/aegis' },
});
