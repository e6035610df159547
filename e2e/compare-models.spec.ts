import { expect, test } from '@playwright/test';
import { readComparison } from '../lib/analysis/reading';

// Several models at once (docs/compare.md): the Run dialog starts the reference study with both simulated
// models, one run each; the compare page shows each model's Table 1 and the model-vs-model difference on
// identical trials.
test('a two-model run of the reference study: both Table 1s and the model-vs-model difference on the compare page', async ({ page }) => {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);

  await expect(page.locator('#run-provider')).toHaveValue('simulated');
  await expect(page.locator('#run-model')).toHaveValue('simulated-lexical-v1');
  const also = page.getByTestId('also-run-with');
  await expect(also).toContainText('position-biased: prefers the first plausible tool listed (a heuristic, not a language model)');
  await also.locator('input[value="simulated:simulated-position-biased-v1"]').check();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page.waitForURL(/\/runs\/compare\?ids=/);
  const ids = decodeURIComponent(new URL(page.url()).searchParams.get('ids') ?? '').split(',');
  expect(ids).toHaveLength(2);
  await expect(page).toHaveTitle('Compare runs · Tool Contract Lab');

  // both runs go on in the worker: the page shows them as they are; reload until both are final
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('compared-run-status')).toHaveText(['completed', 'completed'], { timeout: 1000 });
  }).toPass({ timeout: 180_000 });

  // Table 1 of each model, each labelled as a heuristic
  for (const [i, model] of ['simulated/simulated-lexical-v1', 'simulated/simulated-position-biased-v1'].entries()) {
    const section = page.getByTestId(`compared-run-${ids[i]}`);
    await expect(section.locator('h2')).toHaveText(model);
    await expect(section.getByTestId('simulated-badge')).toBeVisible();
    await expect(section.getByTestId('t1-total')).toContainText(/\d+\/48 [\d.]+% \[[\d.]+%, [\d.]+%\]/);
    await expect(section.getByTestId('pairs-selection')).toContainText(/improved \d+ · same \d+ · regressed \d+/);
  }

  // model vs model on identical trials: every condition of both studies, 48 / 28 trials each
  const diff = page.getByTestId('model-differences');
  await expect(diff.locator('tbody tr')).toHaveCount(4);
  const clear = page.getByTestId('difference-selection-clear');
  await expect(clear.locator('td').nth(1)).toHaveText('simulated/simulated-position-biased-v1');
  await expect(clear.locator('td').nth(2)).toHaveText('48');
  // the position-biased model loses where the clear definitions leave it a first-listed plausible tool
  await expect(clear.getByTestId('difference-estimate')).toHaveText(/^-\d+\.\d pts$/);
  // a difference's interval is in percentage points, like the difference (not as rates)
  await expect(clear.locator('td').nth(7)).toContainText(/^\[[+-]\d+\.\d pts, [+-]\d+\.\d pts\]$/);
  // …and read in words by the one reading: a loss is never read as "improved", and the pairs needed are said
  await expect(clear.getByTestId('difference-reading')).toHaveText(/^(worse|not shown|too few pairs to tell) — .*(pairs? \(|pairs needed)/);
  await expect(page.getByTestId('difference-interpretation-code-meanings').locator('td').nth(2)).toHaveText('28');

  // pairs needed for a difference the reader chooses, computed in the browser as tclab plan --pilot does
  const observedNeed = await clear.getByTestId('pairs-needed').textContent();
  await page.getByTestId('plan-delta').fill('10');
  await expect(clear.getByTestId('pairs-needed')).toContainText('would detect a difference of 10.0 pts at 80% power');
  const count = async (change: string) => Number((await clear.getByTestId(`pairs-${change}`).textContent())!.split(' ')[0]);
  const numbers = { pairs: 48, improved: await count('improved'), regressed: await count('regressed'), clusters: 48, estimate: null, ci95: null, p: null };
  const expected = readComparison(numbers, { delta: 0.1 }).power.pairsNeeded;
  await expect(clear.getByTestId('pairs-needed')).toHaveAttribute('data-pairs-needed', String(expected ?? ''));
  await page.getByTestId('plan-delta').fill('abc');
  await expect(page.getByText('a difference in points above 0 and at most 100 (got "abc")')).toBeVisible();
  await page.getByTestId('plan-delta').fill('');
  await expect(clear.getByTestId('pairs-needed')).toHaveText(observedNeed!);

  // each run page links back to the group
  await page
    .getByTestId(`compared-run-${ids[1]}`)
    .getByRole('link', { name: `run ${ids[1]}` })
    .click();
  await expect(page.getByTestId('run-group')).toContainText('One of 2 runs started together');
});
