import { expect, test } from '@playwright/test';

// Stop when decided (issue 24 item 2): the switch in the Run dialog, and the run page saying when and why
// each study stopped, with both intervals labelled. The reference study on the simulated provider is decided
// long before its 48 + 28 pairs are all sent.
test('a run with "Stop when decided" stops each study early and the run page says when and why', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await expect(page.locator('#run-provider')).toHaveValue('simulated');
  await page.locator('#run-stopWhenDecided').check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 1000 });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByTestId('stopped-when-decided')).toContainText(/selection stopped: decided after \d+ pairs of 48/);
  await expect(page.getByTestId('stopping-selection')).toContainText(/stopped: decided after \d+ pairs of 48/);
  const row = page.getByTestId('stopping-selection-clear');
  await expect(row).toContainText(/e-value [\d.]+ ≥ 40/);
  await expect(page.getByTestId('stopping')).toContainText('anytime-valid 95% confidence sequence');
  await expect(page.getByTestId('stopping')).toContainText('Fixed-n 95% interval');
  await expect(page.getByTestId('stopping')).toContainText(/\d+ of 152 trials not sent/);
});
