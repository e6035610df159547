import { expect, test } from '@playwright/test';
import { runReferenceStudy } from './helpers';

// One numbering (docs/results.md): a trial's order and replicate carry the same label — 1-based, `o2 / r1` —
// on the grid of what the model did, its trial page, its pair page and the review list.

test('one numbering: the same trial has the same order label on the grid, the trial page, the pair page and the review list', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const runId = await runReferenceStudy(page);

  // the grid → the trial page → the pair page: a trial of the second order sent
  const cell = page.getByTestId('choice-grid').locator('[data-testid="choice-cell"][data-order="o2"]').first();
  await expect(cell).toHaveText(/^o2\b/);
  const trialId = (await cell.getAttribute('data-trial'))!;
  await cell.click();
  await page.waitForURL(new RegExp(`/trials/${encodeURIComponent(trialId)}`));
  await expect(page.getByTestId('trial-place')).toHaveText(/^o2 \/ r\d+$/);
  const label = (await page.getByTestId('trial-place').textContent())!;
  await page.getByRole('link', { name: 'side by side' }).first().click();
  await page.waitForURL(/\/pairs\//);
  await expect(page.getByTestId('trial-place')).toHaveText(label);

  // the review list → the pair page → the trial page, for a pair of the second order
  await page.goto(`/runs/${encodeURIComponent(runId)}/review`);
  const row = page
    .getByTestId('review-pairs')
    .locator('tbody tr')
    .filter({ has: page.getByTestId('trial-place').filter({ hasText: /^o2 \// }) })
    .first();
  const listed = (await row.getByTestId('trial-place').textContent())!.trim();
  expect(listed).toMatch(/^o2 \/ r\d+$/);
  await row.getByRole('link', { name: 'side by side' }).click();
  await page.waitForURL(/\/pairs\//);
  await expect(page.getByTestId('trial-place')).toHaveText(listed);
  await page.getByTestId('side-by-side').getByRole('link', { name: 'trial page' }).first().click();
  await page.waitForURL(/\/trials\//);
  await expect(page.getByTestId('trial-place')).toHaveText(listed);
});
