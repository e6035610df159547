import { defineConfig } from '@playwright/test';

// Driven by scripts/e2e.sh, which starts the built app twice, each with a worker on its own database: in
// single-user mode (every spec but e2e/accounts/) and with accounts (e2e/accounts/: sign-in, roles, doors).
// Debian's Chromium: Playwright's own browser downloads cannot work here.
export default defineConfig({
  testDir: 'e2e',
  timeout: 120_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  outputDir: 'test-results/playwright',
  projects: [
    { name: 'single-user', testIgnore: /accounts\//, use: { baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100' } },
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
