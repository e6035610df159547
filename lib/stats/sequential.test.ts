import { describe, expect, it } from 'vitest';
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { mcnemarExact } from './mcnemar';
import {
  betaMixtureEValue,
  confidenceSequence,
  holmRejected,
  mixtureRhoFor,
  normalMixtureRadius,
  stopCheck,
  streamState,
  type SequentialStream,
  type StopRule,
  type StreamDecision,
} from './sequential';

describe('betaMixtureEValue (hand-computed)', () => {
  it('uniform mixture: E = b!·c!/(b+c+1)! · 2^(b+c)', () => {
    expect(betaMixtureEValue(0, 0)).toBe(1);
    // 8 improved, none regressed: 8!/9! · 256 = 256/9
    expect(betaMixtureEValue(8, 0)).toBeCloseTo(256 / 9, 10);
    // 7 improved: 128/8 = 16 < 20 — one short of 1/α at α = 0.05
    expect(betaMixtureEValue(7, 0)).toBeCloseTo(16, 10);
    // 3 improved, 1 regressed: 3!·1!/5! · 16 = 0.8
    expect(betaMixtureEValue(3, 1)).toBeCloseTo(0.8, 12);
    // 5 and 5: 5!·5!/11! · 1024 = 14400/39916800 · 1024
    expect(betaMixtureEValue(5, 5)).toBeCloseTo((14400 / 39916800) * 1024, 12);
    // symmetric in improved and regressed (a two-sided test)
    expect(betaMixtureEValue(2, 9)).toBeCloseTo(betaMixtureEValue(9, 2), 12);
  });

  it('Jeffreys mixture a = ½: E(2, 0) = B(2.5, 0.5)/B(0.5, 0.5) · 4 = 0.375π/π · 4 = 1.5', () => {
    expect(betaMixtureEValue(2, 0, 0.5)).toBeCloseTo(1.5, 12);
  });

  it('is a martingale under H₀: the expected next value equals the current one', () => {
    for (const [b, c] of [
      [0, 0],
      [3, 1],
      [10, 4],
    ])
      expect(0.5 * betaMixtureEValue(b + 1, c) + 0.5 * betaMixtureEValue(b, c + 1)).toBeCloseTo(betaMixtureEValue(b, c), 10);
  });

  it('refuses counts that are not non-negative integers, naming the field', () => {
    expect(() => betaMixtureEValue(-1, 0)).toThrow(/improved/);
    expect(() => betaMixtureEValue(0, 1.5)).toThrow(/regressed/);
  });
});

describe('confidence sequence (hand-computed)', () => {
  it('normal-mixture radius √((t + ρ)·ln((t + ρ)/(ρα²)))', () => {
    // t = 100, ρ = 10, α = 0.05: √(110 · ln(4400)) = √(110 · 8.389359819) = 30.37811
    expect(normalMixtureRadius(100, 10, 0.05)).toBeCloseTo(30.37811021, 6);
    const cs = confidenceSequence(20, 100, 10, 0.05);
    expect(cs.lo).toBeCloseTo(-0.1037811, 6);
    expect(cs.hi).toBeCloseTo(0.5037811, 6);
  });

  it('is clipped to [−1, 1] and is [−1, 1] before any pair', () => {
    expect(confidenceSequence(0, 0, 10, 0.05)).toEqual({ lo: -1, hi: 1 });
    expect(confidenceSequence(3, 3, 10, 0.05).hi).toBe(1);
  });

  it('ρ minimises the width at t₀ (fixed before the run)', () => {
    const rho = mixtureRhoFor(100, 0.05);
    const at = (r: number) => normalMixtureRadius(100, r, 0.05);
    expect(at(rho)).toBeLessThan(at(rho * 1.1));
    expect(at(rho)).toBeLessThan(at(rho / 1.1));
  });
});

describe('holmRejected', () => {
  it('steps down: α/3, α/2, α', () => {
    // 0.01 ≤ 0.05/3, 0.02 ≤ 0.05/2, 0.06 > 0.05
    expect(holmRejected([0.02, 0.06, 0.01], 0.05)).toEqual([true, false, true]);
    // the smallest fails α/3: nothing is rejected
    expect(holmRejected([0.02, 0.02, 0.02], 0.05)).toEqual([false, false, false]);
  });
});

