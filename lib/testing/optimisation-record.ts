import type { OptimisationRow, StoredDifference } from '../schema/optimisation';

// An optimisation record as the loop stores it, for the tests of what reads one (Markdown, LaTeX): two targets,
// a winner confirmed on the first, a placebo without an interval. Tests change what they need with a spread.

/** A stored paired difference: 14 pairs over 2 cases; no interval reads "one case". */
export const storedDifference = (estimate: number | null, ci95: [number, number] | null, se: number | null = null): StoredDifference => ({
  estimate,
  se,
  ci95,
  ciReason: ci95 ? null : 'one case',
  pairs: 14,
  clusters: 2,
  df: 1,
});
const d = storedDifference;

export const optimisationRecord: OptimisationRow = {
  id: 'opt_1',
  createdAt: new Date('2026-12-05T00:00:00Z'),
  updatedAt: new Date('2026-12-05T00:01:00Z'),
  actor: 'someone',
  experimentId: 'exp-v2',
  studyId: 'selection',
  splitSeed: 7,
  splitShares: { tune: 40, select: 30, confirm: 30 },
  sealed: { count: 3, sha256: 'sha256:abc' },
  rule: { kind: 'best' },
  targets: ['simulated:a', 'simulated:b'],
  candidates: [
    { condition: 'fix|pipe', label: 'x', provenance: 'rule:restates-name', of: 'base', placebo: false, changes: [] },
    { condition: 'pad', label: 'p', provenance: 'placebo', of: 'base', placebo: true, changes: [] },
  ],
  stage: 'confirmed',
  selectExperimentId: 'exp-v2.selection.select',
  selectRunId: 'r_sel',
  winners: ['fix|pipe'],
  frozenAt: new Date('2026-12-05T00:00:30Z'),
  look: 1,
  confirmExperimentId: 'exp-v2.selection.confirm',
  confirmRunIds: ['r_a', 'r_b'],
  result: {
    select: {
      runId: 'r_sel',
      baseline: { condition: 'base', perRequest: { requests: 12, inputTokens: 380, outputTokens: 18, cost: 0.00085 } },
      currency: 'USD',
      ranked: [
        {
          candidate: 'fix|pipe',
          placebo: false,
          rank: 1,
          difference: d(0.25, [0.05, 0.45]),
          improved: 5,
          regressed: 0,
          pExact: 0.0625,
          beatsPlacebo: true,
          sideEffects: {
            newConfusions: [{ expected: 'search|orders', chosen: 'get_order', pairs: 2, cases: ['c1'] }],
            perRequest: { requests: 12, inputTokens: 412, outputTokens: 18, cost: 0.00093 },
          },
        },
        { candidate: 'pad', placebo: true, rank: 2, difference: d(0, null), improved: 0, regressed: 0, pExact: 1, beatsPlacebo: null },
      ],
    },
    confirm: [
      {
        target: 'simulated:a',
        runId: 'r_a',
        readings: [
          {
            candidate: 'fix|pipe',
            selectEstimate: 0.25,
            difference: d(0.5, [0.2, 0.8]),
            improved: 7,
            regressed: 0,
            pExact: 0.0156,
            pHolm: 0.0156,
            claims: 1,
            vsPlacebo: null,
            reading: 'confirmed',
            sentence: 'confirmed: +50.0 pp',
          },
        ],
      },
    ],
    transfer: [
      {
        candidate: 'fix|pipe',
        perTarget: [
          { target: 'simulated:a', difference: d(0.5, [0.2, 0.8]) },
          { target: 'simulated:b', difference: d(0, null) },
        ],
        heterogeneity: null,
      },
    ],
    earlierLookPs: [],
  },
  error: null,
};
