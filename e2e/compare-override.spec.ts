import { expect, test } from '@playwright/test';
import { expectFits, referenceRunThenEdit, startRun } from './helpers';

// The comparability guard on the compare page (docs/optimise.md › The comparability guard): runs of two versions
// at different temperatures are refused, naming the difference; a reason overrides it, recorded once and shown
// beside the comparison, which the page's address then carries (and the report with it).

test('runs of two versions at different temperatures: refused, then compared with an override and its reason', async ({ page }) => {
  test.setTimeout(300_000);
  // the reference study run, then the next version (one description edited), run at another temperature
  const { v1 } = await referenceRunThenEdit(page, 'Returns the payment status of one invoice, by its number. Read-only.');
  const v2 = await startRun(page, { temperature: '0.7' });
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 120_000 });

  // refused, naming the difference; the form asks why
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/runs/compare?ids=${encodeURIComponent(`${v1},${v2}`)}`);
  await expect(page.getByTestId('compare-error')).toContainText('differ beyond their descriptions');
  await expect(page.getByTestId('compare-error')).toContainText('temperature: 0 vs 0.7');
  await expect(page.getByTestId('difference-selection-clear')).toHaveCount(0);
  const form = page.getByTestId('compare-override-form');
  await form.getByRole('textbox').fill('Pilot: does the edit hold at a warmer temperature? <b>not bold</b>');
  await form.getByTestId('compare-override').click();
  await page.waitForURL(/override=\d+/);
  const overrideId = new URL(page.url()).searchParams.get('override')!;

  // compared, with the override beside the result: the reason (as text), what it let through, who and when
  const notice = page.getByTestId('compare-override-notice');
  await expect(notice).toContainText('Compared with an override of the comparability guard');
  await expect(notice.getByTestId('compare-override-entry')).toContainText(`Run ${v2}: “Pilot: does the edit hold at a warmer temperature? <b>not bold</b>”`);
  await expect(notice.getByTestId('compare-override-entry').locator('li')).toHaveText(['temperature: 0 vs 0.7']);
  await expect(notice).toContainText(/Given by .+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
  await expect(page.getByTestId('compare-error')).toHaveCount(0);
  await expect(page.getByTestId('difference-selection-clear').getByTestId('difference-pairs')).not.toHaveText('');
  await expect(page.getByTestId('download-report')).toHaveAttribute('href', new RegExp(`override=${overrideId}$`));

  // the report follows the override; the page read again still shows it (recording nothing more: compare.itest)
  const report = await page.request.get((await page.getByTestId('download-report').getAttribute('href'))!);
  expect(report.status()).toBe(200);
  expect(await report.text()).toContain('compared with an override of the comparability guard');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(notice).toBeVisible();
  await expectFits(page, 390);
});
