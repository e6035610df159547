import { describe, expect, it } from 'vitest';
import { RunSummary, type TrialOutcome } from '../schema/table1';
import { summarizeCells, summarizeComparisons, summarizeRun, type SummarySpec } from './summary';
import { cellsFromTrials } from './cells';
import { compareWithPublished } from './published';
import { REFERENCE_STUDY_PUBLISHED } from '../templates';
import { pairKeyOf } from '../design/matrix';

const spec: SummarySpec = {
  scenarios: [{ id: 'restaurant' }, { id: 'invoice' }],
  locales: ['zh-TW', 'en'],
  studies: [
    {
      id: 'selection',
      kind: 'selection',
      conditions: [
        { id: 'overlapping', baseline: true },
        { id: 'clear', baseline: false },
      ],
    },
    {
      id: 'interpretation',
      kind: 'interpretation',
      conditions: [
        { id: 'no-code-meanings', baseline: true },
        { id: 'code-meanings', baseline: false },
      ],
    },
  ],
};

type Outcome = 'passed' | 'failed';
let seq = 0;
function pair(
  study: string,
  [base, treat]: [string, string],
  scenario: string,
  locale: string,
  b: Outcome,
  t: Outcome,
  cats: [string[], string[]] = [[], []],
): TrialOutcome[] {
  const caseId = `p${seq++}`;
  const pairKey = pairKeyOf({ study, scenario, locale, caseId, orderIndex: 0, replicate: 1 });
  const at = { caseId, orderIndex: 0, replicate: 1 };
  return [
    { id: `${pairKey}|b`, study, scenario, locale, condition: base, pairKey, ...at, status: b, categories: cats[0] },
    { id: `${pairKey}|t`, study, scenario, locale, condition: treat, pairKey, ...at, status: t, categories: cats[1] },
  ];
}

/** Trials reproducing Table 1 of the reference study (docs/design.md#the-reference-study). */
function referenceTrials(): TrialOutcome[] {
  const sel: [string, string] = ['overlapping', 'clear'];
  const out: TrialOutcome[] = [];
  // [scenario, locale, improved, regressed, both passed]; no pair failed on both sides.
  const rows: [string, string, number, number, number][] = [
    ['restaurant', 'zh-TW', 4, 1, 7],
    ['restaurant', 'en', 4, 0, 8],
    ['invoice', 'zh-TW', 6, 1, 5],
    ['invoice', 'en', 6, 0, 6],
  ];
  let unwanted = 12;
  for (const [s, l, imp, reg, both] of rows) {
    for (let i = 0; i < imp; i++) {
      const cats: [string[], string[]] = unwanted-- > 0 ? [['unwanted_write', 'unwanted_write'], []] : [['missing_marker'], []];
      out.push(...pair('selection', sel, s, l, 'failed', 'passed', cats));
    }
    for (let i = 0; i < reg; i++) out.push(...pair('selection', sel, s, l, 'passed', 'failed', [[], ['invented_argument']]));
    for (let i = 0; i < both; i++) out.push(...pair('selection', sel, s, l, 'passed', 'passed'));
  }
  for (const s of ['invoice', 'restaurant'])
    for (const l of ['en', 'zh-TW'])
      for (let i = 0; i < 7; i++)
        out.push(...pair('interpretation', ['no-code-meanings', 'code-meanings'], s, l, i < 3 ? 'passed' : 'failed', 'passed', [i < 3 ? [] : ['guessed_label'], []]));
  return out;
}

