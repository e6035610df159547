import { describe, expect, it } from 'vitest';
import { politelyIgnored } from '../templates/politely-ignored';
import { ComparabilityError, differenceText, guardComparison, runDifferences, type GuardedRun } from './comparability';

const settings = { provider: 'simulated' as const, model: 'simulated-generic-preferring-v1', baseUrl: null, temperature: 0, seed: null, maxOutputTokens: 512 };
const run = (id: string, over: Partial<GuardedRun> = {}): GuardedRun => ({ runId: id, settings, spec: politelyIgnored(), simulated: true, ...over });

describe('the comparability guard', () => {
  it('finds nothing between runs that differ only in their descriptions', () => {
    const spec = politelyIgnored();
    spec.studies[0].conditions[1].tools.amazon.en[0].description = 'Another description.';
    expect(runDifferences(run('a'), run('b', { spec }))).toEqual([]);
    expect(guardComparison(run('a'), run('b', { spec }), null)).toBeNull();
  });

  it('names each difference beyond the descriptions', () => {
    const spec = politelyIgnored();
    spec.studies[0].orderPolicy = 'fixed';
    spec.studies[0].cases = spec.studies[0].cases.slice(1);
    const b = run('b', {
      spec,
      simulated: false,
      settings: { provider: 'openai-compatible', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', temperature: 0.7, seed: 3, maxOutputTokens: 256 },
    });
    const d = runDifferences(run('a'), b);
    expect(d.map((x) => x.field)).toEqual(['provider', 'model', 'baseUrl', 'temperature', 'seed', 'maxOutputTokens', 'simulated', 'orderPolicy', 'caseSet']);
    expect(differenceText(d[3])).toBe('temperature: 0 vs 0.7');
    expect(differenceText(d[7])).toBe('candidate order policy (selection): rotations vs fixed');
  });

  it('refuses runs at different temperatures until overridden with a reason, and returns the override to store', () => {
    const hot = run('b', { settings: { ...settings, temperature: 1 } });
    expect(() => guardComparison(run('a'), hot, null)).toThrow(ComparabilityError);
    expect(() => guardComparison(run('a'), hot, { reason: '  ' })).toThrow(/temperature: 0 vs 1/);
    expect(guardComparison(run('a'), hot, { reason: 'temperature is what I vary' })).toEqual({
      reason: 'temperature is what I vary',
      differences: [{ field: 'temperature', a: '0', b: '1' }],
    });
  });
});
