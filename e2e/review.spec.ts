import { expect, test } from '@playwright/test';
import { startRun } from './helpers';

test('review: failed pairs side by side with the definitions diff; a reviewer overrides a verdict (attributed to the local user) and agreement is reported', async ({
  page,
}) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });

  await page.getByTestId('review-link').click();
  await page.waitForURL(/\/review$/);
  await expect(page.getByTestId('agreement')).toContainText('No check reviewed yet');
  await page.getByTestId('show-improved').click();
  await page.waitForURL(/show=improved/);
  const rows = page.getByTestId('review-pairs').locator('tbody tr');
  await expect(rows.first()).toHaveAttribute('data-class', 'improved');
  await rows.first().getByRole('link', { name: 'side by side' }).click();
  await page.waitForURL(/\/pairs\//);

  // the two conditions' definitions, line by line, and both trials side by side
  const diff = page.getByTestId('definitions-diff');
  await expect(diff.locator('.diff-del').first()).toBeVisible();
  await expect(diff.locator('.diff-add').first()).toBeVisible();
  await expect(page.getByTestId('side-by-side').locator('section')).toHaveCount(2);
  await expect(page.getByTestId('side-by-side').locator('section').first()).toContainText('(baseline)');

  // a failed check of the baseline: the reviewer is who is using the app (single-user mode: the local user);
  // the pair's one form saves every reading (the others as graded)
  const baseline = page.getByTestId('side-by-side').locator('section').first();
  // the reading, by its field's name (it stops matching "fail checked" once read as a pass)
  const failName = await baseline.locator('.review-reading input[value="fail"]:checked').first().getAttribute('name');
  const reading = page.locator('.review-reading', { has: page.locator(`input[name="${failName}"]`) });
  await expect(page.getByTestId('reviewing-as')).toHaveText('as local user (single-user mode)');
  const n = await page.locator('.review-reading').count();
  await reading.locator('input[value="pass"]').check();
  await reading.getByLabel('Note').fill('<b>asked for the id</b> — acceptable');
  await page.getByRole('button', { name: `Save all readings (${n})` }).click();
  await expect(page.getByRole('status')).toHaveText(`Saved ${n} readings (1 overridden) by local user (single-user mode).`);

  await page.goto(`/runs/${encodeURIComponent(runId)}/review`);
  await expect(page.getByTestId('agreement')).toContainText('Grader–reviewer agreement: ');
  await expect(page.getByTestId('agreement')).toContainText(`on ${n} reviewed checks; overridden to pass 1, to fail 0`);
  await expect(page.getByTestId('kappa-overall')).toContainText("Cohen's κ");
  await expect(page.getByTestId('reviewed-table1')).toContainText("Table 1 with the reviewers' readings applied: 1 trial changes status");
});
