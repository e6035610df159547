import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { expect, test, type Download, type Page } from '@playwright/test';
import { expectFits, startRun } from './helpers';

// The one-file report (docs/report.md): downloaded from the run page, opened from file:// with JavaScript
// off, every Table 1 figure equal to the JSON export's, no request to any server, small, readable at 390 px.

interface Count {
  pass: number;
  n: number;
}
interface Exported {
  summary: {
    studies: {
      study: string;
      total: { baseline: Count; treatment: Count };
      rows: { scenario: string; locale: string; baseline: Count; treatment: Count }[];
      pairs: { improved: number; same: number; regressed: number };
    }[];
  };
}

async function openReferenceStudy(page: Page) {
  await page.goto('/');
  await page.locator('tr', { hasText: 'template: reference-study' }).getByRole('link').first().click();
  await page.waitForURL(/\/experiments\//);
}

test('the one-file report of the reference study opens from file:// without JavaScript, equals the JSON export and loads nothing', async ({ page, browser }, info) => {
  await openReferenceStudy(page);
  const runId = await startRun(page);
  await expect(page.getByTestId('run-status')).toHaveText('completed', { timeout: 90_000 });
  const [download] = (await Promise.all([page.waitForEvent('download'), page.getByTestId('download-report').click()])) as [Download, void];
  expect(download.suggestedFilename()).toBe(`report-${runId}.html`);
  const html = await readFile((await download.path())!);
  expect(html.length).toBeLessThan(3 * 1024 * 1024);
  const file = info.outputPath('report.html');
  await writeFile(file, html);
  const exported = (await (await page.request.get(`/api/runs/${runId}/export/json`)).json()) as Exported;

  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
  try {
    const report = await context.newPage();
    const requests: string[] = [];
    report.on('request', (r) => requests.push(r.url()));
    await report.goto(pathToFileURL(file).href);
    await expect(report.getByRole('heading', { level: 1 })).toContainText('run');
    for (const s of exported.summary.studies) {
      const total = report.locator(`[data-figure="${s.study}|total"]`);
      await expect(total).toHaveAttribute('data-baseline', `${s.total.baseline.pass}/${s.total.baseline.n}`);
      await expect(total).toHaveAttribute('data-treatment', `${s.total.treatment.pass}/${s.total.treatment.n}`);
      await expect(total).toContainText(`${s.total.baseline.pass}/${s.total.baseline.n} `);
      await expect(total).toContainText(`→ ${s.total.treatment.pass}/${s.total.treatment.n} `);
      for (const r of s.rows) {
        const cell = report.locator(`[data-figure="${s.study}|${r.scenario} / ${r.locale}"]`);
        await expect(cell).toContainText(`${r.baseline.pass}/${r.baseline.n} `);
        await expect(cell).toContainText(`→ ${r.treatment.pass}/${r.treatment.n} `);
      }
      await expect(report.locator(`[data-pairs="${s.study}"]`)).toHaveText(`${s.pairs.improved} / ${s.pairs.same} / ${s.pairs.regressed}`);
      await expect(report.locator(`[data-reading="${s.study}"]`)).toContainText(`${s.pairs.improved} pairs improved, ${s.pairs.regressed} regressed`);
    }
    await expect(report.getByTestId('chart-rates').locator('svg rect')).toHaveCount(2 * exported.summary.studies.length);
    await expectFits(report, 1440);
    await report.setViewportSize({ width: 390, height: 844 });
    await expectFits(report, 390);
    // the document itself is the only request
    expect(requests).toEqual([pathToFileURL(file).href]);
  } finally {
    await context.close();
  }
});