describe('summarizeRun', () => {
  it('reproduces Table 1 of the reference study', () => {
    const summary = summarizeRun(spec, referenceTrials());
    expect(RunSummary.parse(summary)).toEqual(summary);
    const [sel, int] = summary.studies;
    expect(sel).toMatchObject({ study: 'selection', kind: 'selection', baseline: 'overlapping', treatment: 'clear' });
    expect(sel.rows.map((r) => [r.scenario, r.locale, r.baseline.pass, r.baseline.n, r.treatment.pass, r.treatment.n])).toEqual([
      ['restaurant', 'zh-TW', 8, 12, 11, 12],
      ['restaurant', 'en', 8, 12, 12, 12],
      ['invoice', 'zh-TW', 6, 12, 11, 12],
      ['invoice', 'en', 6, 12, 12, 12],
    ]);
    expect(sel.total).toEqual({ baseline: { pass: 28, n: 48, unresolved: 0, untested: 0 }, treatment: { pass: 46, n: 48, unresolved: 0, untested: 0 } });
    expect(sel.pairs).toEqual({ improved: 20, same: 26, regressed: 2, incomplete: 0 });
    expect(sel.mcnemarP).toBeCloseTo((2 * (1 + 22 + 231)) / 2 ** 22, 15);
    expect(sel.categories).toEqual({
      invented_argument: { baseline: 0, treatment: 2 },
      missing_marker: { baseline: 8, treatment: 0 },
      unwanted_write: { baseline: 12, treatment: 0 }, // counted per trial, not per failed check
    });
    expect(int.total.baseline).toMatchObject({ pass: 12, n: 28 });
    expect(int.total.treatment).toMatchObject({ pass: 28, n: 28 });
    expect(int.pairs).toMatchObject({ improved: 16, same: 12, regressed: 0 });
    // rows follow the spec's scenario then locale order, not the order trials arrived in
    expect(int.rows.map((r) => `${r.scenario}/${r.locale}`)).toEqual(['restaurant/zh-TW', 'restaurant/en', 'invoice/zh-TW', 'invoice/en']);

    const cmp = compareWithPublished(summary, REFERENCE_STUDY_PUBLISHED);
    for (const s of cmp.studies) {
      expect(s.rows.every((r) => r.baseline.equal && r.treatment.equal)).toBe(true);
      expect(s.total.baseline.equal && s.total.treatment.equal).toBe(true);
    }
    expect(cmp.studies[0].pairs.equal).toBe(true);
    expect(cmp.studies[0].categories.unwanted_write).toEqual({ baseline: { ours: 12, published: 12 }, treatment: { ours: 0, published: 0 } });
    expect(cmp.studies[1].pairs).toMatchObject({ published: null, equal: null });
  });

  it('keeps unresolved, untested and unfinished trials out of n and out of the pairs', () => {
    const c: [string, string] = ['overlapping', 'clear'];
    const trials: TrialOutcome[] = [
      ...pair('selection', c, 'invoice', 'en', 'passed', 'passed'),
      ...pair('selection', c, 'invoice', 'en', 'failed', 'passed'),
      ...pair('selection', c, 'invoice', 'en', 'passed', 'failed').map((t) => (t.condition === 'clear' ? { ...t, status: 'unresolved' } : t)),
      ...pair('selection', c, 'invoice', 'en', 'failed', 'failed').map((t) => (t.condition === 'overlapping' ? { ...t, status: 'untested' } : t)),
      ...pair('selection', c, 'invoice', 'en', 'failed', 'failed').map((t) => ({ ...t, status: t.condition === 'clear' ? 'queued' : 'cancelled' })),
      {
        id: 'lonely',
        study: 'selection',
        scenario: 'invoice',
        locale: 'en',
        condition: 'clear',
        pairKey: 'lonely',
        caseId: 'lonely',
        orderIndex: 0,
        replicate: 1,
        status: 'running',
      },
      {
        id: 'other-study',
        study: 'nope',
        scenario: 'invoice',
        locale: 'en',
        condition: 'clear',
        pairKey: 'x',
        caseId: 'x',
        orderIndex: 0,
        replicate: 1,
        status: 'passed',
      },
      {
        id: 'other-cond',
        study: 'selection',
        scenario: 'invoice',
        locale: 'en',
        condition: 'nope',
        pairKey: 'y',
        caseId: 'y',
        orderIndex: 0,
        replicate: 1,
        status: 'passed',
      },
    ];
    const [sel, int] = summarizeRun(spec, trials).studies;
    expect(sel.rows).toHaveLength(1);
    expect(sel.total.baseline).toEqual({ pass: 2, n: 3, unresolved: 0, untested: 1 });
    expect(sel.total.treatment).toEqual({ pass: 2, n: 3, unresolved: 1, untested: 0 });
    expect(sel.pairs).toEqual({ improved: 1, same: 1, regressed: 0, incomplete: 4 });
    expect(sel.mcnemarP).toBe(1);
    expect(int).toMatchObject({ rows: [], pairs: { improved: 0, same: 0, regressed: 0, incomplete: 0 }, mcnemarP: null, categories: {} });
  });

  it('without scenarios/locales in the spec, sorts rows by scenario then locale', () => {
    const c: [string, string] = ['overlapping', 'clear'];
    const trials = [
      ['b', 'en'],
      ['a', 'zh-TW'],
      ['b', 'de'],
      ['a', 'en'],
    ].flatMap(([s, l]) => pair('selection', c, s, l, 'passed', 'passed'));
    const rows = summarizeRun({ studies: spec.studies }, trials).studies[0].rows;
    expect(rows.map((r) => `${r.scenario}/${r.locale}`)).toEqual(['a/en', 'a/zh-TW', 'b/de', 'b/en']);
  });

  it('compares the first non-baseline condition; summarizeComparisons compares each', () => {
    const three: SummarySpec = {
      studies: [
        {
          id: 's',
          kind: 'selection',
          conditions: [
            { id: 'v2', baseline: false },
            { id: 'v1', baseline: true },
            { id: 'v3', baseline: false },
          ],
        },
      ],
    };
    const trials = [
      ...pair('s', ['v1', 'v2'], 'x', 'en', 'failed', 'passed'),
      {
        id: 'v3',
        study: 's',
        scenario: 'x',
        locale: 'en',
        condition: 'v3',
        pairKey: pairKeyOf({ study: 's', scenario: 'x', locale: 'en', caseId: `p${seq - 1}`, orderIndex: 0, replicate: 1 }),
        caseId: `p${seq - 1}`,
        orderIndex: 0,
        replicate: 1,
        status: 'failed',
      },
    ];
    expect(summarizeRun(three, trials).studies.map((s) => [s.baseline, s.treatment, s.pairs.improved])).toEqual([['v1', 'v2', 1]]);
    expect(summarizeComparisons(three, trials).studies.map((s) => [s.baseline, s.treatment, s.pairs.improved, s.pairs.same])).toEqual([
      ['v1', 'v2', 1, 0],
      ['v1', 'v3', 0, 1],
    ]);
    expect(() => summarizeRun({ studies: [{ id: 's', kind: 'selection', conditions: [{ id: 'only', baseline: true }] }] }, [])).toThrow(
      /baseline and at least one other/,
    );
  });

  it('summarises 20,000 trials through per-cluster cells: what Table 1 is made of grows with cases, not trials', () => {
    // 40 cases × 250 replicates × 2 conditions; the speed of Table 1 at 100,000 trials is measured by `npm run bench:results`
    const trials: TrialOutcome[] = [];
    const statuses = ['passed', 'failed', 'passed', 'unresolved', 'untested'];
    for (let i = 0; i < 10_000; i++) {
      const c = i % 40;
      const s = ['restaurant', 'invoice'][c % 2];
      const l = ['en', 'zh-TW'][(c >> 1) % 2];
      const study = c % 3 === 0 ? 'interpretation' : 'selection';
      const conds = study === 'selection' ? ['overlapping', 'clear'] : ['no-code-meanings', 'code-meanings'];
      const pairKey = pairKeyOf({ study, scenario: s, locale: l, caseId: `case${c}`, orderIndex: 0, replicate: Math.floor(i / 40) + 1 });
      conds.forEach((condition, j) =>
        trials.push({
          id: `${pairKey}|${condition}`,
          study,
          scenario: s,
          locale: l,
          condition,
          pairKey,
          caseId: `case${c}`,
          orderIndex: 0,
          replicate: Math.floor(i / 40) + 1,
          status: statuses[(Math.floor(i / 40) + j) % 5],
          categories: (Math.floor(i / 40) + j) % 5 === 1 ? ['wrong_tool'] : [],
        }),
      );
    }
    const cells = cellsFromTrials(spec, trials);
    expect(cells.status).toHaveLength(80); // one per case and condition
    expect(cells.pairs).toHaveLength(40);
    const summary = summarizeCells(spec, cells);
    expect(summary).toEqual(summarizeRun(spec, trials));
    const sel = summary.studies[0];
    expect(sel.pairs.improved + sel.pairs.same + sel.pairs.regressed + sel.pairs.incomplete).toBe(26 * 250);
    expect(sel.clustered!.baseline.clusters).toBe(26);
  });
});

