import { describe, expect, it } from 'vitest';
import { mcnemar, pairedDifference, type PairedDifference } from '../stats';
import { descriptionPairs, funnel, pairReading, shiftOf, type FunnelTrial, type PairedStage } from './funnel';

// Descriptions move both stages. For each baseline → treatment pair under the same discovery × N,
// stage 1 (needed tool visible) and stage 2 (chosen, over the pairs where both trials saw it), paired, with the
// CR1 interval of lib/stats and the exact McNemar p.

type Cp = Record<string, string>;
const seen = (chosen: boolean): Cp => ({ visibility: 'pass', selection: chosen ? 'pass' : 'fail', parameters: chosen ? 'pass' : 'untested' });
const unseen: Cp = { visibility: 'fail', selection: 'untested', parameters: 'untested' };

function trial(condition: string, caseId: string, pairKey: string, checkpoints: Cp, over: Partial<FunnelTrial> = {}): FunnelTrial {
  return {
    study: 'selection',
    condition,
    baseline: condition === 'vague',
    caseId,
    pairKey,
    catalogSize: 8,
    discovery: 'bm25-top-5',
    needsTool: true,
    checkpoints,
    status: checkpoints.selection === 'pass' ? 'passed' : checkpoints.selection === 'fail' ? 'failed' : 'untested',
    inputTokens: null,
    costUsd: null,
    ...over,
  };
}

/** Five pairs, baseline `vague` → treatment `clear`, in three cases. */
const TRIALS: FunnelTrial[] = [
  // p1: the edit made the tool visible (stage 1 improved; not a stage-2 pair: the baseline never saw it)
  trial('vague', 'c1', 'p1', unseen),
  trial('clear', 'c1', 'p1', seen(true)),
  // p2: visible on both sides, chosen only under the treatment (stage 1 same, stage 2 improved)
  trial('vague', 'c1', 'p2', seen(false)),
  trial('clear', 'c1', 'p2', seen(true)),
  // p3: visible and chosen on both sides (same, same)
  trial('vague', 'c2', 'p3', seen(true)),
  trial('clear', 'c2', 'p3', seen(true)),
  // p4: the edit lost the tool (stage 1 regressed; not a stage-2 pair)
  trial('vague', 'c2', 'p4', seen(true)),
  trial('clear', 'c2', 'p4', unseen),
  // p5: a CLARIFY card: nothing to find, outside both stages
  trial('vague', 'c3', 'p5', seen(false), { needsTool: false }),
  trial('clear', 'c3', 'p5', seen(true), { needsTool: false }),
];

describe('descriptionPairs', () => {
  it('stage 1 over the pairs whose card needs a tool, stage 2 over the pairs visible on both sides, intervals from lib/stats', () => {
    const pairs = descriptionPairs(funnel(TRIALS));
    expect(pairs).toHaveLength(1);
    const [p] = pairs;
    expect(p).toMatchObject({ study: 'selection', discovery: 'bm25-top-5', catalogSize: 8, baseline: 'vague', treatment: 'clear' });
    expect(p.visible).toMatchObject({ improved: 1, same: 2, regressed: 1 });
    expect(p.visible.difference).toEqual(
      pairedDifference([
        { pairs: 2, improved: 1, regressed: 0 },
        { pairs: 2, improved: 0, regressed: 1 },
      ]),
    );
    expect(p.visible.difference.estimate).toBe(0);
    expect(p.visible.mcnemar).toEqual(mcnemar(1, 1));
    expect(p.chosen).toMatchObject({ improved: 1, same: 1, regressed: 0 });
    expect(p.chosen.difference).toEqual(
      pairedDifference([
        { pairs: 1, improved: 1, regressed: 0 },
        { pairs: 1, improved: 0, regressed: 0 },
      ]),
    );
    expect(p.chosen.difference).toMatchObject({ estimate: 0.5, pairs: 2, clusters: 2 });
    expect(p.chosen.mcnemar).toEqual(mcnemar(1, 0));
    // both intervals hold 0 → no shift shown
    expect(p.shift).toEqual({ visible: 'not shown', chosen: 'not shown' });
  });

  it('no interval where there is nothing to estimate: one case, or no pair at a stage', () => {
    const one = TRIALS.filter((t) => t.caseId === 'c1');
    const [p] = descriptionPairs(funnel(one));
    expect(p.visible.difference).toMatchObject({ estimate: 0.5, clusters: 1, ci95: null });
    expect(p.visible.difference.ciReason).toMatch(/cluster/);
    expect(p.shift.visible).toBe('too few');
    const [q] = descriptionPairs(funnel(TRIALS.filter((t) => t.pairKey === 'p1')));
    expect(q.chosen).toMatchObject({ improved: 0, same: 0, regressed: 0 });
    expect(q.chosen.difference).toMatchObject({ estimate: null, ci95: null, pairs: 0 });
    expect(q.shift.chosen).toBe('too few');
  });

  it('one pair per treatment and cell; a cell without a treatment has none', () => {
    const third = TRIALS.filter((t) => t.condition === 'clear').map((t) => ({ ...t, condition: 'short' }));
    const elsewhere = TRIALS.filter((t) => t.condition === 'vague').map((t) => ({ ...t, catalogSize: 32 }));
    const pairs = descriptionPairs(funnel([...TRIALS, ...third, ...elsewhere]));
    expect(pairs.map((p) => `${p.catalogSize} ${p.baseline}→${p.treatment}`)).toEqual(['8 vague→clear', '8 vague→short']);
  });
});