describe('stopCheck', () => {
  const rule: StopRule = { alpha: 0.05, precision: null, rho: 10 };
  it('decides a stream once max E crosses its Holm threshold, and freezes the decision', () => {
    const one = (n: number): SequentialStream => ({ key: 's/t', outcomes: Array<1>(n).fill(1) });
    expect(stopCheck({}, [one(7)], rule)).toEqual({});
    const d = stopCheck({}, [one(8)], rule)['s/t'];
    expect(d).toMatchObject({ reason: 'e-value', afterPairs: 8, improved: 8, regressed: 0, threshold: 20 });
    expect(d.maxEValue).toBeCloseTo(256 / 9, 10);
    // later looks keep the first decision
    expect(stopCheck({ 's/t': d }, [one(12)], rule)['s/t']).toBe(d);
  });

  it('Holm across two streams: the first needs 2/α = 40, then the second 1/α = 20', () => {
    const streams = (a: number, b: number): SequentialStream[] => [
      { key: 'a', outcomes: Array<1>(a).fill(1) },
      { key: 'b', outcomes: Array<1>(b).fill(1) },
    ];
    // E(8, 0) = 28.4 < 40: neither is decided
    expect(stopCheck({}, streams(8, 0), rule)).toEqual({});
    // E(9, 0) = 51.2 ≥ 40 and E(8, 0) = 28.4 ≥ 20: both
    const both = stopCheck({}, streams(9, 8), rule);
    expect(both.a).toMatchObject({ reason: 'e-value', threshold: 40 });
    expect(both.b).toMatchObject({ reason: 'e-value', threshold: 20 });
  });

  it('the running maximum counts: a path that crossed and fell back stays rejected', () => {
    const s: SequentialStream = { key: 'x', outcomes: [1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1] };
    const st = streamState(s, rule);
    expect(st.eValue).toBeLessThan(20);
    expect(st.maxEValue).toBeCloseTo(256 / 9, 10);
    expect(stopCheck({}, [s], rule).x?.reason).toBe('e-value');
  });

  it('stops for precision once the sequence is narrower than asked, and skips pairs without a formal result', () => {
    const outcomes = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 0 : i % 4 === 1 ? 1 : -1) as 0 | 1 | -1);
    const s: SequentialStream = { key: 'p', outcomes: [null, ...outcomes] };
    const st = streamState(s, rule);
    expect(st.used).toBe(400);
    expect(st.pairs).toBe(401);
    const width = st.interval.hi - st.interval.lo;
    expect(stopCheck({}, [s], { ...rule, precision: width + 1e-9 }).p).toMatchObject({ reason: 'precision', threshold: null });
    expect(stopCheck({}, [s], { ...rule, precision: width - 1e-9 })).toEqual({});
  });
});

/** A null run: every pair discordant with probability ψ, then improved or regressed with probability ½ each. */
function nullOutcome(rng: RandomGenerator, psiPercent: number): -1 | 0 | 1 {
  if (unsafeUniformIntDistribution(1, 100, rng) > psiPercent) return 0;
  return unsafeUniformIntDistribution(0, 1, rng) === 1 ? 1 : -1;
}

/** The sequential procedure looked at after every pair of every stream; does it ever stop on its e-value? */
function falseStop(seed: number, streams: number, pairs: number, alpha: number): { sequential: boolean; peeking: boolean } {
  const rng = xoroshiro128plus(seed);
  const out: (-1 | 0 | 1)[][] = Array.from({ length: streams }, () => []);
  const rule: StopRule = { alpha, precision: null, rho: mixtureRhoFor(pairs, alpha) };
  let decided: Record<string, StreamDecision> = {};
  let peeking = false;
  const counts = out.map(() => ({ b: 0, c: 0 }));
  for (let t = 0; t < pairs; t++) {
    for (const [i, o] of out.entries()) {
      const x = nullOutcome(rng, 40);
      o.push(x);
      if (x === 1) counts[i].b++;
      if (x === -1) counts[i].c++;
    }
    decided = stopCheck(
      decided,
      out.map((o, i) => ({ key: String(i), outcomes: o })),
      rule,
    );
    // the naive alternative: a fixed-n McNemar p (Bonferroni) looked at after every pair
    if (!peeking && counts.some(({ b, c }) => mcnemarExact(b, c) < alpha / streams)) peeking = true;
    if (Object.values(decided).some((d) => d.reason === 'e-value') && peeking) break;
  }
  return { sequential: Object.values(decided).some((d) => d.reason === 'e-value'), peeking };
}

