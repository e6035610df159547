import { describe, expect, it } from 'vitest';
import type { TrialOutcome } from '../schema/table1';
import { reviewPairs } from './review';
import { pairKeyOf } from '../design/matrix';

const spec = {
  studies: [
    {
      id: 'sel',
      kind: 'selection' as const,
      conditions: [
        { id: 'vague', baseline: true },
        { id: 'clear', baseline: false },
        { id: 'terse', baseline: false },
      ],
    },
  ],
};

function trial(caseId: string, condition: string, status: string, categories: string[] = []): TrialOutcome {
  const pairKey = pairKeyOf({ study: 'sel', scenario: 'shop', locale: 'en', caseId, orderIndex: 0, replicate: 1 });
  return { id: `${caseId}-${condition}`, study: 'sel', scenario: 'shop', locale: 'en', condition, pairKey, caseId, orderIndex: 0, replicate: 1, status, categories };
}

describe('reviewPairs', () => {
  it('keeps the pairs with a failure on either side, per treatment, regressed first', () => {
    const pairs = reviewPairs(spec, [
      trial('a', 'vague', 'passed'),
      trial('a', 'clear', 'failed', ['unwanted_write']),
      trial('a', 'terse', 'passed'),
      trial('b', 'vague', 'failed'),
      trial('b', 'clear', 'passed'),
      trial('b', 'terse', 'failed'),
      trial('c', 'vague', 'passed'),
      trial('c', 'clear', 'passed'),
      trial('c', 'terse', 'passed'),
      trial('d', 'vague', 'failed'),
      trial('d', 'clear', 'unresolved'),
    ]);
    expect(pairs.map((p) => [p.caseId, p.treatment.condition, p.class])).toEqual([
      ['a', 'clear', 'regressed'],
      ['b', 'terse', 'both-failed'],
      ['b', 'clear', 'improved'],
      ['d', 'clear', 'unpaired'],
      ['d', 'terse', 'unpaired'],
    ]);
    expect(pairs[0]).toMatchObject({
      study: 'sel',
      scenario: 'shop',
      locale: 'en',
      order: 0,
      replicate: 1,
      baseline: { condition: 'vague', trialId: 'a-vague', status: 'passed' },
      treatment: { condition: 'clear', trialId: 'a-clear', status: 'failed', categories: ['unwanted_write'] },
    });
    expect(pairs.at(-1)!.treatment).toEqual({ condition: 'terse', trialId: null, status: null, categories: [] });
  });

  it('ignores trials of studies the spec does not have', () => {
    expect(
      reviewPairs(spec, [
        {
          ...trial('a', 'vague', 'failed'),
          study: 'other',
          pairKey: pairKeyOf({ study: 'other', scenario: 'shop', locale: 'en', caseId: 'a', orderIndex: 0, replicate: 1 }),
        },
      ]),
    ).toEqual([]);
  });
});
