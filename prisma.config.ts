// Prisma CLI configuration (Prisma 7 reads the connection URL from here, not from schema.prisma).
// Only `prisma generate` is used in this project, and it never connects: the default URL just keeps
// the config valid on a fresh clone. Migrations are plain SQL applied by `migrateReadModel`.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'libs/read-model/prisma/schema.prisma',
  migrations: { path: 'libs/read-model/prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ledger' },
});
