import { text } from 'node:stream/consumers';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';
import { iterateTrialRecords, iterateTrialRecordsWithText, type TrialRecord } from '../db/results';
import { choicesCsvStream, runJsonStream } from './export';
import { RunExport } from '../schema/run-export';
import type { ExperimentSpec } from '../schema/experiment';
import { completedReferenceRun } from '../testing/engine';
import type { WorkerHandle } from '../runner/worker';
import { gridPage, gridSections, loadCompareGrids, loadRunChoices } from './choices';

// The run page's grid, matrix and positions, the JSON export's `choices` and the choices CSV equal
// what the stored trials say — recomputed here from the trial records (observation, order, case card) alone.

let runId: string;
let worker: WorkerHandle;
let spec: ExperimentSpec;
const trials: TrialRecord[] = [];

beforeAll(async () => {
  ({ runId, worker } = await completedReferenceRun());
  const run = (await getRun(runId))!;
  spec = (await getExperiment(run.experimentId))!.spec;
  for await (const t of iterateTrialRecords(runId, 500, { bodies: false })) trials.push(t);
}, 180_000);

afterAll(async () => {
  await worker?.close();
  await closeDb();
});

/** The oracle: what the trial's stored observation says the model did, and what its card expects, by the sent name. */
function recomputed(t: TrialRecord): { chosen: string; expected: string | null; position: number | null } {
  const o = t.observation;
  const first = o?.toolCalls[0]?.name;
  const chosen = !o ? 'no answer' : first ? first : o.marker ? o.marker : o.label ? `label ${o.label}` : 'text';
  const study = spec.studies.find((s) => s.id === t.study)!;
  const kase = study.cases.find((c) => c.id === t.caseId)!;
  const overrides = kase.expectByCondition[t.condition] ?? {};
  let expected: string | null = null;
  for (const check of kase.checks) {
    const e = { ...check.expected, ...(overrides[check.id] ?? {}) };
    if (e.tool) {
      const defs = study.conditions.find((c) => c.id === t.condition)!.tools[t.scenario][t.locale];
      expected = defs.find((d) => d.tool === e.tool)!.name;
    } else if (e.decision === 'clarify') expected = 'CLARIFY';
    else if (e.decision === 'stop') expected = 'STOP';
    else if (e.label !== undefined) expected = `label ${e.label}`;
    else continue;
    break;
  }
  const i = first ? t.order.indexOf(first) : -1;
  return { chosen, expected, position: i < 0 ? null : i + 1 };
}

