import { describe, expect, it } from 'vitest';
import { anovaIcc, connorPairs, designEffect, minimumDetectableDifference, pairsNeeded, pilotPairs, zQuantile } from './power';

// Hand computations (Connor 1987; docs/statistics.md), z from printed normal tables:
//   z₀.₉₇₅ = 1.959964, z₀.₈ = 0.841621, z₀.₉ = 1.281552
//
// A. ψ = 0.3, δ = 0.1, α = 0.05, power 0.8:
//    √ψ = 0.547723, √(ψ − δ²) = √0.29 = 0.538516
//    1.959964·0.547723 = 1.073517;  0.841621·0.538516 = 0.453227;  sum 1.526744
//    n = 1.526744² / 0.01 = 2.330947 / 0.01 = 233.09 → 234 pairs
//    design effect, m = 4 pairs per case, ICC 0.2: 1 + 3·0.2 = 1.6 → 233.09·1.6 = 372.95 → 373 pairs
// B. ψ = 0.2, δ = 0.1, α = 0.05, power 0.9:
//    √0.2 = 0.447214, √0.19 = 0.435890
//    1.959964·0.447214 = 0.876523;  1.281552·0.435890 = 0.558612;  sum 1.435135
//    n = 1.435135² / 0.01 = 2.059612 / 0.01 = 205.96 → 206 pairs
//
// ICC (one-way ANOVA) of the per-pair differences of three cases, four pairs each:
//    case 1: improved ×3, same ×1 → [1, 1, 1, 0]   mean 0.75
//    case 2: same ×4              → [0, 0, 0, 0]   mean 0
//    case 3: improved, regressed, same ×2 → [1, −1, 0, 0]  mean 0
//    N = 12, G = 3, grand mean 3/12 = 0.25
//    SSB = 4·0.5² + 4·0.25² + 4·0.25² = 1.5, MSB = 1.5/2 = 0.75
//    SSW = (3·0.25² + 0.75²) + 0 + (1 + 1) = 0.75 + 2 = 2.75, MSW = 2.75/9 = 0.305556
//    m₀ = (12 − 48/12)/2 = 4
//    ICC = (0.75 − 0.305556) / (0.75 + 3·0.305556) = 0.444444 / 1.666667 = 4/15 = 0.266667
//    ψ = 5/12 = 0.416667, δ = 3/12 = 0.25; design effect 1 + 3·4/15 = 1.8
//    Connor at ψ 5/12, δ 0.25 (power 0.8): √ψ = 0.645497, √(ψ − δ²) = √0.354167 = 0.595119
//    1.959964·0.645497 = 1.265151; 0.841621·0.595119 = 0.500865; sum 1.766016; ² = 3.118813; /0.0625 = 49.90 → 50
//    with the design effect: 49.90·1.8 = 89.82 → 90

describe('normal quantile', () => {
  it('matches the printed table', () => {
    expect(zQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(zQuantile(0.8)).toBeCloseTo(0.841621, 6);
    expect(zQuantile(0.9)).toBeCloseTo(1.281552, 6);
  });
});

describe("Connor's pairs for a paired binary comparison", () => {
  it('A: ψ 0.3, δ 0.1, α 0.05, power 0.8 → 234 pairs, 373 with design effect 1.6', () => {
    expect(connorPairs({ psi: 0.3, delta: 0.1 })).toBeCloseTo(233.09, 2);
    expect(pairsNeeded({ psi: 0.3, delta: 0.1 }, 4, 0.2)).toEqual({ pairsNeeded: 234, designEffect: 1.6, pairsNeededWithDesignEffect: 373 });
  });
  it('B: ψ 0.2, δ 0.1, power 0.9 → 206 pairs', () => {
    expect(connorPairs({ psi: 0.2, delta: 0.1, power: 0.9 })).toBeCloseTo(205.96, 2);
    expect(pairsNeeded({ psi: 0.2, delta: 0.1, power: 0.9 }).pairsNeeded).toBe(206);
  });
  it('refuses inputs with no answer, naming the field', () => {
    expect(() => connorPairs({ psi: 0, delta: 0.1 })).toThrow(/discordant share ψ is 0/);
    expect(() => connorPairs({ psi: 0.05, delta: 0.1 })).toThrow(/delta 0.1 cannot exceed/);
    expect(() => connorPairs({ psi: 0.3, delta: 0.1, power: 1 })).toThrow(/power must be in/);
    expect(() => connorPairs({ psi: 0.3, delta: 0 })).toThrow(/delta must be above 0/);
  });
});

describe('design effect and ICC', () => {
  it('1 + (m − 1)·ICC, never below 1', () => {
    expect(designEffect(4, 0.2)).toBeCloseTo(1.6, 12);
    expect(designEffect(4, -0.1)).toBe(1);
    expect(designEffect(1, 0.9)).toBe(1);
    expect(designEffect(6, null)).toBe(1);
  });
  it('the ANOVA ICC of the worked example is 4/15', () => {
    expect(
      anovaIcc([
        [1, 1, 1, 0],
        [0, 0, 0, 0],
        [1, -1, 0, 0],
      ]),
    ).toBeCloseTo(4 / 15, 12);
    expect(anovaIcc([[1, 0]])).toBeNull();
    expect(anovaIcc([[1], [0]])).toBeNull();
  });
  it('a pilot: ψ 5/12, δ 0.25, m 4, ICC 4/15 → 50 pairs, 90 with the design effect', () => {
    const p = pilotPairs([
      { improved: 3, regressed: 0, same: 1 },
      { improved: 0, regressed: 0, same: 4 },
      { improved: 1, regressed: 1, same: 2 },
    ]);
    expect(p).toMatchObject({ pairs: 12, improved: 4, regressed: 1, clusters: 3, pairsPerCluster: 4 });
    expect(p.psi).toBeCloseTo(5 / 12, 12);
    expect(p.delta).toBeCloseTo(0.25, 12);
    expect(p.icc).toBeCloseTo(4 / 15, 12);
    expect(connorPairs({ psi: p.psi!, delta: p.delta! })).toBeCloseTo(49.9, 1);
    expect(pairsNeeded({ psi: p.psi!, delta: p.delta! }, p.pairsPerCluster, p.icc)).toEqual({ pairsNeeded: 50, designEffect: 1.8, pairsNeededWithDesignEffect: 90 });
  });
});

describe('minimum detectable difference (the inverse)', () => {
  it('233.09 pairs at ψ 0.3 detect δ = 0.1; 373 pairs with design effect 1.6 detect just under 0.1', () => {
    expect(minimumDetectableDifference(connorPairs({ psi: 0.3, delta: 0.1 }), 0.3)).toBeCloseTo(0.1, 8);
    const withDe = minimumDetectableDifference(373, 0.3, { pairsPerCluster: 4, icc: 0.2 })!;
    expect(withDe).toBeLessThan(0.1);
    expect(withDe).toBeGreaterThan(0.099);
    expect(minimumDetectableDifference(372, 0.3, { pairsPerCluster: 4, icc: 0.2 })!).toBeGreaterThan(0.1);
  });
  it('null when even δ = ψ needs more pairs, or without discordance', () => {
    expect(minimumDetectableDifference(3, 0.3)).toBeNull();
    expect(minimumDetectableDifference(100, 0)).toBeNull();
  });
});
