import { expect, test, type Page } from '@playwright/test';
import { expectFits, startRun } from './helpers';

// Reviewing as a queue, on a phone-sized screen: the first unreviewed pair, all its readings saved with one
// button, "next" within the unreviewed filter, and the progress count going up.

const progressOf = async (page: Page) => {
  const m = /^(\d+) of (\d+) pairs? reviewed/.exec((await page.getByTestId('review-progress').textContent()) ?? '');
  expect(m, 'a progress count').not.toBeNull();
  return { reviewed: Number(m![1]), pairs: Number(m![2]) };
};

test.use({ viewport: { width: 390, height: 844 } });

test('review queue: open the first unreviewed pair, save every reading with one button, follow next, see progress go up (390 px)', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });

  await page.getByTestId('review-link').click();
  await page.waitForURL(/\/review$/);
  const before = await progressOf(page);
  expect(before.reviewed).toBe(0);
  expect(before.pairs).toBeGreaterThan(1);
  await expectFits(page, 390);

  await page.getByTestId('show-unreviewed').click();
  await page.waitForURL(/\?show=unreviewed$/);
  const rows = page.getByTestId('review-pairs').locator('tbody tr');
  await expect(rows).toHaveCount(Math.min(before.pairs, 100));
  await expect(rows.first().getByTestId('pair-reviewed')).toHaveText(/^0\/\d+ checks?$/);
  await rows.locator('a', { hasText: 'side by side' }).first().click();
  await page.waitForURL(/\/pairs\/[^/]+\/[^/?]+\?show=unreviewed$/);
  const first = page.url();
  await expectFits(page, 390);

  // one form, one button, every scored check of both trials
  await expect(page.getByTestId('pair-review-form')).toHaveCount(1);
  const readings = page.locator('.review-reading');
  const n = await readings.count();
  expect(n).toBeGreaterThan(1);
  await expect(page.getByTestId('save-readings')).toHaveText(`Save all readings (${n})`);
  const failName = await page.locator('.review-reading input[value="fail"]:checked').first().getAttribute('name');
  const fail = page.locator('.review-reading', { has: page.locator(`input[name="${failName}"]`) });
  await fail.locator('input[value="pass"]').check();
  await fail.getByLabel('Note').fill('read as a pass');
  await page.getByTestId('save-readings').click();
  await expect(page.getByRole('status')).toHaveText(`Saved ${n} readings (1 overridden) by local user (single-user mode).`);
  await expect(page.locator('.review-reading[data-reviewed="yes"]')).toHaveCount(n);
  await expect(page.getByTestId('review-progress')).toContainText(`of ${before.pairs} pairs reviewed`);
  expect((await progressOf(page)).reviewed).toBeGreaterThan(0);

  // next: the following unreviewed pair, the filter kept
  await page.getByTestId('pair-next').click();
  await page.waitForURL((u) => u.href !== first && /\/pairs\/[^/]+\/[^/?]+\?show=unreviewed$/.test(u.href));
  await expect(page.locator('.review-reading[data-reviewed="yes"]')).toHaveCount(0);
  // previous, under the filter, skips the pair just reviewed (it is no longer unreviewed)
  await expect(page.locator(`[data-testid="pair-prev"][href="${new URL(first).pathname}?show=unreviewed"]`)).toHaveCount(0);

  // the list: the count went up, and the reviewed pair has left the unreviewed filter
  await page.getByRole('link', { name: '← review (unreviewed)' }).click();
  await page.waitForURL(/\/review\?show=unreviewed$/);
  const after = await progressOf(page);
  expect(after.pairs).toBe(before.pairs);
  expect(after.reviewed).toBeGreaterThan(0);
  await expect(page.getByTestId('show-unreviewed')).toHaveText(`unreviewed (${before.pairs - after.reviewed})`);
  await expect(page.locator(`a[href="${new URL(first).pathname}?show=unreviewed"]`)).toHaveCount(0);

  // a restaurant pair: reasons and tool orders name the tools as sent, the scenario id beside in grey
  await page.goto(`/runs/${encodeURIComponent(runId)}/review`);
  await page.getByTestId('review-pairs').locator('tbody tr', { hasText: 'restaurant' }).locator('a', { hasText: 'side by side' }).first().click();
  await page.waitForURL(/\/pairs\//);
  await expect(page.getByTestId('side-by-side').getByTestId('tool-id').first()).toBeVisible();
  await expect(page.getByTestId('side-by-side')).toContainText('(find_tables)');
  await expectFits(page, 390);
});