describe('the stored trials read in pages', () => {
  it('come once each, in key order, whatever the page size: one, a divisor of the count, more than the count', async () => {
    const keys = trials.map((t) => t.trialKey);
    expect(keys).toEqual([...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(trials.length).toBe(152);
    for (const size of [1, 8, 7, 151, 152, 500]) {
      const got: string[] = [];
      for await (const t of iterateTrialRecords(runId, size, { bodies: false })) got.push(t.trialKey);
      expect(got, `page size ${size}`).toEqual(keys);
    }
    // a reader slower than the database (an export writing to a file): the pages ahead are all in before it asks
    const slow: string[] = [];
    for await (const t of iterateTrialRecords(runId, 8, { bodies: false })) {
      slow.push(t.trialKey);
      if (slow.length % 8 === 0) await pool().query('SELECT pg_sleep(0.01)');
    }
    expect(slow).toEqual(keys);
  });

  it('read lean (the Parquet tables: several pages read ahead), are the same records without turns or details', async () => {
    const lean = trials.map((t) => ({ ...t, turns: [], details: null }));
    for (const size of [1, 7, 152, 500]) {
      const got: TrialRecord[] = [];
      for await (const { record } of iterateTrialRecordsWithText(runId, size, { lean: true })) {
        got.push(record);
        if (got.length % 16 === 0) await pool().query('SELECT pg_sleep(0.01)'); // the pages ahead come in meanwhile
      }
      expect(got, `page size ${size}`).toEqual(lean);
    }
    // a reader that stops early leaves nothing behind: the pool serves the next query
    for await (const { record } of iterateTrialRecordsWithText(runId, 2, { lean: true })) {
      expect(record.trialKey).toBe(lean[0].trialKey);
      break;
    }
    expect((await pool().query('SELECT 1 AS x')).rows).toEqual([{ x: 1 }]);
  });
});

describe('what the model did', () => {
  it('the grid of every section holds each trial once, with the decision its observation records', async () => {
    const sections = gridSections(spec);
    expect(sections.length).toBe(8); // 2 studies × 2 scenarios × 2 locales
    let seen = 0;
    for (const s of sections) {
      const { grid, current } = await loadRunChoices(runId, spec, `${s.study}|${s.scenario}|${s.locale}`);
      expect(current).toEqual(s);
      for (const line of grid!.cases)
        line.cells.forEach((cell, col) => {
          for (const c of cell) {
            const t = trials.find((x) => x.id === c.trialId)!;
            expect([t.study, t.scenario, t.locale, t.caseId, t.condition]).toEqual([s.study, s.scenario, s.locale, line.caseId, grid!.conditions[col]]);
            const r = recomputed(t);
            expect({ chosen: c.chosen, expected: c.expected, position: c.position, status: c.status }).toEqual({ ...r, status: t.status });
            seen++;
          }
        });
    }
    expect(seen).toBe(trials.length);
  });

  it('the matrices and positions count the recomputed decisions; the overlapping descriptions sent reads to the write tool', async () => {
    const { matrix, positions } = await loadRunChoices(runId, spec);
    const expectedCounts = new Map<string, number>();
    const expectedPositions = new Map<string, number>();
    for (const t of trials) {
      const r = recomputed(t);
      const k = `${t.study}|${t.condition}|${r.expected ?? '(no expectation)'}|${r.chosen}`;
      expectedCounts.set(k, (expectedCounts.get(k) ?? 0) + 1);
      const p = `${t.study}|${t.condition}|${r.position ?? 'none'}`;
      expectedPositions.set(p, (expectedPositions.get(p) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    for (const m of matrix) m.expected.forEach((e, i) => m.chosen.forEach((c, j) => m.counts[i][j] && got.set(`${m.study}|${m.condition}|${e}|${c}`, m.counts[i][j])));
    expect(got).toEqual(expectedCounts);
    const gotPositions = new Map<string, number>();
    for (const p of positions) {
      p.byPosition.forEach((n, k) => n && gotPositions.set(`${p.study}|${p.condition}|${k + 1}`, n));
      if (p.noListedTool) gotPositions.set(`${p.study}|${p.condition}|none`, p.noListedTool);
      expect(p.trials).toBe(trials.filter((t) => t.study === p.study && t.condition === p.condition).length);
    }
    expect(gotPositions).toEqual(expectedPositions);
    // the reference study's mechanism, visible in the matrix: a tool expected, another tool called — more often
    // under overlapping descriptions than under clear ones
    const wrongTool = (condition: string) => {
      const m = matrix.find((x) => x.study === 'selection' && x.condition === condition)!;
      const isTool = (d: string) => !['CLARIFY', 'STOP', 'text', 'no answer', '(no expectation)'].includes(d) && !d.startsWith('label ');
      let n = 0;
      m.expected.forEach((e, i) => m.chosen.forEach((c, j) => (isTool(e) && isTool(c) && e !== c ? (n += m.counts[i][j]) : 0)));
      return n;
    };
    expect(wrongTool('overlapping')).toBeGreaterThan(wrongTool('clear'));
  });

  it('the JSON export carries the same choices per trial and per condition; the CSV the same rows', async () => {
    const doc = RunExport.parse(JSON.parse(await text(await runJsonStream(runId))));
    const page = await loadRunChoices(runId, spec);
    expect(doc.choices).toEqual({ matrix: page.matrix, positions: page.positions });
    for (const t of doc.trials) {
      const r = recomputed(trials.find((x) => x.id === t.id)!);
      expect(t.choice).toMatchObject(r);
    }
    const rows = parse(await text(await choicesCsvStream(runId)), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(trials.length);
    for (const row of rows) {
      const r = recomputed(trials.find((x) => x.id === row.trialId)!);
      expect([row.chosen, row.expected, row.position]).toEqual([r.chosen, r.expected ?? '', r.position === null ? '' : String(r.position)]);
    }
  });

  it('a section read a page of cases at a time (a large run): the pages, in order, make up the whole grid', async () => {
    for (const s of gridSections(spec)) {
      const section = `${s.study}|${s.scenario}|${s.locale}`;
      const { grid: whole } = await loadRunChoices(runId, spec, section);
      const study = spec.studies.find((x) => x.id === s.study)!;
      const caseIds = study.cases.filter((c) => c.scenario === s.scenario && c.locale === s.locale).map((c) => c.id);
      expect(gridPage(spec, s).total).toBe(caseIds.length);
      expect(gridPage(spec, s).size).toBeGreaterThanOrEqual(caseIds.length); // the reference study fits one page
      // a page of one case (the fewest trials a page holds)
      const lines: NonNullable<typeof whole>['cases'] = [];
      for (let from = 0; from < caseIds.length;) {
        const { page, grid } = await loadRunChoices(runId, spec, section, from, 1);
        expect(page).toEqual({ from, size: 1, total: caseIds.length, caseIds: [caseIds[from]] });
        lines.push(...(grid?.cases ?? []));
        from = page!.from + page!.caseIds.length;
      }
      expect(lines).toEqual(whole!.cases);
      // past the end: the last page
      expect((await loadRunChoices(runId, spec, section, caseIds.length + 5, 1)).page!.from).toBe(caseIds.length - 1);
    }
  });

  it("the compare page reads the same section of each run: the grid equals the run page's", async () => {
    const section = 'selection|invoice|en';
    const { grid } = await loadRunChoices(runId, spec, section);
    const compared = await loadCompareGrids([runId, runId], section);
    expect(compared.current).toEqual({ study: 'selection', scenario: 'invoice', locale: 'en' });
    expect(compared.grids.map((g) => g.grid)).toEqual([grid, grid]);
  });
});
