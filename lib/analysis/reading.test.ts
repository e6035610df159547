import fc from 'fast-check';
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { pairsNeeded } from './power';
import { pairedNumbers, readComparison, readVerdict, VERDICT_LABELS, type PairedNumbers, type Reading } from './reading';

const cl = (improved: number, regressed: number, same: number) => ({ improved, regressed, same });

describe('readComparison: edge cases', () => {
  it('no discordant pair: not shown, no pair changed, nothing to plan from', () => {
    const r = readComparison(pairedNumbers([cl(0, 0, 10), cl(0, 0, 10), cl(0, 0, 10)]));
    expect(r.verdict).toBe('not-shown');
    expect(r.why).toBe('no pair changed');
    expect(r.power.psi).toBe(0);
    expect(r.power.pairsNeeded).toBeNull();
    expect(r.power.reason).toMatch(/discordant share is 0/);
    expect(r.text).toMatch(/^not shown — no pair changed; \+0\.0 pts \(no interval\), McNemar p = 1\.000, 30 pairs in 3 cases/);
  });

  it('8 improved, 0 regressed, one pair in each of 8 cases: improved (p = 0.0078 both by pairs and by cases)', () => {
    const n = pairedNumbers(Array.from({ length: 8 }, () => cl(1, 0, 0)));
    expect(n.ci95).toBeNull();
    expect(n.p).toBeCloseTo(2 / 256, 12);
    const r = readComparison(n);
    expect(r.verdict).toBe('improved');
    expect(r.clusterSignP).toBeCloseTo(2 / 256, 12);
    expect(r.why).toMatch(/every one of the 8 cases moved the same way/);
    // δ = ψ = 1: Connor n = (1.959964 + 0)² / 1 = 3.84 → 4 pairs; these 8 are enough
    expect(r.power.pairsNeeded).toBe(4);
    expect(r.power.morePairs).toBe(0);
  });

  it('all improved in two cases only: too few to tell (sign test over 2 cases p = 0.5)', () => {
    const r = readComparison(pairedNumbers([cl(4, 0, 0), cl(4, 0, 0)]));
    expect(r.verdict).toBe('too-few');
    expect(r.clusterSignP).toBe(0.5);
    expect(r.why).toMatch(/too few cases to show it/);
  });

  it('all improved with an interval (cases differ in how many pairs they had): improved', () => {
    const r = readComparison(pairedNumbers([cl(3, 0, 0), cl(2, 0, 1), cl(3, 0, 0), cl(1, 0, 2), cl(3, 0, 0), cl(2, 0, 1)]));
    expect(r.verdict).toBe('improved');
    expect(r.why).toBe('the interval is above zero');
  });

  it('one cluster: too few pairs to tell, with the pairs a design like it would need', () => {
    const r = readComparison(pairedNumbers([cl(5, 0, 5)]));
    expect(r.verdict).toBe('too-few');
    expect(r.label).toBe('too few pairs to tell');
    expect(r.why).toBe('1 case: a clustered interval needs two or more');
    // ψ = δ = 0.5: n = (1.959964·√0.5 + 0.841621·√0.25)² / 0.25 = (1.385904 + 0.420811)² / 0.25 = 13.06 → 14;
    // one case: no ICC, design effect 1
    expect(r.power.pairsNeeded).toBe(14);
    expect(r.power.designEffect).toBe(1);
  });

  it('no pairs: too few pairs to tell, nothing to plan from', () => {
    const r = readComparison(pairedNumbers([]));
    expect(r.verdict).toBe('too-few');
    expect(r.why).toBe('no complete pairs');
    expect(r.power.pairsNeeded).toBeNull();
  });

  it('p < 0.0001 with a wide interval: not shown, and says why the two disagree', () => {
    // sums 20, 0, 0 over 20 pairs each: mean 1/3, CR1 SE = √(1.5 · 266.67)/60 = 1/3, t₂ = 4.303 → [−1.1, +1.8] clipped
    const n = pairedNumbers([cl(20, 0, 0), cl(0, 0, 20), cl(0, 0, 20)]);
    expect(n.p!).toBeLessThan(0.0001);
    expect(n.ci95![0]).toBeLessThan(0);
    const r = readComparison(n);
    expect(r.verdict).toBe('not-shown');
    expect(r.why).toMatch(/^the interval includes zero \(McNemar's p counts the 60 pairs as independent/);
  });

  it('as many improved as regressed in every case: not shown', () => {
    const r = readComparison(pairedNumbers([cl(1, 1, 2), cl(2, 2, 0)]));
    expect(r.verdict).toBe('not-shown');
    expect(r.why).toBe('as many pairs improved as regressed');
    expect(r.power.reason).toBe('no difference observed: choose a difference to plan for');
    expect(readComparison(pairedNumbers([cl(1, 1, 2), cl(2, 2, 0)]), { delta: 0.1 }).power.pairsNeeded).toBeGreaterThan(0);
  });

  it('worse: the mirror of improved', () => {
    const r = readComparison(pairedNumbers([cl(0, 3, 0), cl(0, 2, 1), cl(0, 3, 0), cl(0, 1, 2), cl(0, 3, 0), cl(0, 2, 1)]));
    expect(r.verdict).toBe('worse');
    expect(r.why).toBe('the interval is below zero');
  });

  it('an interval that excludes zero with McNemar p not below α: not shown, saying so', () => {
    const r = readComparison({ pairs: 40, improved: 6, regressed: 2, clusters: 10, estimate: 0.1, ci95: [0.01, 0.19], p: 0.29 });
    expect(r.verdict).toBe('not-shown');
    expect(r.why).toBe("McNemar's p = 0.290 is not below 0.05");
  });

  it("the pairs needed are the planner's: Connor times the design effect (power.test.ts example, 90 pairs)", () => {
    // three cases: [1,1,1,0], [0,0,0,0], [1,−1,0,0] → ψ = 5/12, δ = 0.25, ICC 4/15, m 4 → design effect 1.8, 90 pairs
    const n = pairedNumbers([cl(3, 0, 1), cl(0, 0, 4), cl(1, 1, 2)]);
    expect(n.icc).toBeCloseTo(4 / 15, 12);
    const r = readComparison(n);
    expect(r.power.designEffect).toBeCloseTo(1.8, 12);
    expect(r.power.pairsNeeded).toBe(90);
    expect(r.power.pairsNeeded).toBe(pairsNeeded({ psi: 5 / 12, delta: 0.25 }, 4, 4 / 15).pairsNeededWithDesignEffect);
    expect(r.power.morePairs).toBe(78);
    expect(r.pairsText).toBe('about 90 pairs (78 more than these 12) would detect a difference of 25.0 pts at 80% power (this run as the pilot, design effect 1.80)');
  });

  it('a chosen difference larger than the discordant share has no answer, and says why', () => {
    const r = readComparison(pairedNumbers([cl(1, 0, 9), cl(0, 0, 10)]), { delta: 0.2 });
    expect(r.power.deltaSource).toBe('chosen');
    expect(r.power.pairsNeeded).toBeNull();
    expect(r.power.reason).toMatch(/more than this run's discordant share \(5\.0% of pairs changed\)/);
  });

  it('refuses inconsistent numbers, naming the field', () => {
    const ok: PairedNumbers = { pairs: 10, improved: 2, regressed: 1, clusters: 3, estimate: 0.1, ci95: [-0.1, 0.3], p: 1 };
    expect(() => readComparison({ ...ok, improved: 9, regressed: 2 })).toThrow(/improved \+ regressed/);
    expect(() => readComparison({ ...ok, pairs: -1 })).toThrow(/pairs must be/);
    expect(() => readComparison({ ...ok, clusters: 11 })).toThrow(/clusters/);
    expect(() => readComparison({ ...ok, p: 2 })).toThrow(/p must be/);
    expect(() => readComparison({ ...ok, ci95: [0.3, -0.1] })).toThrow(/ci95/);
    expect(() => readComparison(ok, { delta: 0 })).toThrow(/delta/);
    expect(() => readComparison(ok, { alpha: 1 })).toThrow(/alpha/);
  });

  it('every label is from the one vocabulary', () => {
    expect(Object.values(VERDICT_LABELS)).toEqual(['improved', 'worse', 'not shown', 'too few pairs to tell']);
  });
});

/** The reading agrees with the sign and the significance of what it read. */
function agrees(n: PairedNumbers, r: Reading, alpha = 0.05): void {
  const pSig = n.p === null || n.p < alpha;
  const ciAbove = n.ci95 !== null && n.ci95[0] > 0;
  const ciBelow = n.ci95 !== null && n.ci95[1] < 0;
  expect(VERDICT_LABELS[r.verdict]).toBe(r.label);
  if (r.verdict === 'improved') {
    expect(n.estimate!).toBeGreaterThan(0);
    expect(n.improved).toBeGreaterThan(n.regressed);
    expect(pSig).toBe(true);
    if (n.ci95) expect(ciAbove).toBe(true);
    else expect(r.clusterSignP!).toBeLessThan(alpha);
  }
  if (r.verdict === 'worse') {
    expect(n.estimate!).toBeLessThan(0);
    expect(n.regressed).toBeGreaterThan(n.improved);
    expect(pSig).toBe(true);
    if (n.ci95) expect(ciBelow).toBe(true);
    else expect(r.clusterSignP!).toBeLessThan(alpha);
  }
  if (r.verdict === 'not-shown' || r.verdict === 'too-few') {
    // never silent about a result that is significant by every number it read
    expect(((ciAbove && n.estimate! > 0) || (ciBelow && n.estimate! < 0)) && n.clusters >= 2 && pSig).toBe(false);
  }
  if (r.why.startsWith('the interval includes zero')) expect(n.ci95![0] <= 0 && n.ci95![1] >= 0).toBe(true);
  if (r.verdict === 'too-few') expect(n.ci95 === null || n.clusters < 2).toBe(true);
  // the difference is printed with its own sign
  if (n.estimate !== null && n.estimate !== 0) expect(r.numbers.startsWith(n.estimate > 0 ? '+' : '-')).toBe(true);
}

describe('readComparison: no reading contradicts its numbers (property)', () => {
  it('over numbers computed from random clusters', () => {
    const cluster = fc.record({ improved: fc.nat(6), regressed: fc.nat(6), same: fc.nat(6) });
    fc.assert(
      fc.property(fc.array(cluster, { maxLength: 12 }), fc.option(fc.double({ min: 0.01, max: 1, noNaN: true }), { nil: undefined }), (clusters, delta) => {
        const n = pairedNumbers(clusters);
        agrees(n, readComparison(n, { delta }));
      }),
      { seed: 37, numRuns: 400 },
    );
  }, 60_000);

  it('over arbitrary numbers (an interval and a p that may disagree)', () => {
    const numbers = fc
      .record({
        pairs: fc.integer({ min: 0, max: 400 }),
        b: fc.nat(400),
        c: fc.nat(400),
        clusters: fc.nat(400),
        lo: fc.double({ min: -1, max: 1, noNaN: true }),
        width: fc.double({ min: 0, max: 1, noNaN: true }),
        p: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
        withCi: fc.boolean(),
      })
      .filter((x) => x.b + x.c <= x.pairs && x.clusters <= x.pairs && (x.pairs === 0 || x.clusters > 0));
    fc.assert(
      fc.property(numbers, (x) => {
        const n: PairedNumbers = {
          pairs: x.pairs,
          improved: x.b,
          regressed: x.c,
          clusters: x.clusters,
          estimate: x.pairs > 0 ? (x.b - x.c) / x.pairs : null,
          ci95: x.withCi && x.pairs > 0 ? [x.lo, Math.min(1, x.lo + x.width)] : null,
          p: x.pairs > 0 ? x.p : null,
        };
        agrees(n, readComparison(n));
      }),
      { seed: 3737, numRuns: 600 },
    );
  }, 60_000);
});

/** A null run: per cluster a discordant share of its own, each discordant pair improved or regressed with probability ½. */
function nullClusters(rng: RandomGenerator, clusters: number, pairsPerCluster: number) {
  return Array.from({ length: clusters }, () => {
    const psi = unsafeUniformIntDistribution(5, 80, rng);
    const c = { improved: 0, regressed: 0, same: 0 };
    for (let i = 0; i < pairsPerCluster; i++) {
      if (unsafeUniformIntDistribution(1, 100, rng) > psi) c.same++;
      else if (unsafeUniformIntDistribution(0, 1, rng) === 1) c.improved++;
      else c.regressed++;
    }
    return c;
  });
}

describe('readComparison under the null (seeded simulation)', () => {
  // Designs from few clusters (where the interval is often missing and the sign test over clusters reads) to
  // many; 2,000 null runs each. "improved" or "worse" must be read at most α of the time (+ 2 simulation SEs).
  for (const [clusters, m] of [
    [3, 8],
    [6, 1],
    [8, 1],
    [12, 4],
    [40, 2],
  ] as const) {
    it(`${clusters} clusters × ${m} pairs: improved or worse at most 5% of null runs`, () => {
      const rng = xoroshiro128plus(37 * clusters + m);
      const runs = 2000;
      let shown = 0;
      for (let r = 0; r < runs; r++) {
        const v = readVerdict(pairedNumbers(nullClusters(rng, clusters, m))).verdict;
        if (v === 'improved' || v === 'worse') shown++;
      }
      expect(shown / runs).toBeLessThanOrEqual(0.05 + 2 * Math.sqrt((0.05 * 0.95) / runs));
    });
  }
});
