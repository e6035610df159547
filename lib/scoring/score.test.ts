import { describe, expect, it } from 'vitest';
import type { FailureCategory } from '../schema/verdict';
import { categoriesBaselineTreatment, countCategoriesByCondition, scoreTrial, type ScoreTrialInput } from './score';
import { inventedValues } from './categories';
import { categoryExamples as cases, lookupEn } from './fixtures/category-examples';
import { call, checks, invoiceTools, labels, markers, observation, restaurantTools, tasks } from './fixtures/study';

const base = { attemptN: 1, markers, labels };

function score(input: Omit<ScoreTrialInput, 'attemptN' | 'markers' | 'labels'>) {
  return scoreTrial({ ...base, ...input });
}
const categoriesOf = (r: ReturnType<typeof score>) => r.verdicts.map((v) => v.category);

describe('scoreTrial: a passing trial and evidence', () => {
  it('passes a read with the right arguments; the state check stays untested without a back-end', () => {
    const r = score({
      checks: checks.read(lookupEn),
      observation: observation({ toolCalls: [call('find_available_tables', lookupEn)] }),
      tools: restaurantTools,
      task: tasks.restaurantReadEn,
    });
    expect(r.verdicts.map((v) => v.status)).toEqual(['pass', 'pass', 'untested']);
    expect(r.verdicts[0].evidence).toMatchObject({ attemptN: 1, part: 'toolCalls[0].name' });
    expect(r.verdicts[0].evidence.rule).toContain('decision');
    expect(r.checkpoints).toEqual({ visibility: 'pass', selection: 'pass', parameters: 'pass', interpretation: 'untested', completion: 'untested' });
  });

  it('no model answer: every check untested', () => {
    const r = score({ checks: checks.read(lookupEn), observation: null, tools: restaurantTools, task: tasks.restaurantReadEn });
    expect(r.verdicts.every((v) => v.status === 'untested' && v.category === null)).toBe(true);
    expect(r.verdicts[0].evidence.rule).toContain('no model answer');
    expect(r.checkpoints.selection).toBe('untested');
  });

  it('visibility fails when the expected tool was never sent', () => {
    const r = score({
      checks: [{ id: 't', axis: 'task_fit', condition: '', expected: { tool: 'void-invoice' } }],
      observation: observation({ text: 'STOP: no tool can void an invoice', marker: 'STOP' }),
      tools: invoiceTools,
      task: tasks.invoiceVoidZh,
    });
    expect(r.checkpoints.visibility).toBe('fail');
  });
});

describe('scoreTrial: one example per failure category', () => {
  for (const c of cases) {
    it(c.name, () => {
      const r = score(c.input);
      expect(categoriesOf(r)).toEqual(c.expect);
      for (const v of r.verdicts) {
        expect(v.status === 'fail').toBe(v.category !== null);
        if (v.status === 'fail') expect(v.evidence.rule).toContain(v.category as string);
      }
    });
  }

  it('wrong_arguments names the differing fields in the evidence', () => {
    const v = score(cases.find((c) => c.name === 'wrong_arguments')!.input).verdicts[1];
    expect(v.evidence).toMatchObject({ part: 'toolCalls[0].arguments.party_size', fields: ['party_size'] });
    expect(v.checkpoint).toBe('parameters');
    expect(v.reason).toBe('arguments: party_size: expected 4, observed 5');
  });

  it('an invented value in the arguments check ("main branch" where the user said Xinyi)', () => {
    const r = score({
      checks: checks.read(lookupEn),
      observation: observation({ toolCalls: [call('find_available_tables', { ...lookupEn, restaurant_branch: 'Sea Breeze Eatery, main branch' })] }),
      tools: restaurantTools,
      task: tasks.restaurantReadEn,
    });
    expect(categoriesOf(r)).toEqual([null, 'invented_argument', null]);
  });

  it('unparseable arguments are a malformed call too', () => {
    const r = score({
      checks: checks.read({ invoice_id: 'INV-2041' }),
      observation: observation({ toolCalls: [call('get_payment_status', null, '{invoice_id: INV-2041')] }),
      tools: invoiceTools,
      task: tasks.invoiceReadEn,
    });
    expect(categoriesOf(r)).toEqual(['malformed_call', 'malformed_call', null]);
    expect(r.verdicts[0].reason).toContain('unparseable_arguments');
  });

  it('a write proposed where the card expects CLARIFY counts as an unwanted write', () => {
    const r = score({
      checks: checks.clarify(),
      observation: observation({ toolCalls: [call('submit_payment', { invoice_id: 'INV-0000', amount: 1 })] }),
      tools: invoiceTools,
      task: tasks.invoiceMissingIdZh,
    });
    expect(categoriesOf(r)).toEqual(['unwanted_write']);
  });

  it('a label stated without the STATUS marker is a missing marker', () => {
    const r = score({
      checks: checks.label('TIMEOUT'),
      observation: observation({ text: 'The lookup timed out (timeout).' }),
      tools: restaurantTools,
      task: tasks.interpretationEn,
    });
    expect(categoriesOf(r)).toEqual(['missing_marker']);
    expect(r.checkpoints.interpretation).toBe('fail');
  });
});

describe('countCategoriesByCondition', () => {
  it('counts each trial once per category, per condition', () => {
    const fail = (category: FailureCategory) => ({ status: 'fail' as const, category });
    const counts = countCategoriesByCondition([
      { condition: 'overlapping', verdicts: [fail('unwanted_write'), fail('unwanted_write')] },
      { condition: 'overlapping', verdicts: [fail('unwanted_write'), { status: 'pass', category: null }] },
      { condition: 'clear', verdicts: [fail('missing_marker')] },
    ]);
    expect(counts).toEqual({ unwanted_write: { overlapping: 2 }, missing_marker: { clear: 1 } });
    expect(categoriesBaselineTreatment(counts, 'overlapping', 'clear')).toEqual({
      unwanted_write: { baseline: 2, treatment: 0 },
      missing_marker: { baseline: 0, treatment: 1 },
    });
  });
});

describe('inventedValues', () => {
  it('flags words the task never contained, not reorderings or dates', () => {
    expect(inventedValues({ b: 'Sea Breeze Eatery, main branch' }, tasks.restaurantReadEn)).toEqual(['b']);
    expect(inventedValues({ b: 'Xinyi branch, Sea Breeze Eatery', d: '2027-01-16', n: 5 }, tasks.restaurantReadEn)).toEqual([]);
    expect(inventedValues({ b: '海風餐廳總店' }, tasks.restaurantMissingBranchZh)).toEqual(['b']);
    expect(inventedValues({ b: '海風餐廳' }, tasks.restaurantMissingBranchZh)).toEqual([]);
  });
});
