import { cardExpects, malformedCall, selection, SELECTION_CATEGORIES } from '../categories';
import { exact } from './shared';
import type { AnswerField } from './types';

/** `call_count`: how many tool calls the answer makes. */
export const callCount: AnswerField<'call_count'> = {
  name: 'call_count',
  source: 'answer',
  checkpoint: 'selection',
  rule: 'call_count: number of tool calls, exact',
  categories: ['extra_call', ...SELECTION_CATEGORIES, 'malformed_call'],
  observe: ({ observation }) => observation.toolCalls.length,
  reportsMalformed: true,
  part: () => 'toolCalls',
  compare: exact('call_count', true),
  categorize: (f, check, ctx) => {
    const malformed = malformedCall(ctx);
    if (malformed) return malformed;
    const expected = cardExpects(check, ctx);
    const want = typeof f.expected === 'number' ? f.expected : 0;
    const got = ctx.observation.toolCalls.length;
    if (want === 0) return selection(expected.decision, expected.tool, ctx);
    if (got > want) return { category: 'extra_call', rule: `extra_call: ${got} calls where ${want} expected` };
    return got === 0 ? selection(expected.decision, expected.tool, ctx) : { category: 'no_call', rule: `no_call: ${got} calls where ${want} expected` };
  },
  designer: { label: 'call count', input: 'number' },
};
