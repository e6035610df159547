import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { clusteredIntervalReason, clusteredMean, clusteredProportion, pairedDifference } from './clustered';
import { wilson } from './wilson';

// t_{0.975} from a printed t table, to 6 digits: 3 df 3.182446, 4 df 2.776445.
const T3 = 3.182446;
const T4 = 2.776445;

describe('clusteredProportion (CR1)', () => {
  it('five clusters of two, 5/10 passed: SE by hand', () => {
    // sums 2,1,0,1,1 of 2 each: n = 10, ȳ = 0.5; residuals s_g − 2·0.5 = 1, 0, −1, 0, 0; Σ r² = 2
    // SE = sqrt(5/4 · 2) / 10 = sqrt(2.5) / 10 = 0.158114; interval 0.5 ± 2.776445 · 0.158114 = 0.5 ± 0.438993
    // iid variance 0.25/10 = 0.025 = SE² → design effect 1
    const r = clusteredProportion([
      { sum: 2, n: 2 },
      { sum: 1, n: 2 },
      { sum: 0, n: 2 },
      { sum: 1, n: 2 },
      { sum: 1, n: 2 },
    ]);
    expect(r.estimate).toBe(0.5);
    expect(r.se!).toBeCloseTo(0.158114, 6);
    expect(r.ci95![0]).toBeCloseTo(0.5 - 0.438993, 5);
    expect(r.ci95![1]).toBeCloseTo(0.5 + 0.438993, 5);
    expect(r).toMatchObject({ clusters: 5, df: 4, n: 10 });
    expect(r.designEffect!).toBeCloseTo(1, 10);
  });

  it('clusters that agree inside: a design effect above 1, wider than Wilson', () => {
    // sums 2,2,0,0 of 2: ȳ = 0.5; residuals 1, 1, −1, −1; Σ r² = 4; SE = sqrt(4/3 · 4) / 8 = 2.309401/8 = 0.288675
    // design effect 0.288675² / (0.25/8) = 0.083333 / 0.03125 = 2.666667; interval 0.5 ± 3.182446·0.288675 = ±0.918693 → clipped [0, 1]
    const r = clusteredProportion([
      { sum: 2, n: 2 },
      { sum: 2, n: 2 },
      { sum: 0, n: 2 },
      { sum: 0, n: 2 },
    ]);
    expect(r.se!).toBeCloseTo(0.288675, 6);
    expect(r.designEffect!).toBeCloseTo(8 / 3, 6);
    expect(r.df).toBe(3);
    expect(0.5 + T3 * r.se!).toBeGreaterThan(1);
    expect(r.ci95).toEqual([0, 1]);
    const w = wilson(4, 8)!;
    expect(r.ci95![1] - r.ci95![0]).toBeGreaterThan(w.high - w.low);
  });

  it('unequal cluster sizes', () => {
    // sums 3/3, 1/2, 0/1: n = 6, ȳ = 4/6; residuals 3 − 2 = 1, 1 − 4/3 = −1/3, 0 − 2/3 = −2/3
    // Σ r² = 1 + 1/9 + 4/9 = 14/9; SE = sqrt(3/2 · 14/9) / 6 = sqrt(7/3) / 6 = 1.527525 / 6 = 0.254588 (df 2)
    const r = clusteredProportion([
      { sum: 3, n: 3 },
      { sum: 1, n: 2 },
      { sum: 0, n: 1 },
    ]);
    expect(r.estimate).toBeCloseTo(2 / 3, 12);
    expect(r.se!).toBeCloseTo(0.254588, 6);
    expect(r.df).toBe(2);
  });

  it('edge cases: one cluster, all pass, empty clusters, nothing', () => {
    // one cluster: G − 1 = 0, no SE
    expect(clusteredProportion([{ sum: 3, n: 4 }])).toEqual({
      estimate: 0.75,
      se: null,
      ci95: null,
      ciReason: '1 cluster: a cluster-robust interval needs two or more',
      clusters: 1,
      df: 0,
      n: 4,
      designEffect: null,
    });
    // all pass: every residual is 0 → SE 0 and no interval (a zero-width [1, 1] would claim certainty), design effect unknown (0/0)
    expect(
      clusteredProportion([
        { sum: 2, n: 2 },
        { sum: 2, n: 2 },
        { sum: 1, n: 1 },
      ]),
    ).toEqual({ estimate: 1, se: 0, ci95: null, ciReason: expect.stringMatching(/^no variance between clusters/), clusters: 3, df: 2, n: 5, designEffect: null });
    // clusters without observations are not clusters
    expect(
      clusteredProportion([
        { sum: 0, n: 0 },
        { sum: 1, n: 2 },
      ]).clusters,
    ).toBe(1);
    expect(clusteredProportion([])).toEqual({ estimate: null, se: null, ci95: null, ciReason: 'no observations', clusters: 0, df: 0, n: 0, designEffect: null });
  });

  it('rejects impossible counts', () => {
    expect(() => clusteredProportion([{ sum: 3, n: 2 }])).toThrow(RangeError);
    expect(() => clusteredProportion([{ sum: 1, n: -1 }])).toThrow(RangeError);
  });

  it('property: clusters of one give the iid variance times n/(n − 1)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 2, maxLength: 200 }), (ys) => {
        const r = clusteredProportion(ys.map((y) => ({ sum: y ? 1 : 0, n: 1 })));
        const n = ys.length;
        const p = ys.filter(Boolean).length / n;
        expect(r.se! ** 2).toBeCloseTo(((p * (1 - p)) / n) * (n / (n - 1)), 12);
      }),
    );
  });
});

