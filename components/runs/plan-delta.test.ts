import { describe, expect, it } from 'vitest';
import { deltaOf } from './PlanDelta';

// The difference typed on the compare page, in points, read as the share the reading plans for.

describe('the chosen difference', () => {
  it('reads points as a share; empty is the observed difference', () => {
    expect(deltaOf('10')).toEqual({ delta: 0.1, error: null });
    expect(deltaOf(' +2.5 ')).toEqual({ delta: 0.025, error: null });
    expect(deltaOf('100')).toEqual({ delta: 1, error: null });
    expect(deltaOf('')).toEqual({ delta: null, error: null });
  });
  it('refuses what is not a difference above 0 and at most 100 points', () => {
    for (const t of ['0', '-5', '101', 'abc', 'NaN', 'Infinity']) expect(deltaOf(t).error, t).toContain(`(got "${t}")`);
  });
});
