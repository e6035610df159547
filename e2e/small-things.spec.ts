import { readFile } from 'node:fs/promises';
import { expect, test, type Download, type Page } from '@playwright/test';
import { expectFits, startRun } from './helpers';

// The small things: where to start; a run's name and note; Cancel asks first; the trials table's filters
// and sort in the URL; Table 1 as Markdown / LaTeX and a chart as SVG.

async function openReferenceStudy(page: Page) {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ name: string; text: string }> {
  const [d] = (await Promise.all([page.waitForEvent('download'), click()])) as [Download, void];
  return { name: d.suggestedFilename(), text: await readFile((await d.path())!, 'utf8') };
}

test('name and note a run, find it on the runs list; Cancel asks first and "Keep it" keeps it running', async ({ page }) => {
  await openReferenceStudy(page);
  // one request a minute: the run is still going when we cancel it
  const runId = await startRun(page, { concurrency: '1', requestsPerMinute: '1' });
  const tag = `e2e${Date.now().toString(36)}`;

  await page.getByText('Name this run').click();
  await page.getByLabel('Name', { exact: true }).fill(`Baseline ${tag}`);
  await page.getByLabel('Note', { exact: true }).fill(`descriptions as published (${tag})`);
  await page.getByRole('button', { name: 'Save name and note' }).click();
  await expect(page.getByTestId('run-label-message')).toHaveText('Saved.');
  await page.reload();
  await expect(page.getByTestId('run-name')).toHaveText(`Baseline ${tag}`);
  await expect(page.getByTestId('run-note')).toHaveText(`descriptions as published (${tag})`);
  await expect(page.getByTestId('audit').locator('tr', { hasText: 'named the run' })).toContainText(`Baseline ${tag}`);

  // c. Cancel asks, saying what it does; "Keep it" leaves the run as it was
  await page.getByRole('button', { name: 'Cancel' }).click();
  const confirm = page.getByTestId('cancel-confirm');
  await expect(confirm).toContainText('stops new requests');
  await expect(confirm).toContainText('Nothing already sent is undone');
  await page.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.getByTestId('run-status')).not.toHaveText('cancelled');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Stop the run for good' }).click();
  await expect(page.getByTestId('run-status')).toHaveText('cancelled');

  // a. the runs list shows the name and finds the run by a word of its note, in any case
  await page.goto(`/runs?q=${encodeURIComponent(`(${tag.toUpperCase()})`)}`);
  const rows = page.getByTestId('runs').locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByRole('link', { name: `Baseline ${tag}` })).toHaveAttribute('href', `/runs/${runId}`);
  await page.goto(`/runs?q=${tag}-nothing`);
  await expect(page.getByTestId('runs')).toHaveCount(0);
  await expect(page.getByTestId('runs-empty')).toContainText(`No run's name or note contains`);
});

test('the trials table keeps its filters and sort in the URL; Table 1 downloads as Markdown and LaTeX, a chart as SVG', async ({ page, context }) => {
  await openReferenceStudy(page);
  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 120_000 });

  const table = page.getByTestId('trials-table');
  await table.locator('#filter-condition').selectOption('clear');
  // a column sorts ascending or descending first (by its values' type): click until it is descending
  for (let i = 0; i < 3 && (await table.locator('th', { hasText: 'Scenario' }).getAttribute('aria-sort')) !== 'descending'; i++) {
    await table.getByRole('button', { name: 'Scenario' }).click();
    await expect(table.locator('th', { hasText: 'Scenario' })).toHaveAttribute('aria-sort', /ascending|descending/);
  }
  await expect(table.locator('th', { hasText: 'Scenario' })).toHaveAttribute('aria-sort', 'descending');
  await expect(page).toHaveURL(/trials\.condition=clear/);
  await expect(page).toHaveURL(/trials\.sort=scenario&trials\.dir=desc/);
  // the filtered count (the table fetches it a moment after the choice)
  await expect(table.getByTestId('trials-page')).not.toContainText('152 matching');
  const pageText = await table.getByTestId('trials-page').textContent();
  expect(pageText).toMatch(/· \d+ matching of 152 trials/);

  // a reload, and the same link in another tab, show the same rows: only `clear`, scenarios descending
  for (const p of [page, await context.newPage()]) {
    if (p === page) await p.reload();
    else await p.goto(page.url());
    const t = p.getByTestId('trials-table');
    await expect(t.locator('#filter-condition')).toHaveValue('clear');
    await expect(t.locator('th[aria-sort="descending"]')).toContainText('Scenario');
    await expect(t.getByTestId('trials-page')).toHaveText(pageText!);
    const scenarioCol = (await t.locator('thead th').allTextContents()).findIndex((h) => h.startsWith('Scenario'));
    const conditionCol = (await t.locator('thead th').allTextContents()).findIndex((h) => h.startsWith('Condition'));
    const rows = t.locator('tbody tr');
    const scenarios = await rows.locator(`td:nth-child(${scenarioCol + 1})`).allTextContents();
    expect(new Set(await rows.locator(`td:nth-child(${conditionCol + 1})`).allTextContents())).toEqual(new Set(['clear']));
    expect(scenarios).toEqual([...scenarios].sort().reverse());
    expect(new Set(scenarios).size).toBeGreaterThan(1);
  }

  const md = await downloaded(page, () => page.getByTestId('download-table1-md').click());
  expect(md.name).toBe(`run-${runId}-table1.md`);
  expect(md.text).toMatch(/^## Table 1 — run r_\w+ /);
  expect(md.text).toContain('| **Total** |');
  const tex = await downloaded(page, () => page.getByTestId('download-table1-tex').click());
  expect(tex.name).toBe(`run-${runId}-table1.tex`);
  expect(tex.text).toContain('\\begin{tabular}');
  expect(tex.text).toContain('\\toprule');
  // the Parquet tables and their sidecar, one zip (its content is checked against the JSON by lib/export/parquet.itest.ts)
  const [zip] = (await Promise.all([page.waitForEvent('download'), page.getByTestId('download-parquet-zip').click()])) as [Download, void];
  expect(zip.suggestedFilename()).toBe(`run-${runId}-parquet.zip`);
  const zipBytes = await readFile((await zip.path())!);
  expect(zipBytes.subarray(0, 2).toString('latin1')).toBe('PK');
  for (const name of ['trials.parquet', 'attempts.parquet', 'checks.parquet', 'choices.parquet', 'run.json']) expect(zipBytes.includes(Buffer.from(name))).toBe(true);
  const svg = await downloaded(page, () => page.getByTestId('chart-pass-rate-svg').click());
  expect(svg.name).toBe('chart-pass-rate.svg');
  expect(svg.text).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg.text).toContain('recharts-bar-rectangle');
});

test('the home page says where to start: the reference study and the loop in four steps; 1440 and 390 px', async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto('/');
    const start = page.getByTestId('start-here');
    await start.locator('summary').getByText('Start here').waitFor();
    // other specs have run things on this database: open when nothing has run, else a click away
    if (!(await start.evaluate((d) => (d as HTMLDetailsElement).open))) await start.locator('summary').click();
    await expect(start.locator('ol > li')).toHaveCount(4);
    await expect(start).toContainText('tick both runs and Compare');
    await expectFits(page, width);
  }
  await page
    .getByTestId('start-here')
    .getByRole('link', { name: /reference study/i })
    .click();
  await page.waitForURL(/\/experiments\/reference-study-v\d+$/);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeVisible();
});
