import 'dotenv/config';
import { defineConfig } from 'prisma/config';

// Prisma 7 needs this file. The CLI is only used for `generate` here (its schema engine cannot be
// downloaded on our machines); migrations are plain SQL applied by scripts/migrate.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/tclab' },
});
