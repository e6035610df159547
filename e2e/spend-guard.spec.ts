import { expect, test } from '@playwright/test';
import OpenAI from 'openai';
import { closeDb } from '../lib/db/client';
import { savePriceTable } from '../lib/runner/price-table';
import { echoScript, startLoopbackServer } from '../lib/testing/loopback-server';
import { expectFits } from './helpers';

// Spend guards (docs/spend-guards.md): the single-user app runs with TCLAB_CONFIRM_REQUESTS=50 (scripts/e2e.sh).
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

// Batch mode (docs/batch.md): the single-user app's openai provider goes to a loopback server this test starts
// on E2E port + 2 (scripts/e2e.sh), whose batch endpoints the app's worker drives through the OpenAI SDK.
test('batch mode: the switch is offered only for a provider with a batch API; the run page shows the batch and the saving', async ({ page }) => {
  const port = Number(new URL(process.env.E2E_BASE_URL ?? 'http://127.0.0.1:3100').port) + 2;
  const server = await startLoopbackServer({ script: echoScript, port });
  try {
    // held in progress until this test cancels it (its items then go out again in a second batch, which completes)
    server.setBatchBehaviour({ acceptedPolls: 0, inProgressPolls: 100_000 });
    await savePriceTable({ currency: 'USD', prices: [{ provider: 'openai', model: 'loopback-model', inputPerMTok: 2, outputPerMTok: 8 }] });
    await page.goto('/');
    await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
    await page.waitForURL(/\/experiments\//);
    await expect(page.locator('#run-provider')).toHaveValue('simulated');
    await expect(page.getByTestId('run-batch')).toHaveCount(0);
    await page.locator('#run-provider').selectOption('openai-compatible');
    await expect(page.getByTestId('run-batch')).toHaveCount(0);
    await page.locator('#run-provider').selectOption('openai');
    await expect(page.getByTestId('run-batch')).toContainText('Batch (about half price, answers within 24 h)');
    await page.locator('#run-model').fill('loopback-model');
    await page.locator('#run-batch').check();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByTestId('run-confirm')).toContainText('Type 152 to start it.');
    await expect(page.locator('#run-batch')).toBeChecked();
    await page.locator('#run-confirmRequests').fill('152');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.waitForURL(/\/runs\/[^/]+$/);

    const summary = page.getByTestId('batch-summary');
    await expect(async () => {
      await page.reload();
      await expect(summary).toContainText('1 batch submitted, 1 with the provider; 152 items', { timeout: 1000 });
    }).toPass({ timeout: 60_000 });
    await expect(page.getByTestId('batch-row')).toHaveCount(1);
    await expect(page.getByTestId('batch-row').first()).toContainText(/in progress|submitted/);
    // the price table has no batch price for the row: half of it
    await expect(summary).toContainText(/Estimated saving: USD \d+\.\d\d of \d+\.\d\d one by one/);

    // the provider cancels the batch: its items come back unanswered and go out again in a second batch
    server.setBatchBehaviour({});
    const [id] = [...server.batches.keys()];
    await new OpenAI({ apiKey: 'sk-e2e-batch-0000', baseURL: server.openaiBaseUrl }).batches.cancel(id);
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 1000 });
    }).toPass({ timeout: 90_000 });
    // the retries go out as they fall due (the run's backoff): in one batch or a few; each item once
    const stats = server.batchStats();
    expect(stats.submissions).toBeGreaterThanOrEqual(2);
    expect(stats.items).toBe(304);
    expect([...stats.byCustomId.values()].every((n) => n === 1)).toBe(true);
    await expect(summary).toContainText(`${stats.submissions} batches submitted, 0 with the provider; 304 items`);
    await expect(page.getByTestId('batch-row')).toHaveCount(stats.submissions);
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByTestId('batch-state')).toBeVisible();
      await expectFits(page, width);
    }
  } finally {
    await server.close();
    await closeDb();
  }
});
