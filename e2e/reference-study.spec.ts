import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { startRun } from './helpers';

test('reference study: matrix, simulated run, Table 1 with published reference, exports, trial page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle('Experiments · Tool Contract Lab'); // every page names itself
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await expect(page).toHaveTitle(/^Experiment .+ · Tool Contract Lab$/);

  // the matrix of the reference study (docs/design.md)
  await expect(page.getByTestId('formal-total')).toHaveText('152');
  await expect(page.getByTestId('precheck-total')).toHaveText('2');
  await expect(page.getByTestId('study-trials-selection')).toHaveText('96');
  await expect(page.getByTestId('study-trials-interpretation')).toHaveText('56');
  await expect(page.getByTestId('matrix-selection')).toContainText('48');

  // the planner: a 1% bound with zero failures needs 299 trials per condition
  await expect(page.getByTestId('plan-selection-overlapping')).toContainText('299');
  await expect(page.getByTestId('plan-selection-overlapping')).toContainText('6.1%'); // 48 clean trials allow 6.1%
  await expect(page.getByTestId('planner-summary')).toContainText('11 replicates (now 1)');
  await page.getByLabel('Target failure rate (%)').fill('10');
  await expect(page.getByTestId('plan-interpretation-code-meanings')).toContainText('29');
  await expect(page.getByTestId('planner-summary')).toContainText('2 replicates (now 1)');

  // each tool catalog's size and the description linter: the baselines break its rules, the treatments do not
  await expect(page.getByTestId('catalog-selection-clear-restaurant-en')).toContainText('clean');
  const overlapping = page.getByTestId('catalog-selection-overlapping-restaurant-en');
  await expect(overlapping).toContainText(/1 error · \d+ warnings/);
  await overlapping.getByText(/error ·/).click();
  await expect(overlapping.locator('li[data-rule="duplicate-description"]')).toContainText('has the same description as');
  await expect(page.getByTestId('catalog-interpretation-no-code-meanings-invoice-zh-TW')).toContainText('0 errors · 1 warning');

  const runId = await startRun(page);
  await expect(page.getByTestId('simulated-badge')).toHaveText('simulated — not a language model');
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  await expect(page).toHaveTitle(/^Run r_\S+ · Tool Contract Lab$/);
  await expect(page.getByTestId('progress-done-of-total')).toHaveText('152 / 152');

  // Table 1: both studies, intervals, pairs + McNemar, published reference beside
  const t1 = page.getByTestId('table1');
  await expect(t1.locator('thead')).toContainText('selection');
  await expect(t1.locator('thead')).toContainText('interpretation');
  // headline k/n → k/n and the paired difference in pts; the Wilson intervals (same unit, %) behind the cell's details
  await expect(page.getByTestId('t1-total').getByTestId('cell-difference').first()).toHaveText(/^[+-][\d.]+ pts \[[+-][\d.]+ pts, [+-][\d.]+ pts\]$/);
  await expect(page.getByTestId('t1-total')).toContainText(/\d+\/\d+ [\d.]+% \[[\d.]+%, [\d.]+%\]/);
  await expect(page.getByTestId('t1-row-restaurant-en')).toBeVisible();
  await expect(page.getByTestId('pairs-selection')).toContainText(/improved \d+ · same \d+ · regressed \d+/);
  await expect(page.getByTestId('pairs-selection')).toContainText('McNemar p');
  await expect(page.getByText('published reference (seed 000, Gemini 3.1 Flash-Lite)').first()).toBeVisible();
  await expect(page.getByTestId('t1-total').getByTestId('published-cell').first()).toContainText('published: 28/48 → 46/48');
  await expect(page.getByTestId('table1-chart')).toBeVisible();
  // clustered intervals, the paired difference, both McNemar p values, order consistency, the charts
  await expect(page.getByTestId('t1-clustered-selection-baseline')).toContainText(/CR1 \[[\d.]+%, [\d.]+%\] · SE [\d.]+ · 24 clusters, 23 df · deff [\d.]+/);
  await expect(page.getByTestId('interval-note')).toContainText('Which interval is shown');
  await expect(page.getByTestId('difference-selection')).toContainText(
    /Paired difference \(clear − overlapping\): \+[\d.]+ pts \[[+-][\d.]+ pts, \+[\d.]+ pts\] \(CR1 SE [\d.]+, 48 pairs in 24 clusters, t on 23 df\)/,
  );
  await expect(page.getByTestId('mcnemar-selection')).toContainText(/exact McNemar p[^·]+· mid-p McNemar p/);
  await expect(page.getByTestId('oc-selection-baseline')).toContainText(/\d+\/24 consistent · flip rate [\d.]+%/);
  await expect(page.getByTestId('order-consistency-interpretation')).toHaveCount(0);
  await expect(page.getByTestId('chart-pass-rate')).toBeVisible();
  await expect(page.getByTestId('chart-paired-flow')).toBeVisible();
  await expect(page.getByTestId('chart-order-consistency')).toBeVisible();

  // JSON export
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-json').click()]);
  expect(json.suggestedFilename()).toBe(`run-${runId}.json`);
  const exported = JSON.parse(await readFile((await json.path())!, 'utf8')) as { format: string; trials: unknown[]; prechecks: unknown[] };
  expect(exported.format).toBe('tclab.run/v2');
  expect(exported.trials).toHaveLength(152);
  expect(exported.prechecks).toHaveLength(2);

  // trials CSV: header + 152 records
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-trials-csv').click()]);
  expect(csv.suggestedFilename()).toBe(`run-${runId}-trials.csv`);
  const records = parse(await readFile((await csv.path())!, 'utf8'), { relaxColumnCount: true }) as string[][];
  expect(records).toHaveLength(153);
  expect(records[0]).toContain('status');

  // the trials table pages from the API; open one trial
  await expect(page.getByTestId('trials-page')).toContainText('152 matching of 152 trials');
  await page.locator('#filter-study').selectOption('interpretation');
  await expect(page.getByTestId('trials-page')).toContainText('56 matching of 152 trials');
  await page.getByTestId('trial-link').first().click();
  await page.waitForURL(/\/trials\//);
  await expect(page).toHaveTitle(/^Trial .+ · Tool Contract Lab$/);
  await expect(page.getByTestId('coordinates')).toContainText('interpretation');
  await expect(page.getByTestId('tool-order')).not.toBeEmpty();
  await expect(page.getByTestId('attempt').first()).toContainText('ok');
  await expect(page.getByTestId('raw-request').first()).toBeVisible();
  await expect(page.getByTestId('raw-response').first()).toBeVisible();
  await expect(page.getByTestId('verdicts')).toBeVisible();

  // a restaurant selection trial: its verdicts name the tools as the condition sent them, the scenario's id in grey
  await page.goBack();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await page.locator('#filter-study').selectOption('selection');
  await page.locator('#filter-scenario').selectOption('restaurant');
  await page.locator('#filter-condition').selectOption('overlapping');
  // the row of that case and condition (whether or not the table has applied the filters yet)
  await page.locator('tr').filter({ hasText: 'restaurant-en-read-1' }).filter({ hasText: 'overlapping' }).getByTestId('trial-link').first().click();
  await page.waitForURL(/\/trials\//);
  // (the tool-choice check's evidence names the expected tool whatever the model did)
  await expect(page.getByTestId('verdicts').getByTestId('tool-id').first()).toHaveText('(find_tables)');
  await expect(page.getByTestId('verdicts')).toContainText('restaurant_service (find_tables)');
});
