import { describe, expect, it } from 'vitest';
import { simulateNullLoop } from './optimise-sim';

// The figures docs/optimise.md prints ("The null oracle"): 30 select and 30 confirm cases, 7 trials per case
// and condition (the politely-ignored template's 7 rotations), 400 seeded runs each. Change them there too.
const sizes = { runs: 400, selectCases: 30, confirmCases: 30, trialsPerCase: 7 };

describe('the null oracle: K rewrites that change nothing, the whole select → confirm loop', () => {
  it('K = 12, the best kept: confirmed in at most 5% of runs, the select winner looks significant far more often', () => {
    const f = simulateNullLoop({ ...sizes, candidates: 12, rule: { kind: 'best' }, seed: 33 });
    expect(f.confirmed / f.runs).toBeLessThanOrEqual(0.05);
    expect(f.selectLooksSignificant).toBeGreaterThan(10 * f.confirmed);
    expect({ selectLooksSignificant: f.selectLooksSignificant, confirmed: f.confirmed, withWinner: f.withWinner }).toEqual({
      selectLooksSignificant: 63,
      confirmed: 2,
      withWinner: 365,
    });
    // the winner's curse: the winners' select difference is inflated (+5.9 pp); on the sealed split it is gone
    expect(f.meanSelectEstimate).toBeCloseTo(0.0595, 3);
    expect(Math.abs(f.meanConfirmEstimate)).toBeLessThan(0.005);
  });

  it('K = 20, the best kept', () => {
    const f = simulateNullLoop({ ...sizes, candidates: 20, rule: { kind: 'best' }, seed: 34 });
    expect(f.confirmed / f.runs).toBeLessThanOrEqual(0.05);
    expect({ selectLooksSignificant: f.selectLooksSignificant, confirmed: f.confirmed }).toEqual({ selectLooksSignificant: 67, confirmed: 0 });
  });

  it('K = 20, the top 3 confirmed (Holm over 3 claims)', () => {
    const f = simulateNullLoop({ ...sizes, candidates: 20, rule: { kind: 'top', m: 3 }, seed: 35 });
    expect(f.confirmed / f.runs).toBeLessThanOrEqual(0.05);
    expect({ selectLooksSignificant: f.selectLooksSignificant, confirmed: f.confirmed }).toEqual({ selectLooksSignificant: 64, confirmed: 1 });
  });

  it('is a function of its seed', () => {
    const o = { runs: 20, candidates: 5, selectCases: 6, confirmCases: 6, trialsPerCase: 3, rule: { kind: 'best' } as const, seed: 9 };
    expect(simulateNullLoop(o)).toEqual(simulateNullLoop(o));
  });
});
