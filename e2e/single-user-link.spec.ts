import { expect, test } from '@playwright/test';

// Single-user mode (docs/access.md) admits only the browser that opened the link `npm start` printed.
// Every spec of this project starts as that browser (e2e/single-user.setup.ts); another client of this
// machine — here a fresh browser context and a request context without the cookie — is refused.

const nobody = { storageState: { cookies: [], origins: [] } };

test('a browser without the link sees "open the link printed by npm start"; the one that opened it reaches the pages', async ({ browser, page }) => {
  const other = await browser.newContext(nobody);
  const stranger = await other.newPage();
  await stranger.goto('/runs');
  await expect(stranger).toHaveURL(/\/sign-in\?next=%2Fruns$/);
  await expect(stranger.getByRole('heading', { name: 'Open the link printed by npm start' })).toBeVisible();
  await expect(stranger.getByTestId('single-user-link-needed')).toContainText('only the browser that opened the link');
  // the setup used the link: opening it again from another browser is refused, and so is a made-up token
  await stranger.goto(process.env.E2E_SINGLE_USER_LINK ?? '/?token=');
  await expect(stranger.locator('body')).toContainText('it was used already');
  await stranger.goto('/?token=not-the-token');
  await expect(stranger.locator('body')).toContainText('This link is not valid');
  await stranger.goto('/runs');
  await expect(stranger).toHaveURL(/\/sign-in/);
  await other.close();

  await page.goto('/runs');
  await expect(page).toHaveURL(/\/runs$/);
  await expect(page.getByTestId('who')).toHaveText('single-user mode');
});

test('API routes answer 401 to a client without the cookie, and serve the one with it; health stays open', async ({ playwright, request }) => {
  const other = await playwright.request.newContext(nobody);
  expect((await other.get('/api/runs/r_none/progress')).status()).toBe(401);
  expect((await other.post('/api/runs/r_none/control', { data: { action: 'cancel' } })).status()).toBe(401);
  expect((await other.get('/api/health')).status()).toBe(200);
  await other.dispose();
  expect((await request.get('/api/runs/r_none/progress')).status()).toBe(404);
});
