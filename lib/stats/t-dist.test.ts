import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { logGamma, regularizedBeta, studentTCdf, studentTQuantile, t95 } from './t-dist';

describe('studentTQuantile', () => {
  it('matches printed t tables (two-sided 95%: t_0.975)', () => {
    // Values of any t table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2), to the digits printed there.
    const table: [number, number][] = [
      [1, 12.706],
      [2, 4.303],
      [3, 3.182],
      [4, 2.776],
      [5, 2.571],
      [6, 2.447],
      [7, 2.365],
      [8, 2.306],
      [9, 2.262],
      [10, 2.228],
      [15, 2.131],
      [20, 2.086],
      [25, 2.06],
      [30, 2.042],
      [40, 2.021],
      [60, 2.0],
      [100, 1.984],
    ];
    for (const [df, t] of table) expect(t95(df)).toBeCloseTo(t, 3);
  });

  it('matches more digits where they are known', () => {
    // df = 1 is the Cauchy distribution: tan(π (p − ½)); df = 2: t = (2p − 1) / sqrt(2p(1 − p)).
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(Math.tan(Math.PI * 0.475), 10); // 12.7062047…
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(0.95 / Math.sqrt(2 * 0.975 * 0.025), 10); // 4.3026527…
    // the next four: scipy.stats.t.ppf, each checked by Simpson integration of the density (CDF = p to 1e-13)
    expect(studentTQuantile(0.975, 3)).toBeCloseTo(3.1824463052837078, 9);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228138851986274, 9);
    expect(studentTQuantile(0.995, 10)).toBeCloseTo(3.169272672616951, 9);
    expect(studentTQuantile(0.95, 5)).toBeCloseTo(2.0150483733330233, 9);
    // large df → the normal quantile 1.959964
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959964, 5);
  });

  it('is antisymmetric and 0 at the median; rejects bad input', () => {
    expect(studentTQuantile(0.5, 7)).toBe(0);
    expect(studentTQuantile(0.025, 4)).toBeCloseTo(-studentTQuantile(0.975, 4), 12);
    expect(() => studentTQuantile(0, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(1, 3)).toThrow(RangeError);
    expect(() => studentTQuantile(0.9, 0)).toThrow(RangeError);
  });

  it('property: the quantile inverts the CDF', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), fc.integer({ min: 1, max: 500 }), (p, df) => {
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 10);
      }),
    );
  });
});

describe('studentTCdf and its parts', () => {
  it('has the closed forms of 1 and 2 df', () => {
    // df 1: ½ + atan(t)/π; df 2: ½ + t / (2 sqrt(2 + t²))
    for (const t of [-3, -0.5, 0, 0.7, 4]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
    }
  });

  it('logGamma and the incomplete beta agree with closed forms', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    // I_x(1, b) = 1 − (1 − x)^b; I_x(a, 1) = x^a
    expect(regularizedBeta(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 12);
    expect(regularizedBeta(0.3, 2.5, 1)).toBeCloseTo(0.3 ** 2.5, 12);
  });
});
