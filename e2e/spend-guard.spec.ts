import { expect, test } from '@playwright/test';

// Spend guards (issue 26 item 3): the single-user app runs with TCLAB_CONFIRM_REQUESTS=50 (scripts/e2e.sh).
// The reference study's 152 requests on a paid model need the number typed before the run is created; on
// the simulated model they cost nothing and start at once (every other spec relies on that).
test('the Run dialog asks for the number of paid requests typed before it starts a large run', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  const experimentUrl = page.url();

  await page.locator('#run-provider').selectOption('openai-compatible');
  await page.locator('#run-maxAttempts').fill('1');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const confirm = page.getByTestId('run-confirm');
  await expect(confirm).toContainText('this run sends 152 paid requests (more than TCLAB_CONFIRM_REQUESTS = 50). Type 152 to start it.');
  expect(page.url()).toBe(experimentUrl); // nothing was created

  // a wrong number is no confirmation
  await page.locator('#run-confirmRequests').fill('151');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(confirm).toContainText('(151 was confirmed)');
  expect(page.url()).toBe(experimentUrl);

  await page.locator('#run-confirmRequests').fill('152');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  // its requests go nowhere (port 9): the pre-check fails, and nothing else is sent
  await expect(page.getByTestId('run-status')).toHaveText('failed', { timeout: 60_000 });
});

test('a budget set in the Run dialog stops the run: "budget reached: 10 requests"', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await expect(page.locator('#run-provider')).toHaveValue('simulated');
  await page.locator('#run-budgetRequests').fill('10');
  await page.locator('#run-concurrency').fill('1');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('run-status')).toHaveText('cancelled', { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText('budget reached: 10 requests')).toBeVisible();
});