describe('clusteredMean', () => {
  it('is not clipped unless asked', () => {
    const r = clusteredMean([
      { sum: 2, n: 2 },
      { sum: 2, n: 2 },
      { sum: 0, n: 2 },
      { sum: 0, n: 2 },
    ]);
    expect(r.ci95![0]).toBeCloseTo(0.5 - T3 * 0.288675, 5);
    expect(r.ci95![1]).toBeCloseTo(0.5 + T3 * 0.288675, 5);
  });
});

describe('pairedDifference', () => {
  it('four clusters of two pairs, by hand', () => {
    // per-cluster Σd: 2 improved → 2; 1 improved + 1 same → 1; 1 improved + 1 regressed → 0; 2 same → 0
    // n = 8 pairs, d̄ = 3/8 = 0.375; residuals 2 − 0.75 = 1.25, 0.25, −0.75, −0.75; Σ r² = 2.75
    // SE = sqrt(4/3 · 2.75) / 8 = 1.914854 / 8 = 0.239357; 95%: 0.375 ± 3.182446 · 0.239357 = 0.375 ± 0.761737
    // → [−0.386737, 1.136737], clipped to [−0.386737, 1]
    const r = pairedDifference([
      { pairs: 2, improved: 2, regressed: 0 },
      { pairs: 2, improved: 1, regressed: 0 },
      { pairs: 2, improved: 1, regressed: 1 },
      { pairs: 2, improved: 0, regressed: 0 },
    ]);
    expect(r.estimate).toBe(0.375);
    expect(r.se!).toBeCloseTo(0.239357, 6);
    expect(r.ci95![0]).toBeCloseTo(-0.386737, 5);
    expect(r.ci95![1]).toBe(1);
    expect(r).toMatchObject({ pairs: 8, clusters: 4, df: 3 });
  });

  it('no discordant pair: 0 with SE 0; b = c: estimate 0 with an interval around it', () => {
    expect(
      pairedDifference([
        { pairs: 3, improved: 0, regressed: 0 },
        { pairs: 2, improved: 0, regressed: 0 },
      ]),
    ).toEqual({ estimate: 0, se: 0, ci95: null, ciReason: expect.stringMatching(/^no variance between clusters/), pairs: 5, clusters: 2, df: 1 });
    // b = c = 1 in two clusters of two: Σd = 1 and −1; d̄ = 0; Σ r² = 2; SE = sqrt(2/1 · 2) / 4 = 0.5
    // t_{0.975,1} = 12.706 → the interval is the whole range [−1, 1]
    const r = pairedDifference([
      { pairs: 2, improved: 1, regressed: 0 },
      { pairs: 2, improved: 0, regressed: 1 },
    ]);
    expect(r.estimate).toBe(0);
    expect(r.se!).toBeCloseTo(0.5, 12);
    expect(r.ci95).toEqual([-1, 1]);
    // b = c across five clusters of one pair each? d = 1, −1, 0, 0, 0: Σ r² = 2; SE = sqrt(5/4 · 2)/5 = 0.316228
    const s = pairedDifference([1, -1, 0, 0, 0].map((d) => ({ pairs: 1, improved: d > 0 ? 1 : 0, regressed: d < 0 ? 1 : 0 })));
    expect(s.se!).toBeCloseTo(0.316228, 6);
    expect(s.ci95![1]).toBeCloseTo(T4 * 0.316228, 5);
  });

  it('two clusters with the same rate (4/8 as 2/4 and 2/4): no interval, never a zero-width one', () => {
    const r = clusteredProportion([
      { sum: 2, n: 4 },
      { sum: 2, n: 4 },
    ]);
    expect(r).toMatchObject({ estimate: 0.5, se: 0, ci95: null, clusters: 2, df: 1 });
    expect(r.ciReason).toMatch(/no variance between clusters/);
    // the same rate reached through non-terminating fractions: rounding leaves SE ≈ 1e-17, still no interval
    const third = clusteredProportion([
      { sum: 1, n: 3 },
      { sum: 1, n: 3 },
      { sum: 1, n: 3 },
    ]);
    expect(third.ci95).toBeNull();
    expect(clusteredIntervalReason({ n: 9, clusters: 3, se: 0.01 })).toBeNull();
  });

  it('any interval it returns has width (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(5), fc.nat(5)), { maxLength: 8 }), (xs) => {
        const r = clusteredProportion(xs.map(([a, b]) => ({ sum: Math.min(a, b), n: Math.max(a, b) })));
        if (r.ci95) expect(r.ci95[1]).toBeGreaterThan(r.ci95[0]);
        else expect(r.ciReason).toEqual(expect.any(String));
      }),
    );
  });

  it('one cluster and no pairs', () => {
    expect(pairedDifference([{ pairs: 4, improved: 3, regressed: 1 }])).toEqual({
      estimate: 0.5,
      se: null,
      ci95: null,
      ciReason: '1 cluster: a cluster-robust interval needs two or more',
      pairs: 4,
      clusters: 1,
      df: 0,
    });
    expect(pairedDifference([])).toEqual({ estimate: null, se: null, ci95: null, ciReason: 'no observations', pairs: 0, clusters: 0, df: 0 });
    expect(() => pairedDifference([{ pairs: 1, improved: 1, regressed: 1 }])).toThrow(RangeError);
  });
});
