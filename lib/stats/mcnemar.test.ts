import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mcnemar, mcnemarExact, mcnemarMidP } from './mcnemar';

/** Independent formula with exact integers: 2 · Σ_{i ≤ min} C(n, i) / 2^n, capped at 1. */
function bigintReference(b: number, c: number): number {
  const n = BigInt(b + c);
  const m = BigInt(Math.min(b, c));
  let choose = 1n;
  let sum = 0n;
  for (let i = 0n; i <= m; i++) {
    sum += choose;
    choose = (choose * (n - i)) / (i + 1n);
  }
  return Math.min(1, (2 * Number((sum * 10n ** 18n) / 2n ** n)) / 1e18);
}

describe('mcnemarExact', () => {
  it('reference study: 20 improved / 2 regressed → p ≈ 1.21e-4', () => {
    // 2 · (C(22,0) + C(22,1) + C(22,2)) / 2^22 = 2 · 254 / 4194304 (also scipy binomtest(2, 22)).
    const independent = (2 * (1 + 22 + 231)) / 2 ** 22;
    expect(independent).toBeCloseTo(1.2111663818359375e-4, 15);
    expect(mcnemarExact(20, 2)).toBeCloseTo(independent, 15);
    expect(mcnemarExact(2, 20)).toBe(mcnemarExact(20, 2));
  });

  it('is 1 without discordant pairs or when they balance; capped at 1', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(5, 5)).toBe(1);
    expect(mcnemarExact(1, 0)).toBe(1);
    expect(mcnemarExact(6, 5)).toBe(1);
    expect(mcnemarExact(9, 1)).toBeCloseTo(0.021484375, 15);
  });

  it('keeps extreme tails in log space (scipy values)', () => {
    expect(mcnemarExact(520, 480)).toBeCloseTo(0.2174482932041415, 12);
    const tiny = mcnemarExact(997, 3);
    expect(tiny / 3.110894301402977e-293).toBeCloseTo(1, 9);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(RangeError);
  });

  it('property: equals the exact-integer formula, is symmetric and in (0, 1]', () => {
    fc.assert(
      fc.property(fc.nat(300), fc.nat(300), (b, c) => {
        const p = mcnemarExact(b, c);
        expect(p).toBeGreaterThan(0);
        expect(p).toBeLessThanOrEqual(1);
        expect(mcnemarExact(c, b)).toBe(p);
        expect(Math.abs(p - bigintReference(b, c))).toBeLessThan(1e-12 + 1e-9 * p);
      }),
    );
  });

  it('property: a more lopsided split of the same pairs gives a smaller p', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 400 }), fc.nat(), (n, seed) => {
        const m = seed % Math.floor(n / 2);
        expect(mcnemarExact(n - m - 1, m + 1)).toBeGreaterThanOrEqual(mcnemarExact(n - m, m));
      }),
    );
  });
});

describe('mcnemarMidP', () => {
  it('by hand: p_exact − P(X = min(b, c))', () => {
    // b = 9, c = 1: n = 10, P(X ≤ 1) = (1 + 10)/1024, p_exact = 22/1024; P(X = 1) = 10/1024 → p_mid = 12/1024
    expect(mcnemarMidP(9, 1)).toBeCloseTo(12 / 1024, 15);
    // reference study 20 / 2: p_exact = 2·(1 + 22 + 231)/2^22 = 508/2^22; P(X = 2) = 231/2^22 → 277/2^22
    expect(mcnemarMidP(20, 2)).toBeCloseTo(277 / 2 ** 22, 15);
    // b = 3, c = 0: p_exact = 2/8; P(X = 0) = 1/8 → 1/8
    expect(mcnemarMidP(3, 0)).toBeCloseTo(1 / 8, 15);
    expect(mcnemarMidP(0, 3)).toBe(mcnemarMidP(3, 0));
  });

  it('edge cases: no discordant pair, b = c, one pair', () => {
    expect(mcnemarMidP(0, 0)).toBe(1);
    // b = c = 3: 2·P(X ≤ 3) − P(X = 3) = 2·42/64 − 20/64 = 64/64
    expect(mcnemarMidP(3, 3)).toBe(1);
    // b = 1, c = 0: 2·(1/2) − 1/2 = 1/2 (the exact test says 1)
    expect(mcnemarMidP(1, 0)).toBeCloseTo(0.5, 15);
    expect(mcnemarExact(1, 0)).toBe(1);
  });

  it('property: below the exact p, above 0, equal to the exact-integer formula', () => {
    fc.assert(
      fc.property(fc.nat(200), fc.nat(200), (b, c) => {
        const mid = mcnemarMidP(b, c);
        expect(mid).toBeGreaterThan(0);
        expect(mid).toBeLessThanOrEqual(mcnemarExact(b, c));
        const n = b + c;
        const m = Math.min(b, c);
        if (n > 0 && 2 * m !== n) {
          // P(X = m) exactly: C(n, m) / 2^n
          let choose = 1n;
          for (let i = 0n; i < BigInt(m); i++) choose = (choose * (BigInt(n) - i)) / (i + 1n);
          const point = Number((choose * 10n ** 30n) / 2n ** BigInt(n)) / 1e30;
          const exact = bigintReference(b, c); // capped at 1: compare only where the cap did not apply
          if (exact < 1) expect(Math.abs(mid - (exact - point))).toBeLessThan(1e-12 + 1e-9 * mid);
        }
      }),
    );
  });

  it('mcnemar() gives both, labelled', () => {
    expect(mcnemar(20, 2)).toEqual({ b: 20, c: 2, pExact: mcnemarExact(20, 2), pMid: mcnemarMidP(20, 2) });
  });
});