describe('pass^k', () => {
  it('is reported beside the plain rate when tasks have replicates, per condition', () => {
    const trials: TrialOutcome[] = [];
    // two tasks × 3 replicates; baseline: task a passes 2/3, task b 3/3; treatment: both 3/3
    const results: Record<string, Record<string, Outcome[]>> = {
      overlapping: { a: ['passed', 'failed', 'passed'], b: ['passed', 'passed', 'passed'] },
      clear: { a: ['passed', 'passed', 'passed'], b: ['passed', 'passed', 'passed'] },
    };
    for (const [condition, tasks] of Object.entries(results))
      for (const [task, outcomes] of Object.entries(tasks))
        outcomes.forEach((status, r) => {
          const pairKey = pairKeyOf({ study: 'selection', scenario: 'shop', locale: 'en', caseId: task, orderIndex: 0, replicate: r + 1 });
          trials.push({
            id: `${pairKey}|${condition}`,
            study: 'selection',
            scenario: 'shop',
            locale: 'en',
            condition,
            pairKey,
            caseId: task,
            orderIndex: 0,
            replicate: r + 1,
            status,
          });
        });
    trials.push({
      id: 'x',
      study: 'selection',
      scenario: 'shop',
      locale: 'en',
      condition: 'clear',
      pairKey: pairKeyOf({ study: 'selection', scenario: 'shop', locale: 'en', caseId: 'c', orderIndex: 0, replicate: 1 }),
      caseId: 'c',
      orderIndex: 0,
      replicate: 1,
      status: 'unresolved',
    });
    const sel = summarizeRun({ studies: [spec.studies[0]] }, trials).studies[0];
    expect(sel.passK).toEqual({
      k: 3,
      // task a: C(2,3)/C(3,3) = 0; task b: 1 → mean 0.5; plain rate (2/3 + 1) / 2
      baseline: { passHatK: 0.5, rate: (2 / 3 + 1) / 2, tasks: 2, skipped: 0 },
      treatment: { passHatK: 1, rate: 1, tasks: 2, skipped: 0 },
    });
    expect(RunSummary.parse({ studies: [sel] }).studies[0].passK?.k).toBe(3);
  });

  it('is absent with one replicate (the reference study)', () => {
    expect(summarizeRun(spec, referenceTrials()).studies.every((s) => s.passK === undefined)).toBe(true);
  });
});