describe('shiftOf / pairReading: the stage readings (./reading.ts)', () => {
  const stage = (improved: number, regressed: number, difference: Partial<PairedDifference>): PairedStage => ({
    improved,
    regressed,
    same: 0,
    mcnemar: mcnemar(improved, regressed),
    difference: { estimate: 0, se: null, ci95: null, ciReason: null, pairs: improved + regressed, clusters: improved + regressed, df: 0, ...difference },
  });
  // 8 improved, 0 regressed, one pair in each of 8 cases: every case moved alike (no interval), exact p = 0.0078
  const eight = stage(8, 0, { estimate: 1, ci95: null, pairs: 8, clusters: 8 });
  const flat = stage(2, 2, { estimate: 0, ci95: [-0.3, 0.3], pairs: 10, clusters: 5 });
  it('8 improved, 0 regressed, p = 0.0078 reads as improved, not "no shift shown"', () => {
    expect(eight.mcnemar.pExact).toBeCloseTo(0.0078125, 10);
    expect(shiftOf(eight)).toBe('up');
    expect(pairReading({ visible: eight, chosen: flat })).toBe('found more often');
    expect(pairReading({ visible: flat, chosen: eight })).toBe('chosen more often once found');
  });
  it('up or down only when the reading says improved or worse', () => {
    expect(shiftOf(stage(6, 0, { estimate: 0.3, ci95: [0.05, 0.55], pairs: 20, clusters: 5 }))).toBe('up');
    expect(shiftOf(stage(0, 6, { estimate: -0.3, ci95: [-0.55, -0.05], pairs: 20, clusters: 5 }))).toBe('down');
    expect(shiftOf(flat)).toBe('not shown');
    // the interval excludes 0 but McNemar's exact p (3 vs 0: 0.25) does not: not shown
    expect(shiftOf(stage(3, 0, { estimate: 0.3, ci95: [0.05, 0.55], pairs: 10, clusters: 5 }))).toBe('not shown');
    // one case, or two cases that moved alike: too few pairs to tell
    expect(shiftOf(stage(4, 0, { estimate: 0.5, pairs: 8, clusters: 1 }))).toBe('too few');
    expect(shiftOf(stage(4, 0, { estimate: 0.5, pairs: 8, clusters: 2 }))).toBe('too few');
    expect(shiftOf(stage(0, 0, { estimate: null, pairs: 0, clusters: 0 }))).toBe('too few');
  });
  it('reads found / chosen once found, both, neither, or too few', () => {
    const down = stage(0, 6, { estimate: -0.3, ci95: [-0.55, -0.05], pairs: 20, clusters: 5 });
    const few = stage(4, 0, { estimate: 0.5, pairs: 8, clusters: 1 });
    expect(pairReading({ visible: eight, chosen: eight })).toBe('found more often and chosen more often once found');
    expect(pairReading({ visible: flat, chosen: down })).toBe('chosen less often once found');
    expect(pairReading({ visible: flat, chosen: flat })).toBe('no shift shown at either stage');
    expect(pairReading({ visible: flat, chosen: few })).toBe('no shift shown at stage 1; stage 2: too few pairs to tell');
    expect(pairReading({ visible: eight, chosen: few })).toBe('found more often; stage 2: too few pairs to tell');
    expect(pairReading({ visible: few, chosen: few })).toBe('too few pairs to tell at either stage');
  });
});
