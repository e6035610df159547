import { describe, expect, it } from 'vitest';
import type { TrialOutcome } from '../schema/table1';
import { modelDifferences, trialIdentity } from './compare-runs';
import { pairKeyOf } from '../design/matrix';

const studies = [
  {
    id: 's',
    conditions: [
      { id: 'treat', baseline: false },
      { id: 'base', baseline: true },
    ],
  },
];

function trial(caseId: string, order: number, condition: string, status: string): TrialOutcome {
  const pairKey = pairKeyOf({ study: 's', scenario: 'inv', locale: 'en', caseId, orderIndex: order, replicate: 1 });
  return { id: `${pairKey}|${condition}`, study: 's', scenario: 'inv', locale: 'en', condition, pairKey, status, caseId, orderIndex: order, replicate: 1 };
}

describe('modelDifferences: the other model against the reference on identical trials', () => {
  it('counts, the CR1 difference over case clusters and McNemar, worked by hand', () => {
    const reference = [
      trial('A', 0, 'base', 'passed'),
      trial('A', 1, 'base', 'passed'),
      trial('B', 0, 'base', 'failed'),
      trial('B', 1, 'base', 'failed'),
      trial('C', 0, 'base', 'passed'),
    ];
    const other = [
      trial('A', 0, 'base', 'failed'),
      trial('A', 1, 'base', 'passed'),
      trial('B', 0, 'base', 'passed'),
      trial('B', 1, 'base', 'passed'),
      trial('C', 0, 'base', 'unresolved'), // undecided in one run: outside, as in Table 1
    ];
    const [d] = modelDifferences(studies, { runId: 'r1', trials: reference }, { runId: 'r2', trials: other });
    expect(d.conditions.map((c) => c.condition)).toEqual(['base', 'treat']); // baseline first
    const base = d.conditions[0];
    expect(base).toMatchObject({ pairs: 4, referencePass: 2, otherPass: 3, otherBetter: 2, referenceBetter: 1 });
    // d_i ∈ {−1, 0, 1}: cluster A sums −1 over 2 pairs, B sums +2 over 2; mean (2 − 1)/4 = 0.25.
    // CR1: residual sums A: −1 − 2·0.25 = −1.5, B: 2 − 2·0.25 = 1.5; SE = sqrt(2/1 · (2.25 + 2.25)) / 4 = 3/4.
    expect(base.difference.estimate).toBeCloseTo(0.25, 12);
    expect(base.difference.se).toBeCloseTo(0.75, 12);
    expect(base.difference).toMatchObject({ pairs: 4, clusters: 2, df: 1 });
    // McNemar on b = 2, c = 1: exact 2·P(X ≤ 1 | 3, ½) = 2·4/8 = 1; mid-p 1 − P(X = 1) = 1 − 3/8.
    expect(base.mcnemar).toMatchObject({ b: 2, c: 1, pExact: 1 });
    expect(base.mcnemar?.pMid).toBeCloseTo(0.625, 12);
    // a condition with no identical decided trials
    expect(d.conditions[1]).toMatchObject({ pairs: 0, otherBetter: 0, referenceBetter: 0, mcnemar: null, difference: { estimate: null } });
  });
  it('a trial is identical across runs by study, pair key (scenario, locale, case, order, replicate) and condition', () => {
    const elsewhere: TrialOutcome = { ...trial('A', 0, 'base', 'failed'), id: 'a-trial-of-another-run' };
    expect(trialIdentity(trial('A', 0, 'base', 'passed'))).toBe(trialIdentity(elsewhere));
    expect(trialIdentity(trial('A', 0, 'base', 'passed'))).not.toBe(trialIdentity(trial('A', 1, 'base', 'passed')));
    expect(trialIdentity(trial('A', 0, 'base', 'passed'))).not.toBe(trialIdentity(trial('A', 0, 'treat', 'passed')));
  });
});
