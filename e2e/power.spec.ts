import { expect, test } from '@playwright/test';
import { expectFits, startRun } from './helpers';
import { formatNoiseFloor, formatPower, studyVerdict } from '../lib/analysis/format-outcomes';
import { planPower } from '../lib/analysis/power-plan';
import { readComparison } from '../lib/analysis/reading';
import { rowPairedNumbers, studyPairedNumbers } from '../lib/analysis/format-outcomes';
import type { RunSummary } from '../lib/schema/table1';

// In the browser (docs/statistics.md): the run page says what the run could detect, its noise floor (or
// why there is none) and its cost per condition — each the same text as the figure in the run's JSON export —
// and the designer's preview gives the pairs Connor's formula gives for the assumed rates. At 1440 and 390 px.

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };

test('power, noise floor and cost on the run page; pairs needed in the designer preview', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize(WIDE);
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  const experimentUrl = new URL(page.url()).pathname;
  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 120_000 });
  await page.reload();

  const json = await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/export/json`)).json();
  const studies = (json.summary as RunSummary).studies;
  for (const s of studies) {
    await expect(page.getByTestId(`power-${s.study}`)).toHaveText(formatPower(s.power!, studyVerdict(s)));
    await expect(page.getByTestId(`noise-floor-${s.study}`)).toHaveText(formatNoiseFloor(s.noise!));
    for (const c of s.cost!.conditions) await expect(page.getByTestId(`cost-${s.study}-${c.condition}`)).toContainText(`${c.trials} trials`);
  }
  // the minimum detectable difference never stands unexplained beside a significant result (docs/statistics.md, "Power, noise floor, cost")
  for (const s of studies)
    if (studyVerdict(s) === 'improved' || studyVerdict(s) === 'worse') await expect(page.getByTestId(`power-${s.study}`)).toContainText('planning figure');
  // Table 1 reads each study in words with the one reading function, and "Plan for a difference of" sets Δ for
  // every reading: the pairs needed are what readComparison gives from the export's numbers (docs/statistics.md)
  const readingOf = (s: RunSummary['studies'][number], delta: number | null) =>
    readComparison(studyPairedNumbers(s)!, { cluster: s.clusterBy ?? 'case', alpha: s.power?.alpha, delta });
  const paired = studies.filter((s) => studyPairedNumbers(s) !== null);
  expect(paired.length).toBeGreaterThan(0);
  for (const s of paired) {
    const r = readingOf(s, null);
    await expect(page.getByTestId(`t1-reading-${s.study}`)).toContainText(r.label);
    await expect(page.getByTestId(`t1-pairs-needed-${s.study}`)).toHaveAttribute('data-pairs-needed', String(r.power.pairsNeeded ?? ''));
  }
  // …and each scenario × locale row with its own paired numbers
  const rows = studies.flatMap((s) => s.rows.flatMap((row) => (rowPairedNumbers(row, s) ? [{ s, row, id: `${s.study}-${row.scenario}-${row.locale}` }] : [])));
  expect(rows.length).toBeGreaterThan(paired.length);
  const rowReading = (x: (typeof rows)[number], delta: number | null) =>
    readComparison(rowPairedNumbers(x.row, x.s)!, { cluster: x.s.clusterBy ?? 'case', alpha: x.s.power?.alpha, delta });
  for (const x of rows) {
    const r = rowReading(x, null);
    await expect(page.getByTestId(`t1-reading-${x.id}`)).toContainText(r.label);
    await expect(page.getByTestId(`t1-pairs-needed-${x.id}`)).toHaveAttribute('data-pairs-needed', String(r.power.pairsNeeded ?? ''));
  }
  await page.getByTestId('plan-delta').fill('7');
  for (const x of rows)
    await expect(page.getByTestId(`t1-pairs-needed-${x.id}`)).toHaveAttribute('data-pairs-needed', String(rowReading(x, 0.07).power.pairsNeeded ?? ''));
  for (const s of paired) {
    const r = readingOf(s, 0.07);
    expect(r.power.pairsNeeded).not.toBeNull();
    await expect(page.getByTestId(`t1-pairs-needed-${s.study}`)).toHaveAttribute('data-pairs-needed', String(r.power.pairsNeeded));
    await expect(page.getByTestId(`t1-pairs-needed-${s.study}`)).toContainText('7.0 pts');
  }
  // one replicate: no noise floor, and the page says why; the simulated provider reports no tokens
  await expect(page.getByTestId('noise-floor-selection')).toContainText('one replicate');
  await expect(page.getByTestId('cost-selection-overlapping-inputTokens')).toHaveText('—');
  await expect(page.getByTestId('cost-selection-clear-toolCalls')).toContainText(/^\d+/);
  await expect(page.getByTestId('power-selection')).toContainText(/this run could detect ≥ \d+\.\d points|minimum detectable difference —/);

  await page.setViewportSize(NARROW);
  await expect(page.getByTestId('power-selection')).toBeVisible();
  await expect(page.getByTestId(`t1-reading-${paired[0].study}`)).toBeVisible();
  await expectFits(page, NARROW.width);

  // the designer: ψ 30%, δ 10 pts, power 80%, ICC 0.2 → Connor 233.09 → 234 pairs; the selection study has
  // 2 pairs per case (two orders), so the design effect is 1.2 → 279.7 → 280
  await page.setViewportSize(WIDE);
  await page.goto(experimentUrl);
  await page.getByRole('button', { name: 'Edit in designer' }).click();
  await page.waitForURL(/\/designer\//);
  await page.getByLabel('ICC of pairs within a case').fill('0.2');
  await expect(page.getByTestId('power-needed-selection')).toHaveText('234');
  await expect(page.getByTestId('power-needed-de-selection')).toHaveText('280');
  const expected = planPower({ psi: 0.3, delta: 0.1, alpha: 0.05, power: 0.8, icc: 0.2, pairsPerCluster: 2 }, 48);
  expect([expected.pairsNeeded, expected.pairsNeededWithDesignEffect]).toEqual([234, 280]);
  await expect(page.getByTestId('power-mdd-selection')).toHaveText(`≥ ${(100 * expected.minimumDetectable!).toFixed(1)} pts`);
  await page.getByLabel('Power (%)').fill('150');
  await expect(page.getByTestId('power-preview')).toContainText('power: a percentage between 0 and 100');
  await page.setViewportSize(NARROW);
  await page.getByLabel('Power (%)').fill('80');
  await expect(page.getByTestId('power-needed-selection')).toBeVisible();
  await expectFits(page, NARROW.width);
});
