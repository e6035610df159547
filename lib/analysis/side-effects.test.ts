import { describe, expect, it } from 'vitest';
import { candidateFunnel, funnelText, hasFunnel, newConfusions, perRequest } from './side-effects';
import { descriptionPairs, funnel, pairReading, type FunnelTrial } from './funnel';
import type { Choice } from './choices';
import type { TrialUsage } from '../schema/outcomes';

const place = { study: 's', scenario: 'sc', locale: 'en', orderIndex: 0, replicate: 0 };
const choice = (o: Partial<Choice> & Pick<Choice, 'caseId' | 'condition' | 'status' | 'chosen'>): Choice => ({
  ...place,
  trialId: `${o.caseId}-${o.condition}-${o.orderIndex ?? 0}`,
  expected: 'search_orders',
  expectedToolId: 'search',
  position: o.chosen.startsWith('search') || o.chosen.startsWith('get') || o.chosen.startsWith('delete') ? 1 : null,
  toolsSent: 3,
  count: 1,
  ...o,
});

describe('newConfusions', () => {
  it('counts only pairs the baseline passed and the candidate failed by calling another tool it was sent', () => {
    const choices = [
      // c1: baseline right, candidate calls a sibling → a new confusion
      choice({ caseId: 'c1', condition: 'base', status: 'passed', chosen: 'search_orders' }),
      choice({ caseId: 'c1', condition: 'cand', status: 'failed', chosen: 'get_order' }),
      // c1 in another order: the same confusion again
      choice({ caseId: 'c1', orderIndex: 1, condition: 'base', status: 'passed', chosen: 'search_orders' }),
      choice({ caseId: 'c1', orderIndex: 1, condition: 'cand', status: 'failed', chosen: 'get_order' }),
      // c2: the baseline already failed → not new
      choice({ caseId: 'c2', condition: 'base', status: 'failed', chosen: 'get_order' }),
      choice({ caseId: 'c2', condition: 'cand', status: 'failed', chosen: 'get_order' }),
      // c3: the candidate failed with text, not a tool → not a confusion between tools
      choice({ caseId: 'c3', condition: 'base', status: 'passed', chosen: 'search_orders' }),
      choice({ caseId: 'c3', condition: 'cand', status: 'failed', chosen: 'text' }),
      // c4: called the expected tool but failed an argument check → not a confusion
      choice({ caseId: 'c4', condition: 'base', status: 'passed', chosen: 'search_orders' }),
      choice({ caseId: 'c4', condition: 'cand', status: 'failed', chosen: 'search_orders' }),
      // c5: another sibling, and a case where CLARIFY was expected
      choice({ caseId: 'c5', condition: 'base', status: 'passed', chosen: 'search_orders' }),
      choice({ caseId: 'c5', condition: 'cand', status: 'failed', chosen: 'delete_order' }),
      choice({ caseId: 'c6', condition: 'base', status: 'passed', expected: 'CLARIFY', chosen: 'CLARIFY' }),
      choice({ caseId: 'c6', condition: 'cand', status: 'failed', expected: 'CLARIFY', chosen: 'get_order' }),
      // c7: the candidate improved → nothing
      choice({ caseId: 'c7', condition: 'base', status: 'failed', chosen: 'get_order' }),
      choice({ caseId: 'c7', condition: 'cand', status: 'passed', chosen: 'search_orders' }),
    ];
    expect(newConfusions('base', 'cand', choices)).toEqual([
      { expected: 'search_orders', chosen: 'get_order', pairs: 2, cases: ['c1'] },
      { expected: 'CLARIFY', chosen: 'get_order', pairs: 1, cases: ['c6'] },
      { expected: 'search_orders', chosen: 'delete_order', pairs: 1, cases: ['c5'] },
    ]);
    // the baseline against itself, and a condition with no trials: none
    expect(newConfusions('base', 'base', choices)).toEqual([]);
    expect(newConfusions('base', 'other', choices)).toEqual([]);
  });

  it('counts a grouped row as the trials it stands for', () => {
    const choices = [
      choice({ caseId: 'c1', condition: 'base', status: 'passed', chosen: 'search_orders' }),
      choice({ caseId: 'c1', condition: 'cand', status: 'failed', chosen: 'get_order', count: 3 }),
    ];
    expect(newConfusions('base', 'cand', choices)).toEqual([{ expected: 'search_orders', chosen: 'get_order', pairs: 3, cases: ['c1'] }]);
  });
});

const usage = (o: Partial<TrialUsage>): TrialUsage => ({
  ...place,
  caseId: 'c1',
  condition: 'cand',
  pairKey: 'k',
  status: 'passed',
  inputTokens: 100,
  outputTokens: 10,
  cachedTokens: null,
  toolCalls: 1,
  turns: 1,
  ...o,
});

