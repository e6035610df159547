import { describe, expect, it } from 'vitest';
import type { TrialUsage } from '../schema/outcomes';
import { conditionNoise, studyCost, unpassableCases, unpassableAcrossRuns } from './outcomes';

const trial = (o: Partial<TrialUsage>): TrialUsage => ({
  study: 's',
  scenario: 'x',
  locale: 'en',
  caseId: 'c1',
  condition: 'base',
  orderIndex: 0,
  replicate: 1,
  pairKey: 'p',
  status: 'passed',
  inputTokens: 100,
  outputTokens: 10,
  cachedTokens: null,
  toolCalls: 1,
  turns: 1,
  ...o,
});

describe('conditionNoise', () => {
  it('by hand: two tasks of four replicates, one flips (1,1,0,0), one does not (1,1,1,1)', () => {
    const ts = [1, 1, 0, 0].map((y, i) => trial({ caseId: 'a', replicate: i + 1, status: y ? 'passed' : 'failed' }));
    ts.push(...[1, 1, 1, 1].map((_, i) => trial({ caseId: 'b', replicate: i + 1 })));
    const n = conditionNoise('base', ts);
    // within variance: task a SS = 4·0.25 = 1, task b SS = 0; df = 3 + 3 → 1/6
    // noise floor: 1.959964·√(2·(1/6)/8) = 1.959964·0.204124 = 0.400079
    expect(n).toMatchObject({ tasks: 2, flipped: 1, flipRate: 0.5, n: 8 });
    expect(n.withinVariance).toBeCloseTo(1 / 6, 12);
    expect(n.noiseFloor).toBeCloseTo(0.400079, 5);
    // ICC: MSB = 4·(0.25² + 0.25²)/1 = 0.5, MSW = 1/6, m₀ = 4 → (0.5 − 1/6)/(0.5 + 3/6) = 1/3
    expect(n.icc).toBeCloseTo(1 / 3, 12);
  });
});

describe('studyCost', () => {
  it('totals, the paired difference per trial and the price', () => {
    const ts = [
      trial({ pairKey: 'p1', caseId: 'a', inputTokens: 100, outputTokens: 10, cachedTokens: 5 }),
      trial({ pairKey: 'p1', caseId: 'a', condition: 'treat', inputTokens: 300, outputTokens: 20, cachedTokens: null, toolCalls: 2 }),
      trial({ pairKey: 'p2', caseId: 'b', inputTokens: 100, outputTokens: 10 }),
      trial({ pairKey: 'p2', caseId: 'b', condition: 'treat', inputTokens: 200, outputTokens: 30 }),
      trial({ pairKey: 'p3', caseId: 'b', status: 'unresolved', inputTokens: null, outputTokens: null }),
    ];
    const table = { currency: 'EUR', outputTokensPerRequest: 150, prices: [{ provider: 'openai', model: 'm', inputPerMTok: 1, outputPerMTok: 4 }] };
    const c = studyCost('base', ['base', 'treat'], ts, { table, provider: 'openai', model: 'm' });
    const [b, t] = c.conditions;
    expect(b).toMatchObject({ trials: 2, metrics: { inputTokens: { total: 200, trials: 2, perTrial: 100 }, cachedTokens: { total: 5, trials: 1 } } });
    expect(b.cost).toBeCloseTo((200 * 1 + 20 * 4) / 1e6, 15);
    expect(t.metrics.toolCalls.total).toBe(3);
    // input differences per pair: +200 (case a), +100 (case b) → mean +150, two clusters
    expect(t.difference!.inputTokens).toMatchObject({ estimate: 150, pairs: 2, clusters: 2 });
    // cached: only p1's baseline reported → no pair has both sides
    expect(t.difference!.cachedTokens).toMatchObject({ estimate: null, pairs: 0 });
    expect(c.price).toEqual({ provider: 'openai', model: 'm', inputPerMTok: 1, outputPerMTok: 4, currency: 'EUR' });
    expect(studyCost('base', ['base', 'treat'], ts, null).conditions[0].cost).toBeNull();
  });
});

describe('unpassable cases', () => {
  it('a case is flagged only when every condition decided it and none passed', () => {
    const ts = [
      trial({ caseId: 'dead', status: 'failed' }),
      trial({ caseId: 'dead', condition: 'treat', status: 'failed' }),
      trial({ caseId: 'dead', condition: 'treat', status: 'unresolved' }),
      trial({ caseId: 'half', status: 'failed' }),
      trial({ caseId: 'half', condition: 'treat', status: 'passed' }),
      trial({ caseId: 'one-side', status: 'failed' }),
    ];
    const flagged = unpassableCases(['base', 'treat'], ts);
    expect(flagged).toEqual([{ scenario: 'x', locale: 'en', caseId: 'dead', trials: 2 }]);
    const summary = (cases: typeof flagged) => ({ studies: [{ study: 's', unpassable: cases }] }) as never;
    expect(unpassableAcrossRuns([summary(flagged), summary(flagged)])).toEqual([{ study: 's', cases: [{ ...flagged[0], trials: 4 }] }]);
    expect(unpassableAcrossRuns([summary(flagged), summary([])])).toEqual([]);
  });
});