describe('false stops under the null (seeded, in-process)', () => {
  it('over 250 null runs of two studies × 120 pairs, looked at after every pair, the false-stop rate is ≤ α', () => {
    const alpha = 0.05;
    const runs = Array.from({ length: 250 }, (_, seed) => falseStop(seed + 1, 2, 120, alpha));
    const sequential = runs.filter((r) => r.sequential).length / runs.length;
    const peeking = runs.filter((r) => r.peeking).length / runs.length;
    expect(sequential).toBeLessThanOrEqual(alpha);
    // the same looks at a fixed-n p-value stop falsely far more often: the test can tell the two apart
    expect(peeking).toBeGreaterThan(alpha);
  });
});

describe('streamState', () => {
  it('its running E (updated pair by pair) equals the closed form', () => {
    const outcomes: (-1 | 0 | 1)[] = [1, 0, -1, 1, 1, 0, 1, -1, 1, 1, 1];
    const st = streamState({ key: 'k', outcomes }, { alpha: 0.05, rho: 10 });
    expect(st.improved).toBe(7);
    expect(st.regressed).toBe(2);
    expect(st.eValue).toBeCloseTo(betaMixtureEValue(7, 2), 10);
  });
});

describe('a decision is a function of the stored order, not of when the looks happened', () => {
  const rule: StopRule = { alpha: 0.05, precision: null, rho: mixtureRhoFor(60, 0.05) };
  /** The streams as far as their first n pairs. */
  const cut = (streams: SequentialStream[], n: number) => streams.map((s) => ({ key: s.key, outcomes: s.outcomes.slice(0, n) }));
  /** Looks taken at the given pair counts (and always at the end), each seeing the pairs recorded so far. */
  const lookAt = (streams: SequentialStream[], at: number[]) => {
    let d: Record<string, StreamDecision> = {};
    for (const n of [...at, Math.max(...streams.map((s) => s.outcomes.length))]) d = stopCheck(d, cut(streams, n), rule);
    return d;
  };

  it('a crossing at pair 10 is decided at pair 10 whether the look comes after pair 10, 12, 14 or only at the end', () => {
    // improved pairs only: E(9, 0) = 51.2 < 3/α = 60 ≤ E(10, 0) = 93.1 — the first Holm threshold of three streams is crossed at pair 10
    const s: SequentialStream[] = [
      { key: 'a', outcomes: [...Array<1>(13).fill(1), 0, 0, 1] },
      { key: 'b', outcomes: Array<0>(16).fill(0) },
      { key: 'c', outcomes: Array<0>(16).fill(0) },
    ];
    const everyPair = lookAt(
      s,
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    expect(everyPair.a).toMatchObject({ reason: 'e-value', afterPairs: 10, improved: 10, threshold: 60 });
    expect(everyPair.a.eValue).toBeCloseTo(1024 / 11, 10);
    for (const at of [[12], [14], [9, 15], [], [10]]) expect(lookAt(s, at).a, `looks at ${at.join(', ') || 'the end'}`).toEqual(everyPair.a);
    // and it is the first pair at which a look after every pair would stop
    expect(stopCheck({}, cut(s, everyPair.a.afterPairs - 1), rule).a).toBeUndefined();
  });

  it('over 300 seeded runs of three streams with an effect, any look schedule gives the decisions of looking after every pair', () => {
    let decidedRuns = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rng = xoroshiro128plus(seed);
      const streams: SequentialStream[] = ['x', 'y', 'z'].map((key, k) => ({
        key,
        outcomes: Array.from({ length: 60 }, () => {
          const u = unsafeUniformIntDistribution(1, 100, rng);
          return u <= 30 + 10 * k ? 1 : u <= 45 + 10 * k ? 0 : u <= 55 + 10 * k ? -1 : null;
        }),
      }));
      const everyPair = lookAt(
        streams,
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      const sparse = Array.from({ length: 60 }, (_, i) => i + 1).filter(() => unsafeUniformIntDistribution(1, 7, rng) === 1);
      expect(lookAt(streams, sparse), `seed ${seed}, looks at ${sparse.join(',')}`).toEqual(everyPair);
      expect(lookAt(streams, []), `seed ${seed}, one look at the end`).toEqual(everyPair);
      if (Object.keys(everyPair).length) decidedRuns++;
    }
    // the property is not vacuous: most runs decide something
    expect(decidedRuns).toBeGreaterThan(150);
  });
});
