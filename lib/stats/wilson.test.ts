import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { wilson } from './wilson';

describe('wilson', () => {
  it('matches reference values (closed form at z = 1.96; scipy proportion_ci("wilson") agrees to 5 decimals)', () => {
    // Table 1 of the reference study: selection 28/48 → 46/48.
    expect(wilson(28, 48)).toMatchObject({ estimate: 28 / 48 });
    expect(wilson(28, 48)!.low).toBeCloseTo(0.442811, 5);
    expect(wilson(28, 48)!.high).toBeCloseTo(0.711505, 5);
    expect(wilson(46, 48)!.low).toBeCloseTo(0.860241, 5);
    expect(wilson(46, 48)!.high).toBeCloseTo(0.988498, 5);
    expect(wilson(12, 28)!.low).toBeCloseTo(0.265083, 5);
    expect(wilson(12, 28)!.high).toBeCloseTo(0.609295, 5);
  });

  it('agrees with the quadratic-root form of the score interval', () => {
    // Independent formula: the bounds are the roots in p̃ of (p − p̃)² = z² p̃(1 − p̃) / n.
    const roots = (k: number, n: number, z: number) => {
      const p = k / n;
      const a = 1 + (z * z) / n;
      const b = -(2 * p + (z * z) / n);
      const c = p * p;
      const d = Math.sqrt(b * b - 4 * a * c);
      return [(-b - d) / (2 * a), (-b + d) / (2 * a)];
    };
    for (const [k, n] of [
      [3, 7],
      [8, 12],
      [1, 300],
      [150, 151],
    ]) {
      const [lo, hi] = roots(k, n, 1.96);
      expect(wilson(k, n)!.low).toBeCloseTo(lo, 10);
      expect(wilson(k, n)!.high).toBeCloseTo(hi, 10);
    }
  });

  it('is exact at the edges and null without trials', () => {
    expect(wilson(0, 10)).toMatchObject({ low: 0, estimate: 0 });
    expect(wilson(0, 10)!.high).toBeCloseTo(0.27754, 5);
    expect(wilson(28, 28)).toMatchObject({ high: 1, estimate: 1 });
    expect(wilson(28, 28)!.low).toBeCloseTo(0.879353, 5);
    expect(wilson(0, 0)).toBeNull();
  });

  it('rejects impossible counts', () => {
    expect(() => wilson(5, 4)).toThrow(RangeError);
    expect(() => wilson(-1, 4)).toThrow(RangeError);
    expect(() => wilson(1.5, 4)).toThrow(RangeError);
    expect(() => wilson(1, 4, 0)).toThrow(RangeError);
  });

  const kn = fc.integer({ min: 1, max: 5000 }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));

  it('property: contains the estimate and stays within [0, 1]', () => {
    fc.assert(
      fc.property(kn, fc.double({ min: 0.1, max: 4, noNaN: true }), ([k, n], z) => {
        const w = wilson(k, n, z)!;
        expect(w.low).toBeGreaterThanOrEqual(0);
        expect(w.high).toBeLessThanOrEqual(1);
        expect(w.low).toBeLessThanOrEqual(w.estimate + 1e-12);
        expect(w.high).toBeGreaterThanOrEqual(w.estimate - 1e-12);
      }),
    );
  });

  it('property: bounds rise with k and the interval widens with z', () => {
    fc.assert(
      fc.property(kn, ([k, n]) => {
        if (k === n) return;
        const a = wilson(k, n)!;
        const b = wilson(k + 1, n)!;
        expect(b.low).toBeGreaterThanOrEqual(a.low);
        expect(b.high).toBeGreaterThanOrEqual(a.high);
        const wide = wilson(k, n, 2.576)!;
        expect(wide.low).toBeLessThanOrEqual(a.low + 1e-12);
        expect(wide.high).toBeGreaterThanOrEqual(a.high - 1e-12);
      }),
    );
  });
});
