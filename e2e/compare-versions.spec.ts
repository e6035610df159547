import { expect, test, type Page } from '@playwright/test';
import { referenceRunThenEdit, startRun } from './helpers';

// The tool author's loop (docs/compare.md): run the reference study, make one treatment description vague in the
// designer, save the next version, run it, pick both runs on the runs list and compare: the version diff shows
// that one change, every case pairs (none changed), a "regressed" count opens those trial pairs, and the page
// reaches the final numbers while the second run finishes — without a reload.

const PATH = 'studies[selection].conditions[clear].tools.invoice.en[0].description';
const runIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

test('compare v1 and v2 of the reference study, picked on the runs list, live to the final numbers', async ({ page }) => {
  test.setTimeout(300_000);
  // the reference study run, then one description of the treatment edited in the designer → the next version
  const { v1 } = await referenceRunThenEdit(page, 'Handles invoice-related requests.');
  // slowed down (4 requests a second) so that the comparison opens while this run is still going
  const v2 = await startRun(page, { requestsPerMinute: '240' });
  expect(runIdOf(page)).toBe(v2);

  // pick both on the runs list, on a phone-sized screen: the button and the table's box fit the screen (the table scrolls inside it)
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/runs');
  for (const box of [page.getByTestId('compare-selected'), page.locator('.table-scroll', { has: page.getByTestId('runs') })]) {
    const b = (await box.boundingBox())!;
    expect(b.x + b.width).toBeLessThanOrEqual(390);
  }
  await expect(page.getByTestId('compare-selected')).toBeDisabled();
  await page.getByLabel(`Compare run ${v1}`).check();
  await page.getByLabel(`Compare run ${v2}`).check();
  await page.getByTestId('compare-selected').click();
  await page.waitForURL(/\/runs\/compare\?ids=/);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(decodeURIComponent(new URL(page.url()).searchParams.get('ids') ?? '')).toBe(`${v1},${v2}`);

  // the v2 run is still going: the page says so and follows it
  const statuses = page.getByTestId('compared-run-status');
  await expect(statuses.nth(1)).not.toHaveText('completed');
  await expect(page.getByTestId('compare-live')).toHaveAttribute('data-live', 'yes');

  // the version diff: that one change; no case changed, so all 24 + 28 pair
  const diff = page.getByTestId(`version-comparison-${v2}`);
  await expect(diff.getByTestId('compare-change-path')).toHaveText([PATH]);
  // the edit first: the description as a word diff (the new words inserted, the old ones struck)
  const words = diff.getByTestId('word-diff');
  await expect(words.locator('ins')).not.toHaveCount(0);
  await expect(words.locator('del')).not.toHaveCount(0);
  await expect(words.locator('ins').first()).toContainText('Handles');
  await expect(diff.getByTestId('paired-cases')).toHaveText('52');
  await expect(diff.getByTestId('excluded-none')).toBeVisible();

  // the final numbers arrive without a reload: every trial of both runs paired
  await expect(statuses).toHaveText(['completed', 'completed'], { timeout: 120_000 });
  await expect(page.getByTestId('compare-live')).toHaveAttribute('data-live', 'no');
  const clear = page.getByTestId('difference-selection-clear');
  await expect(clear.getByTestId('difference-pairs')).toHaveText('48');
  // the edited condition's row stands out; the baseline's does not
  await expect(clear).toHaveAttribute('data-changed', 'yes');
  await expect(page.getByTestId('difference-selection-overlapping')).toHaveAttribute('data-changed', 'no');
  await expect(page.getByTestId('difference-interpretation-code-meanings').getByTestId('difference-pairs')).toHaveText('28');
  // the baseline sends what it sent: the same answers
  await expect(page.getByTestId('difference-selection-overlapping').getByTestId('pairs-regressed')).toHaveText('0 regressed');
  // what the model did, both runs side by side: one grid each, a chip per trial of the section (6 cases × 2 orders × 2 conditions)
  const grids = page.getByTestId('compare-grids').getByTestId('choice-grid');
  await expect(grids).toHaveCount(2);
  for (const g of await grids.all()) await expect(g.getByTestId('choice-cell')).toHaveCount(24);
  // changed rows only: the cases where a run or a condition did something different, read from both grids' chips
  const chipsByCase = async () => {
    const out = new Map<string, Map<string, Set<string>>>();
    const columns = new Map<string, number>();
    for (const g of await grids.all())
      for (const row of await g.locator('tbody tr').all()) {
        const caseId = (await row.getAttribute('data-case'))!;
        const places = out.get(caseId) ?? new Map<string, Set<string>>();
        const tds = await row.locator('td[data-condition]').all();
        columns.set(caseId, (columns.get(caseId) ?? 0) + tds.length);
        for (const td of tds)
          for (const chip of await td.getByTestId('choice-cell').all()) {
            const place = (await chip.getAttribute('data-order'))!;
            const status = ((await chip.getAttribute('class')) ?? '').split(' ').find((c) => c.startsWith('status-'));
            const at = places.get(place) ?? new Set<string>();
            at.add(`${(await chip.getAttribute('data-tool')) ?? (await chip.getAttribute('data-chosen'))}|${status}`);
            places.set(place, at);
          }
        out.set(caseId, places);
      }
    return [...out].filter(([, places]) => [...places.values()].some((x) => x.size > 1)).map(([caseId]) => caseId);
  };
  const changedCases = await chipsByCase();
  await page.getByTestId('changed-rows-toggle').click();
  await page.waitForURL(/choicesChanged=1/);
  await expect(page.getByTestId('changed-rows-count')).toContainText(`showing ${changedCases.length} of 6 cases`);
  for (const g of await grids.all()) await expect(g.locator('tbody tr')).toHaveCount(changedCases.length);
  expect(
    await grids
      .first()
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-case'))),
  ).toEqual(changedCases);
  await page.getByTestId('changed-rows-toggle').click();
  await page.waitForURL((u) => !u.search.includes('choicesChanged'));

  // the vague description costs some treatment trials: the count opens those pairs side by side
  const regressed = clear.getByRole('link', { name: /regressed: the trial pairs/ });
  const n = Number((await regressed.textContent())?.split(' ')[0]);
  expect(n).toBeGreaterThan(0);
  await regressed.click();
  await page.waitForURL(/\/runs\/compare\/pairs\?/);
  await expect(page.locator('h1')).toHaveText(`selection / clear: ${n} regressed pair${n === 1 ? '' : 's'}`);
  const pairs = page.getByTestId('trial-pair');
  await expect(pairs).toHaveCount(n);
  await expect(pairs.first().getByTestId('pair-trial-link')).toHaveText(['passed', 'failed']);
  await pairs.first().getByTestId('pair-trial-link').nth(1).click();
  await page.waitForURL(new RegExp(`/runs/${v2}/trials/`));

  // condition against condition across runs: v1's baseline against v2's treatment
  await page.goto(`/runs/compare?ids=${v1},${v2}`);
  const cond = page.getByTestId('condition-compare');
  await cond.getByLabel('Condition A').selectOption(`${v1}:overlapping`);
  await cond.getByLabel('Condition B').selectOption(`${v2}:clear`);
  await cond.getByRole('button', { name: 'Compare conditions' }).click();
  await page.waitForURL(/&a=/);
  const row = page.getByTestId('condition-difference-selection');
  await expect(row.getByTestId('condition-pairs')).toHaveText('48');
  await expect(row.getByTestId('condition-changes')).toHaveText(/^\d+ improved · \d+ same · \d+ regressed$/);
});