describe('clustered statistics, order consistency and ablations', () => {
  const sel = {
    id: 'sel',
    kind: 'selection' as const,
    conditions: [
      { id: 'base', baseline: true },
      { id: 'v2', baseline: false },
      { id: 'v3', baseline: false },
    ],
  };
  /** One case `c`, two orders, one replicate: statuses and decisions per condition and order. */
  function trialsOf(cases: Record<string, Record<string, [string, string, string, string]>>): TrialOutcome[] {
    const out: TrialOutcome[] = [];
    for (const [caseId, byCondition] of Object.entries(cases))
      for (const [condition, [s0, s1, d0, d1]] of Object.entries(byCondition))
        [s0, s1].forEach((status, orderIndex) => {
          const pairKey = pairKeyOf({ study: 'sel', scenario: 'shop', locale: 'en', caseId, orderIndex, replicate: 1 });
          const decision = orderIndex === 0 ? d0 : d1;
          out.push({
            id: `${pairKey}|${condition}`,
            study: 'sel',
            scenario: 'shop',
            locale: 'en',
            condition,
            pairKey,
            status,
            caseId,
            orderIndex,
            replicate: 1,
            decision,
            firstPick: decision.startsWith('call') ? decision === 'call a' : undefined,
          });
        });
    return out;
  }
  // case x: base fails both orders (picks a, then b), v2 passes both, v3 passes one
  // case y: base passes both (a, a), v2 passes both, v3 fails both
  const trials = trialsOf({
    x: { base: ['failed', 'failed', 'call a', 'call b'], v2: ['passed', 'passed', 'call b', 'call b'], v3: ['passed', 'failed', 'call b', 'STOP'] },
    y: { base: ['passed', 'passed', 'call a', 'call a'], v2: ['passed', 'passed', 'call a', 'call a'], v3: ['failed', 'failed', 'no call', 'no call'] },
  });

  it('clusters by case: two clusters of two orders', () => {
    const s = summarizeRun({ studies: [sel] }, trials).studies[0];
    // base: clusters x 0/2, y 2/2 → ȳ = .5; residuals −1, 1; SE = sqrt(2/1 · 2)/4 = .5; design effect .25 / (.25/4) = 4
    expect(s.clustered!.baseline).toMatchObject({ estimate: 0.5, clusters: 2, df: 1 });
    expect(s.clustered!.baseline.se).toBeCloseTo(0.5, 12);
    expect(s.clustered!.baseline.designEffect).toBeCloseTo(4, 12);
    // v2 − base over 4 pairs: x improved twice, y same twice → d̄ = .5; cluster sums 2, 0; residuals 1, −1; SE = sqrt(2 · 2)/4 = .5
    expect(s.difference).toMatchObject({ estimate: 0.5, se: 0.5, pairs: 4, clusters: 2, df: 1 });
    expect(s.mcnemar).toEqual({ b: 2, c: 0, pExact: 0.5, pMid: 0.25 });
    expect(s.mcnemarP).toBe(0.5);
    // base: x flipped (a → b), y consistent; first-position picks (tool a listed first): 3 of 4 calls
    expect(s.orderConsistency!.baseline).toMatchObject({ cases: 2, consistent: 1, flipRate: 0.5, calls: 4, firstPicks: 3, firstPositionRate: 0.75 });
    expect(s.flipped!.map((f) => [f.condition, f.caseId, f.trials.map((t) => t.decision)])).toEqual([['base', 'x', ['call a', 'call b']]]);
    expect(s.flippedTotal).toBe(1);
  });

  it('clusters by scenario on request: one cluster, no SE', () => {
    const s = summarizeRun({ studies: [sel] }, trials, { clusterBy: 'scenario' }).studies[0];
    expect(s.clusterBy).toBe('scenario');
    expect(s.clustered!.baseline).toMatchObject({ clusters: 1, df: 0, se: null, ci95: null });
  });

  it('ablation: every condition against the baseline, sorted by effect', () => {
    const { ablations } = summarizeRun({ studies: [sel] }, trials);
    // v2: +2 improved over 4 pairs = .5; v3: x improved once (o0), y regressed twice → (1 − 2)/4 = −.25
    expect(ablations![0].conditions.map((c) => [c.condition, c.difference.estimate, c.pairs.improved, c.pairs.regressed])).toEqual([
      ['v2', 0.5, 2, 0],
      ['v3', -0.25, 1, 2],
    ]);
    expect(summarizeRun(spec, referenceTrials()).ablations).toBeUndefined();
  });
});
