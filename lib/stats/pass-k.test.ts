import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { passHatK } from './pass-k';

describe('passHatK', () => {
  it('is the τ-bench estimator C(c,k)/C(n,k) averaged over tasks', () => {
    const tasks = [
      [true, true, true, true], // c=4: 1
      [true, true, true, false], // c=3, k=2: C(3,2)/C(4,2) = 3/6
      [true, false, false, false], // c=1 < k: 0
    ];
    expect(passHatK(tasks, 2)).toEqual({ k: 2, passHatK: (1 + 0.5 + 0) / 3, rate: (1 + 0.75 + 0.25) / 3, tasks: 3, skipped: 0 });
    expect(passHatK(tasks, 1).passHatK).toBeCloseTo(passHatK(tasks, 1).rate!, 15);
    expect(passHatK(tasks, 4).passHatK).toBeCloseTo(1 / 3, 15);
  });

  it('skips tasks with fewer than k replicates and is null without any', () => {
    expect(passHatK([[true], [true, true]], 2)).toEqual({ k: 2, passHatK: 1, rate: 1, tasks: 1, skipped: 1 });
    expect(passHatK([], 1)).toEqual({ k: 1, passHatK: null, rate: null, tasks: 0, skipped: 0 });
    expect(() => passHatK([[true]], 0)).toThrow(RangeError);
  });

  const tasks = fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 30 });

  it('property: within [0, rate] and non-increasing in k', () => {
    fc.assert(
      fc.property(tasks, fc.integer({ min: 1, max: 12 }), (ts, k) => {
        const r = passHatK(ts, k);
        if (r.passHatK === null) return;
        expect(r.passHatK).toBeGreaterThanOrEqual(0);
        expect(r.passHatK).toBeLessThanOrEqual(r.rate! + 1e-12);
        const full = ts.filter((t) => t.length >= k + 1);
        if (full.length) expect(passHatK(full, k + 1).passHatK!).toBeLessThanOrEqual(passHatK(full, k).passHatK! + 1e-12);
      }),
    );
  });
});
