import { describe, expect, it } from 'vitest';
import { compareWithPublished, type CellComparison } from '../analysis/published';
import { summarizeRun } from '../analysis/summary';
import { simulatedProvider } from '../providers/simulated';
import { buildRequest } from '../design/matrix';
import { runOffline } from '../testing/offline-run';
import { RunSettings } from '../schema/run';
import { REFERENCE_STUDY_PUBLISHED } from './reference-study/published';
import { referenceStudy } from './reference-study';

// End to end, pure: every formal request of the reference study is built as the runner builds it, answered by
// the simulated provider, scored by the product's scorer (lib/scoring scoreTrial) and summarised by the
// product's Table 1 (lib/analysis summarizeRun), then compared cell by cell with the published Table 1 of
// seed 000 (lib/analysis compareWithPublished, docs/design.md#the-reference-study). Nothing here decides a pass or counts a cell.
// The simulator is a heuristic, not the published model: the figures below are what it gives, and the
// cells where it reproduces the published figure are named.

const settings = RunSettings.parse({});
const spec = referenceStudy();
const runAll = () => runOffline(spec);

const fmt = (c: CellComparison) => `${c.ours ? `${c.ours.pass}/${c.ours.n}` : '—'} (published ${c.published ? `${c.published.pass}/${c.published.n}` : '—'})`;

describe('reference study through the simulated provider, the scorer and Table 1 (end to end, pure)', async () => {
  const { results, outcomes } = await runAll();
  const summary = summarizeRun(spec, outcomes);
  const comparison = compareWithPublished(summary, REFERENCE_STUDY_PUBLISHED);
  const study = (id: string) => comparison.studies.find((s) => s.study === id)!;
  /** Each row as `scenario/locale: baseline → treatment (published …)`, in Table 1's order. */
  const rowsOf = (id: string) => study(id).rows.map((r) => `${r.scenario}/${r.locale}: ${fmt(r.baseline)} → ${fmt(r.treatment)}`);

  it('answers all 152 formal requests with an observation and no transport error', () => {
    expect(results).toHaveLength(152);
    for (const r of results) expect(r).toMatchObject({ outcome: 'ok', httpStatus: null, observation: expect.any(Object) });
    expect(outcomes.every((o) => o.status === 'passed' || o.status === 'failed')).toBe(true);
  });

  it('sets every cell of Table 1 beside its published figure', () => {
    console.log(
      [
        '',
        `Reference study — SIMULATED provider (a heuristic, not a language model) vs ${comparison.source}:`,
        ...comparison.studies.flatMap((s) => [`  ${s.study}`, ...rowsOf(s.study).map((r) => `    ${r}`)]),
      ].join('\n'),
    );
    expect(comparison.studies.map((s) => s.study)).toEqual(['selection', 'interpretation']);
    for (const s of comparison.studies) {
      expect(s.rows).toHaveLength(4);
      for (const cell of [...s.rows.flatMap((r) => [r.baseline, r.treatment]), s.total.baseline, s.total.treatment]) {
        expect(cell.ours, s.study).not.toBeNull();
        expect(cell.published, s.study).not.toBeNull();
        expect(cell.equal).toBe(cell.ours!.pass === cell.published!.pass && cell.ours!.n === cell.published!.n);
      }
    }
  });

  it('selection: the simulator gives 11/48 → 47/48 against the published 28/48 → 46/48, and no unwanted write when clear', () => {
    const sel = study('selection');
    expect(rowsOf('selection')).toEqual([
      'restaurant/en: 3/12 (published 8/12) → 12/12 (published 12/12)',
      'restaurant/zh-TW: 4/12 (published 8/12) → 11/12 (published 11/12)',
      'invoice/en: 2/12 (published 6/12) → 12/12 (published 12/12)',
      'invoice/zh-TW: 2/12 (published 6/12) → 12/12 (published 11/12)',
    ]);
    expect([fmt(sel.total.baseline), fmt(sel.total.treatment)]).toEqual(['11/48 (published 28/48)', '47/48 (published 46/48)']);
    // reproduced: the treatment cells of restaurant/en, restaurant/zh-TW and invoice/en; no baseline cell
    expect(sel.rows.map((r) => [r.baseline.equal, r.treatment.equal])).toEqual([
      [false, true],
      [false, true],
      [false, true],
      [false, false],
    ]);
    expect([sel.total.baseline.equal, sel.total.treatment.equal]).toEqual([false, false]);
    expect(sel.pairs).toEqual({ ours: { improved: 36, same: 12, regressed: 0 }, published: { improved: 20, same: 26, regressed: 2 }, equal: false });
    // unwanted writes (a write tool where none was expected): published 12 → 0; the treatment's 0 is reproduced
    expect(sel.categories.unwanted_write).toEqual({ baseline: { ours: 18, published: 12 }, treatment: { ours: 0, published: 0 } });
  });

  it('interpretation: the simulator reproduces every published cell, 3/7 → 7/7 in each row, 12/28 → 28/28 in all', () => {
    const int = study('interpretation');
    expect(rowsOf('interpretation')).toEqual([
      'restaurant/en: 3/7 (published 3/7) → 7/7 (published 7/7)',
      'restaurant/zh-TW: 3/7 (published 3/7) → 7/7 (published 7/7)',
      'invoice/en: 3/7 (published 3/7) → 7/7 (published 7/7)',
      'invoice/zh-TW: 3/7 (published 3/7) → 7/7 (published 7/7)',
    ]);
    for (const r of int.rows) expect([r.baseline.equal, r.treatment.equal]).toEqual([true, true]);
    expect([int.total.baseline.equal, int.total.treatment.equal]).toEqual([true, true]);
    expect([fmt(int.total.baseline), fmt(int.total.treatment)]).toEqual(['12/28 (published 12/28)', '28/28 (published 28/28)']);
    // the source gives no pairs for interpretation: nothing to compare
    expect(int.pairs.published).toBeNull();
    expect(int.pairs.equal).toBeNull();
    expect(int.pairs.ours).toEqual({ improved: 16, same: 12, regressed: 0 });
  });

  it('runs the pre-checks through the same path', async () => {
    for (const pc of spec.prechecks) {
      const r = await simulatedProvider.send(buildRequest(spec, { study: pc.study, caseId: pc.caseId, condition: pc.condition }), { settings });
      expect(r.outcome).toBe('ok');
    }
  });
});
