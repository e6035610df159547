import { describe, expect, it } from 'vitest';
import { cochranQ, holmAdjusted } from './multiplicity';
import { holmRejected } from './sequential';

describe('holmAdjusted', () => {
  it('gives the textbook adjusted values', () => {
    // p = .01, .04, .03, .005 → sorted .005 (×4 = .02), .01 (×3 = .03), .03 (×2 = .06), .04 (×1 → max .06)
    const adj = holmAdjusted([0.01, 0.04, 0.03, 0.005]);
    expect(adj.map((x) => +x.toFixed(6))).toEqual([0.03, 0.06, 0.06, 0.02]);
  });
  it('rejects exactly what the step-down rejects', () => {
    const ps = [0.001, 0.2, 0.012, 0.04, 0.013, 0.5];
    expect(holmAdjusted(ps).map((p) => p <= 0.05)).toEqual(holmRejected(ps, 0.05));
  });
  it('never goes past 1 and refuses a p outside [0, 1]', () => {
    expect(holmAdjusted([0.9, 0.8])).toEqual([1, 1]); // 2·0.8 capped at 1
    expect(holmAdjusted([0.9, 0.3])).toEqual([0.9, 0.6]);
    expect(() => holmAdjusted([1.2])).toThrow(/\[0, 1\]/);
  });
});

describe('cochranQ', () => {
  it('is 0 with I² = 0 for equal estimates', () => {
    const h = cochranQ([
      { estimate: 0.2, se: 0.05 },
      { estimate: 0.2, se: 0.1 },
    ])!;
    expect(h.q).toBe(0);
    expect(h.i2).toBe(0);
    expect(h.p).toBeCloseTo(1, 12);
  });
  it('computes Q, its χ² p-value and I² by hand', () => {
    // w = 100, 100; pooled 0.15; Q = 100·0.15² + 100·0.15² = 4.5; df 1; p = P(χ²₁ ≥ 4.5) = 0.033895
    const h = cochranQ([
      { estimate: 0.3, se: 0.1 },
      { estimate: 0, se: 0.1 },
    ])!;
    expect(h.q).toBeCloseTo(4.5, 12);
    expect(h.df).toBe(1);
    expect(h.p).toBeCloseTo(0.033895, 5);
    expect(h.i2).toBeCloseTo((4.5 - 1) / 4.5, 12);
    expect(h.pooled).toBeCloseTo(0.15, 12);
  });
  it('leaves out estimates without a standard error and needs two', () => {
    expect(
      cochranQ([
        { estimate: 0.1, se: 0.1 },
        { estimate: 0.4, se: 0 },
      ]),
    ).toBeNull();
    expect(
      cochranQ([
        { estimate: 0.1, se: 0.1 },
        { estimate: 0.4, se: 0.1 },
        { estimate: 0.4, se: Number.NaN },
      ])!.k,
    ).toBe(2);
  });
});
