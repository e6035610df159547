import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = { '@': fileURLToPath(new URL('./', import.meta.url)) };

// Two projects, told apart by file name (Langfuse's habit):
//   *.test.ts  — pure unit tests (no database, no network)
//   *.itest.ts — integration tests (lib, cli, workers, scripts, and doors in app) against real PostgreSQL, Redis and loopback provider servers;
//                the global setup makes a database and a Redis key prefix of their own and removes them.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: 'unit', include: ['{lib,cli,workers,scripts,components}/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['{lib,cli,workers,scripts,app,components}/**/*.itest.ts'],
          environment: 'node',
          globalSetup: ['./lib/testing/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
