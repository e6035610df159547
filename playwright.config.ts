import { defineConfig } from '@playwright/test';
import { SINGLE_USER_STATE } from './e2e/single-user-state';

// Driven by scripts/e2e.sh, which starts the built app twice, each with a worker on its own database: in
// single-user mode (every spec but e2e/accounts/) and with accounts (e2e/accounts/: sign-in, roles, doors).
// Debian's Chromium: Playwright's own browser downloads cannot work here.
// Single-user mode admits only the browser that opened the link the server printed (docs/access.md):
// e2e/single-user.setup.ts opens it (E2E_SINGLE_USER_LINK, from scripts/e2e.sh) and saves that browser's
// cookie, which every single-user spec starts with.
export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/playwright',
  projects: [
    { name: 'single-user-link', testMatch: /single-user\.setup\.ts$/, use: { baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100' } },
    {
      name: 'single-user',
      testIgnore: /accounts\//,
      dependencies: ['single-user-link'],
      use: { baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100', storageState: SINGLE_USER_STATE },
    },
    { name: 'accounts', testMatch: /accounts\/.*\.spec\.ts$/, use: { baseURL: process.env.E2E_ACCOUNTS_URL ?? 'http://127.0.0.1:3101' } },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
});
