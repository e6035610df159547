import { expect, test, type Page } from '@playwright/test';
import { differenceCi, formatP, pts } from '../components/format';
import { pairReading, type PairedStage } from '../lib/analysis/funnel';
import { checksFor, type Case } from '../lib/schema/experiment';
import { mcnemarExact, pairedDifference, type PairedDifference } from '../lib/stats';
import { expectFits, startRun } from './helpers';

// The visibility funnel on the run page (docs/discovery.md): the catalog-scale template run offline (the simulated model), then the run
// page's visibility funnel — one row per discovery × N × condition — says exactly what the JSON export's
// `funnel` rows say (each stage's k/n, the paired improved / same / regressed, tool tokens), with a chart per
// stage against N; at 1440 px and at 390 px, where the page is no wider than the screen. A run without
// catalogs (the reference study) shows no funnel.
// Item 4, descriptions move both stages: for each baseline → treatment pair under the same discovery × N, stage 1
// (visible) and stage 2 (chosen | visible) paired side by side — every number on the page (improved / same /
// regressed, the difference, its CR1 interval, the McNemar p) equals one recomputed here from the exported
// trials and the spec, not from the export's own funnel; so do the funnel rows' k/n and paired splits.

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

interface ExportTrial {
  study: string;
  condition: string;
  caseId: string;
  pairKey: string;
  catalogSize?: number;
  discovery?: string;
  checkpoints?: Record<string, string> | null;
  status: string;
}
interface ExportSpec {
  studies: { id: string; catalog?: unknown; conditions: { id: string; baseline: boolean }[]; cases: Case[] }[];
}

/** A trial's bit at a stage, from its checkpoints and its card alone: null outside the stage. */
function bit(spec: ExportSpec, t: ExportTrial, stage: (typeof STAGES)[number][0]): 0 | 1 | null {
  const cp = t.checkpoints;
  if (!cp) return null;
  const b = (s: string | undefined) => (s === 'pass' ? 1 : s === 'fail' ? 0 : null);
  if (stage === 'result') return t.status === 'passed' ? 1 : t.status === 'failed' ? 0 : null;
  const kase = spec.studies.find((s) => s.id === t.study)!.cases.find((c) => c.id === t.caseId)!;
  const needsTool = checksFor(kase, t.condition).some((c) => !!c.expected.tool || c.expected.decision === 'read' || c.expected.decision === 'write');
  if (!needsTool) return null;
  if (stage === 'visible') return b(cp.visibility);
  if (cp.visibility !== 'pass') return null;
  if (stage === 'selected') return b(cp.selection);
  if (cp.selection !== 'pass') return null;
  return b(cp.parameters);
}

interface Recount {
  k: number;
  n: number;
  paired: { improved: number; same: number; regressed: number; difference: PairedDifference; pExact: number } | null;
}

/** Every funnel cell recounted from the trials: key `study|discovery|N|condition` → stage → counts. */
function recount(spec: ExportSpec, trials: ExportTrial[]) {
  const cell = (t: ExportTrial) => `${t.study}|${t.discovery ?? ''}|${t.catalogSize ?? ''}`;
  const baselineOf = (t: ExportTrial) => spec.studies.find((s) => s.id === t.study)!.conditions.find((c) => c.id === t.condition)!.baseline;
  const base = new Map(trials.filter(baselineOf).map((t) => [`${cell(t)}|${t.pairKey}`, t]));
  const out = new Map<string, Record<string, Recount>>();
  for (const key of new Set(trials.map((t) => `${cell(t)}|${t.condition}`))) {
    const group = trials.filter((t) => `${cell(t)}|${t.condition}` === key);
    const isBase = baselineOf(group[0]);
    const stages: Record<string, Recount> = {};
    for (const [stage] of STAGES) {
      const bits = group.map((t) => bit(spec, t, stage)).filter((x) => x !== null);
      const byCase = new Map<string, { pairs: number; improved: number; regressed: number }>();
      let same = 0;
      if (!isBase)
        for (const t of group) {
          const b = base.get(`${cell(t)}|${t.pairKey}`);
          const y1 = bit(spec, t, stage);
          const y0 = b ? bit(spec, b, stage) : null;
          if (y1 === null || y0 === null) continue;
          const c = byCase.get(t.caseId) ?? { pairs: 0, improved: 0, regressed: 0 };
          byCase.set(t.caseId, c);
          c.pairs++;
          if (y1 > y0) c.improved++;
          else if (y1 < y0) c.regressed++;
          else same++;
        }
      const improved = [...byCase.values()].reduce((a, c) => a + c.improved, 0);
      const regressed = [...byCase.values()].reduce((a, c) => a + c.regressed, 0);
      stages[stage] = {
        k: bits.filter((x) => x === 1).length,
        n: bits.length,
        paired: isBase ? null : { improved, same, regressed, difference: pairedDifference([...byCase.values()]), pExact: mcnemarExact(improved, regressed) },
      };
    }
    out.set(key, stages);
  }
  return out;
}

/** A recounted stage as the funnel's reading takes it (lib/analysis/funnel.ts pairReading, docs/statistics.md). */
const asStage = (p: NonNullable<Recount['paired']>): PairedStage => ({
  improved: p.improved,
  same: p.same,
  regressed: p.regressed,
  difference: p.difference,
  mcnemar: { b: p.improved, c: p.regressed, pExact: p.pExact, pMid: p.pExact },
});

