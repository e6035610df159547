import { expect, test } from '@playwright/test';
import { XSS, recordDialogs, importViaForm, startRun, tinyExperiment } from './helpers';

test('HTML in a task and in model output is shown as text, never run', async ({ page }) => {
  const dialogs = recordDialogs(page);
  const id = `e2e-xss-${Date.now()}`;
  await importViaForm(page, tinyExperiment(id, `Show invoice INV-7. ${XSS}`));
  await page.waitForURL(/\/experiments\//);
  await expect(page.getByRole('status')).toContainText('Imported as');

  await page.getByText('Cases and their case-card checks').click();
  await expect(page.getByTestId('case-task').first()).toContainText(XSS);
  await expect(page.locator('img[src="x"]')).toHaveCount(0);

  await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 60_000 });
  await page.getByTestId('trial-link').first().click();
  await page.waitForURL(/\/trials\//);
  await expect(page.getByTestId('task-text')).toContainText(XSS);
  // the raw request carries the task text too: as JSON text, not markup
  await expect(page.getByTestId('raw-request').first()).toContainText('onerror=alert(1)');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(dialogs).toEqual([]);
});
