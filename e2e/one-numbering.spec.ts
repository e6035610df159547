import { expect, test } from '@playwright/test';
import { runReferenceStudy } from './helpers';

// One numbering (docs/results.md): a trial's order and replicate carry the same label — 1-based, `o2 / r1` —
// on the grid of what the model did, its trial page, its pair page and the review list, and the same numbers in
// the exports (the run JSON's and the choices CSV's `orderNumber`; the CLI's JUnit names, `o2 / r1`, are held by
// lib/export/junit.test.ts and the golden exports).

test('one numbering: the same trial has the same order label on the grid, the trial page, the pair page, the review list and in the exports', async ({ page }) => {
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

  // the exports number the same trial the same way
  const [order, replicate] = /^o(\d+) \/ r(\d+)$/.exec(label)!.slice(1).map(Number);
  const download = async (format: string) => {
    const res = await page.request.get(`/api/runs/${encodeURIComponent(runId)}/export/${format}`);
    expect(res.status(), format).toBe(200);
    return res.text();
  };
  const exported = JSON.parse(await download('json')) as { trials: { id: string; orderNumber: number; replicate: number }[] };
  expect(exported.trials.find((t) => t.id === trialId)).toMatchObject({ orderNumber: order, replicate });
  const csv = (await download('choices.csv')).split('\n');
  const columns = csv[0].split(',');
  const csvRow = csv.find((l) => l.startsWith(`${trialId},`))!.split(',');
  expect([csvRow[columns.indexOf('orderNumber')], csvRow[columns.indexOf('replicate')]]).toEqual([String(order), String(replicate)]);

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
