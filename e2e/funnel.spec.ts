import { expect, test, type Page } from '@playwright/test';
import { startRun } from './helpers';

// Issue 23 item 3, the run page: the catalog-scale template run offline (the simulated model), then the run
// page's visibility funnel — one row per discovery × N × condition — says exactly what the JSON export's
// `funnel` rows say (each stage's k/n, the paired improved / same / regressed, tool tokens), with a chart per
// stage against N; at 1440 px and at 390 px, where the page is no wider than the screen. A run without
// catalogs (the reference study) shows no funnel.

const WIDE = { width: 1440, height: 900 };
const NARROW = { width: 390, height: 844 };
const STAGES = [
  ['visible', 'recallAtK'],
  ['selected', 'selectedGivenVisible'],
  ['arguments', 'argumentsGivenSelected'],
  ['result', 'result'],
] as const;

interface Count {
  k: number;
  n: number;
  paired: { improved: number; same: number; regressed: number } | null;
}
type ExportRow = { study: string; discovery: string | null; catalogSize: number | null; condition: string; toolTokens: number } & Record<
  (typeof STAGES)[number][1],
  Count
>;

async function checkFunnel(page: Page, rows: ExportRow[]) {
  const shown = page.getByTestId('funnel-row');
  await expect(shown).toHaveCount(rows.length);
  for (const r of rows) {
    const row = page.locator(
      `[data-testid="funnel-${r.study}"] [data-testid="funnel-row"][data-discovery="${r.discovery ?? ''}"][data-n="${r.catalogSize ?? ''}"][data-condition="${r.condition}"]`,
    );
    await expect(row).toHaveCount(1);
    for (const [stage, key] of STAGES) {
      const cell = row.getByTestId(`funnel-${stage}`);
      const c = r[key];
      await expect(cell.getByTestId('funnel-kn')).toHaveText(`${c.k}/${c.n}`);
      if (c.paired) {
        await expect(cell.getByTestId('funnel-improved')).toHaveText(String(c.paired.improved));
        await expect(cell.getByTestId('funnel-same')).toHaveText(String(c.paired.same));
        await expect(cell.getByTestId('funnel-regressed')).toHaveText(String(c.paired.regressed));
      } else await expect(cell.getByTestId('funnel-paired')).toHaveCount(0);
    }
    await expect(row.getByTestId('funnel-tool-tokens')).toHaveText(r.toolTokens.toLocaleString('en'));
  }
}

test('the catalog-scale run page shows the funnel the JSON export has, at 1440 and 390 px', async ({ page }) => {
  test.setTimeout(420_000);
  await page.setViewportSize(WIDE);
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: catalog-scale' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 300_000 });
  await page.reload();

  const json = await (await page.request.get(`/api/runs/${encodeURIComponent(runId)}/export/json`)).json();
  const rows = json.funnel as ExportRow[];
  // 2 discovery variants × 4 sizes × 2 conditions, and the paired split under the treatment only
  expect(rows.length).toBe(16);
  expect(rows.some((r) => r.recallAtK.paired !== null)).toBe(true);
  expect(new Set(rows.map((r) => r.recallAtK.n)).size).toBeGreaterThan(0);
  await expect(page.getByTestId('funnel')).toBeVisible();
  await checkFunnel(page, rows);
  // a chart per stage and one of tool tokens, against N: a line per discovery · condition
  const series = new Set(rows.map((r) => `${r.discovery} · ${r.condition}`)).size;
  for (const stage of ['visible', 'selected', 'arguments', 'result', 'toolTokens']) {
    const chart = page.getByTestId(`chart-funnel-${rows[0].study}-${stage}`);
    await expect(chart.getByRole('application')).toBeVisible();
    await expect(chart.locator('.recharts-line')).toHaveCount(series);
  }
  // for a look (asserts nothing)
  await page.getByTestId('funnel').screenshot({ path: 'test-results/funnel/wide.png' });

  await page.setViewportSize(NARROW);
  await page.reload();
  await checkFunnel(page, rows);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
  await page.getByTestId('funnel').screenshot({ path: 'test-results/funnel/narrow.png' });
});

test('a run without catalogs shows no funnel', async ({ page }) => {
  test.setTimeout(300_000);
  // the reference study: the built-in template without catalogs
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
  await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 120_000 });
  await page.reload();
  await expect(page.getByTestId('download-json')).toBeVisible();
  await expect(page.getByTestId('funnel')).toHaveCount(0);
});