describe('perRequest', () => {
  it('divides the reported tokens by the model answers of answered trials, and prices them', () => {
    const trials = [
      usage({ inputTokens: 100, outputTokens: 10 }),
      usage({ status: 'failed', inputTokens: 500, outputTokens: 50, turns: 3 }),
      usage({ status: 'unresolved', inputTokens: 9999, outputTokens: 9999 }),
      usage({ inputTokens: null, outputTokens: null }),
      usage({ condition: 'base', inputTokens: 1, outputTokens: 1 }),
    ];
    const r = perRequest('cand', trials, { inputPerMTok: 2, outputPerMTok: 8 });
    expect(r.requests).toBe(4);
    expect(r.inputTokens).toBe(150);
    expect(r.outputTokens).toBe(15);
    expect(r.cost).toBeCloseTo((150 * 2 + 15 * 8) / 1e6, 12);
    expect(perRequest('cand', trials, null).cost).toBeNull();
  });

  it('has no figures when no answered trial reported tokens', () => {
    expect(perRequest('cand', [usage({ inputTokens: null })], { inputPerMTok: 1, outputPerMTok: 1 })).toEqual({
      requests: 0,
      inputTokens: null,
      outputTokens: null,
      cost: null,
    });
  });
});

describe('the words', () => {
  it('names each confusion with its pairs and at most five cases', async () => {
    const { confusionsText, perRequestText } = await import('./side-effects');
    expect(confusionsText([])).toBe('none');
    expect(confusionsText([{ expected: 'a', chosen: 'b', pairs: 1, cases: ['c1'] }])).toBe('1 pair: a → b ×1 (c1)');
    expect(confusionsText([{ expected: 'a', chosen: 'b', pairs: 7, cases: ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'] }])).toBe(
      '7 pairs: a → b ×7 (c1, c2, c3, c4, c5 +2 more)',
    );
    expect(perRequestText({ requests: 0, inputTokens: null, outputTokens: null, cost: null }, 'USD')).toBe('not reported');
    expect(perRequestText({ requests: 4, inputTokens: 1412.4, outputTokens: 15, cost: 0.00093 }, 'USD')).toBe('1,412 in / 15 out tokens · USD 0.93 per 1,000 requests');
    expect(perRequestText({ requests: 4, inputTokens: 150, outputTokens: 15, cost: 0.0000051 }, 'EUR')).toBe('150 in / 15 out tokens · EUR 0.0051 per 1,000 requests');
    expect(perRequestText({ requests: 4, inputTokens: 150, outputTokens: 15, cost: 0.0004 }, null)).toBe('150 in / 15 out tokens');
  });
});

describe("a candidate's funnel pairs on the select split", () => {
  const t = (condition: string, caseId: string, pairKey: string, seen: boolean, chosen: boolean, catalogSize = 8): FunnelTrial => ({
    study: 'selection',
    condition,
    baseline: condition === 'baseline',
    caseId,
    pairKey: `${catalogSize}-${pairKey}`,
    catalogSize,
    discovery: 'bm25-top-5',
    needsTool: true,
    checkpoints: seen ? { visibility: 'pass', selection: chosen ? 'pass' : 'fail' } : { visibility: 'fail', selection: 'untested' },
    status: seen && chosen ? 'passed' : 'failed',
    inputTokens: null,
    costUsd: null,
  });
  // at N = 8 the rule fix makes the tool found in 6 pairs (of 6 cases) the baseline missed; the placebo moves nothing
  const trials = [8, 32].flatMap((n) =>
    [1, 2, 3, 4, 5, 6].flatMap((i) => [
      t('baseline', `c${i}`, `p${i}`, n === 32, n === 32, n),
      t('fix', `c${i}`, `p${i}`, true, true, n),
      t('placebo', `c${i}`, `p${i}`, n === 32, n === 32, n),
    ]),
  );
  const pairs = descriptionPairs(funnel(trials));

  it('one entry per discovery × N, with both stages and the reading the funnel gives the pair', () => {
    const fix = candidateFunnel(pairs, 'fix');
    expect(fix.map((f) => [f.discovery, f.catalogSize])).toEqual([
      ['bm25-top-5', 8],
      ['bm25-top-5', 32],
    ]);
    expect(fix[0]).toMatchObject({ visible: { improved: 6, same: 0, regressed: 0 }, chosen: { improved: 0, same: 0, regressed: 0, pExact: null } });
    expect(fix[0].visible.pExact).toBeCloseTo(2 / 64, 10);
    expect(fix[0].reading).toBe(pairReading(pairs.find((p) => p.treatment === 'fix' && p.catalogSize === 8)!));
    expect(fix[0].reading).toMatch(/^found more often/);
    expect(fix[1]).toMatchObject({ visible: { improved: 0, same: 6, regressed: 0 }, chosen: { improved: 0, same: 6, regressed: 0 } });
    expect(funnelText(fix)).toBe(
      `bm25-top-5, N = 8: ${fix[0].reading} — found 6 ↑ / 0 ↓ of 6, chosen 0 ↑ / 0 ↓ of 0; bm25-top-5, N = 32: ${fix[1].reading} — found 0 ↑ / 0 ↓ of 6, chosen 0 ↑ / 0 ↓ of 6`,
    );
    expect(candidateFunnel(pairs, 'placebo')[0].visible).toMatchObject({ improved: 0, regressed: 0 });
  });

  it('nothing outside a catalog study: no entry, a dash, and no column', () => {
    expect(candidateFunnel(pairs, 'baseline')).toEqual([]);
    expect(candidateFunnel([], 'fix')).toEqual([]);
    expect(funnelText([])).toBe('—');
    expect(hasFunnel([{}, { sideEffects: { funnel: [] } }])).toBe(false);
    expect(hasFunnel([{}, { sideEffects: { funnel: candidateFunnel(pairs, 'fix') } }])).toBe(true);
  });
});
