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

  // a failed check of the baseline: the reviewer is who is using the app (single-user mode: the local user)
  const baseline = page.getByTestId('side-by-side').locator('section').first();
  const testId = await baseline.locator('form:has(input[name="humanStatus"][value="fail"]:checked)').first().getAttribute('data-testid');
  const form = baseline.getByTestId(testId!);
  await expect(form.getByTestId('reviewing-as')).toHaveText('as local user (single-user mode)');
  await form.locator('input[name="humanStatus"][value="pass"]').check();
  await form.getByLabel('Note').fill('<b>asked for the id</b> — acceptable');
  await form.getByRole('button', { name: 'Save review' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved: overridden to pass by local user (single-user mode).');

  await page.goto(`/runs/${encodeURIComponent(runId)}/review`);
  await expect(page.getByTestId('agreement')).toContainText('Grader–reviewer agreement: 0.0% [0.0%, ');
  await expect(page.getByTestId('agreement')).toContainText('on 1 reviewed check; overridden to pass 1, to fail 0');
  // one check, grader fail → reviewer pass: each reader gave one reading only, so κ has nothing to estimate from
  // (it would be 0 [0.00, 0.00] whatever was read): "—" with the reason on hover, never a zero-width interval
  await expect(page.getByTestId('kappa-overall')).toContainText('agreement 0.0% [');
  await expect(page.getByTestId('kappa-overall')).toContainText("Cohen's κ —");
  await expect(page.getByTestId('kappa-overall').locator('abbr.no-ci')).toHaveAttribute('title', /^no interval: both readers gave every item the same reading/);
  await expect(page.getByTestId('reviewed-table1')).toContainText("Table 1 with the reviewers' readings applied: 1 trial changes status");
});
