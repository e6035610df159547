import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { trialsForBound, zeroFailureUpperBound } from './bounds';

describe('zeroFailureUpperBound', () => {
  it('gives the zero-failure bound of docs/design.md: 30 clean trials ≈ 9.5%, 300 ≈ 0.99%', () => {
    expect(zeroFailureUpperBound(30)).toBeCloseTo(0.0950339, 6);
    expect(zeroFailureUpperBound(300)).toBeCloseTo(0.00993608, 7);
    expect(zeroFailureUpperBound(1)).toBeCloseTo(0.95, 12);
    expect(zeroFailureUpperBound(0)).toBe(1);
    expect(zeroFailureUpperBound(10, 0.01)).toBeCloseTo(1 - 0.01 ** 0.1, 12);
  });

  it('rejects bad input', () => {
    expect(() => zeroFailureUpperBound(-1)).toThrow(RangeError);
    expect(() => zeroFailureUpperBound(10, 1)).toThrow(RangeError);
  });

  it('property: decreasing in n, within (0, 1), about the rule of three for large n', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (n) => {
        const b = zeroFailureUpperBound(n);
        expect(b).toBeGreaterThan(0);
        expect(b).toBeLessThan(1);
        expect(zeroFailureUpperBound(n + 1)).toBeLessThan(b);
        if (n >= 1000) expect(b * n).toBeCloseTo(-Math.log(0.05), 2);
      }),
    );
  });
});

describe('trialsForBound', () => {
  it('plans 299 clean trials for a 1% bound', () => {
    expect(trialsForBound(0.01)).toBe(299);
    expect(zeroFailureUpperBound(299)).toBeLessThanOrEqual(0.01);
    expect(zeroFailureUpperBound(298)).toBeGreaterThan(0.01);
    expect(trialsForBound(0.1)).toBe(29);
    expect(trialsForBound(0.96)).toBe(1);
  });

  it('rejects targets outside (0, 1)', () => {
    expect(() => trialsForBound(0)).toThrow(RangeError);
    expect(() => trialsForBound(1)).toThrow(RangeError);
  });

  it('property: the smallest n whose bound meets the target', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-4, max: 0.99, noNaN: true }), fc.double({ min: 0.001, max: 0.5, noNaN: true }), (t, alpha) => {
        const n = trialsForBound(t, alpha);
        expect(zeroFailureUpperBound(n, alpha)).toBeLessThanOrEqual(t);
        if (n > 1) expect(zeroFailureUpperBound(n - 1, alpha)).toBeGreaterThan(t);
      }),
    );
  });
});