/** The pairs table: a row per treatment × discovery × N, every number as recounted from the trials. */
async function checkPairs(page: Page, spec: ExportSpec, trials: ExportTrial[]) {
  const counts = recount(spec, trials);
  let rows = 0;
  for (const study of spec.studies.filter((s) => s.catalog)) {
    const baseline = study.conditions.find((c) => c.baseline)!.id;
    for (const key of counts.keys()) {
      const [s, discovery, n, condition] = key.split('|');
      if (s !== study.id || condition === baseline) continue;
      rows++;
      const row = page.locator(
        `[data-testid="description-pairs-${s}"] [data-testid="pair-row"][data-discovery="${discovery}"][data-n="${n}"][data-treatment="${condition}"]`,
      );
      await expect(row).toHaveCount(1);
      await expect(row.locator('td').nth(2)).toHaveText(`${baseline} → ${condition}`);
      const stages: PairedStage[] = [];
      for (const [stage, col] of [
        ['visible', 'visible'],
        ['selected', 'chosen'],
      ] as const) {
        const p = counts.get(key)![stage].paired!;
        const td = row.getByTestId(`pair-${col}`);
        await expect(td.getByTestId('pair-improved')).toHaveText(String(p.improved));
        await expect(td.getByTestId('pair-same')).toHaveText(String(p.same));
        await expect(td.getByTestId('pair-regressed')).toHaveText(String(p.regressed));
        const d = p.difference;
        await expect(td.getByTestId('pair-difference')).toHaveText(d.estimate === null ? 'no pairs' : pts(d.estimate));
        if (d.estimate !== null) await expect(td.getByTestId('pair-ci')).toHaveText(differenceCi(d).text);
        await expect(td.getByTestId('pair-p')).toHaveText(formatP(p.pExact));
        stages.push(asStage(p));
      }
      await expect(row.getByTestId('pair-reading-head')).toHaveText(pairReading({ visible: stages[0], chosen: stages[1] }));
    }
  }
  await expect(page.getByTestId('pair-row')).toHaveCount(rows);
  return rows;
}

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
  const spec = json.experiment as ExportSpec;
  const trials = json.trials as ExportTrial[];
  // 2 discovery variants × 4 sizes × 2 conditions, and the paired split under the treatment only
  expect(rows.length).toBe(16);
  // the export's funnel rows are what the trials say
  const counts = recount(spec, trials);
  for (const r of rows)
    for (const [stage, key] of STAGES) {
      const c = counts.get(`${r.study}|${r.discovery ?? ''}|${r.catalogSize ?? ''}|${r.condition}`)![stage];
      expect(r[key]).toMatchObject({ k: c.k, n: c.n });
      if (c.paired) expect(r[key].paired).toMatchObject({ improved: c.paired.improved, same: c.paired.same, regressed: c.paired.regressed });
      else expect(r[key].paired).toBeNull();
    }
  // so are its description pairs: one per treatment × discovery × N (8 here), stage 1 and stage 2
  const pairs = json.descriptionPairs as {
    discovery: string;
    catalogSize: number;
    treatment: string;
    visible: { difference: PairedDifference };
    chosen: { difference: PairedDifference };
  }[];
  expect(pairs).toHaveLength(8);
  for (const p of pairs) {
    const c = counts.get(`${rows[0].study}|${p.discovery}|${p.catalogSize}|${p.treatment}`)!;
    expect(p.visible.difference).toEqual(c.visible.paired!.difference);
    expect(p.chosen.difference).toEqual(c.selected.paired!.difference);
  }
  expect(rows.some((r) => r.recallAtK.paired !== null)).toBe(true);
  expect(new Set(rows.map((r) => r.recallAtK.n)).size).toBeGreaterThan(0);
  await expect(page.getByTestId('funnel')).toBeVisible();
  await checkFunnel(page, rows);
  expect(await checkPairs(page, spec, trials)).toBe(8);
  // a chart per stage and one of tool tokens, against N: a line per discovery · condition
  const series = new Set(rows.map((r) => `${r.discovery} · ${r.condition}`)).size;
  for (const stage of ['visible', 'selected', 'arguments', 'result', 'toolTokens']) {
    const chart = page.getByTestId(`chart-funnel-${rows[0].study}-${stage}`);
    await expect(chart.getByRole('application')).toBeVisible();
    await expect(chart.locator('.recharts-line')).toHaveCount(series);
  }
  // for a look (asserts nothing); the README's docs/img/funnel-chart.png is chart.png of this run
  await page.getByTestId('funnel').screenshot({ path: 'test-results/funnel/wide.png' });
  await page.getByTestId(`chart-funnel-${rows[0].study}`).screenshot({ path: 'test-results/funnel/chart.png' });

  await page.setViewportSize(NARROW);
  await page.reload();
  await checkFunnel(page, rows);
  await checkPairs(page, spec, trials);
  await expectFits(page, NARROW.width);
  await page.getByTestId('funnel').screenshot({ path: 'test-results/funnel/narrow.png' });
  await page.getByTestId(`description-pairs-${rows[0].study}`).screenshot({ path: 'test-results/funnel/pairs-narrow.png' });
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
