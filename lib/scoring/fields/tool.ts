import { cardExpects, malformedCall, selection, SELECTION_CATEGORIES } from '../categories';
import { exact } from './shared';
import type { AnswerField } from './types';

/** `tool` (an extension of TCC): the scenario tool id the first call must name. */
export const tool: AnswerField<'tool'> = {
  name: 'tool',
  source: 'answer',
  checkpoint: 'selection',
  rule: "tool: the first call's scenario tool (docs/design.md#scoring-rules)",
  categories: [...SELECTION_CATEGORIES, 'malformed_call'],
  // absent without a call; a call naming no sent tool reports the name it used
  observe: ({ derived }) => (derived.firstCall ? (derived.firstTool?.id ?? derived.firstCall.name) : undefined),
  reportsMalformed: true,
  part: () => 'toolCalls[0].name',
  compare: exact('tool', true),
  categorize: (_f, check, ctx) => malformedCall(ctx) ?? selection(null, cardExpects(check, ctx).tool, ctx),
  // the expected tool must be among those sent
  visibleIn: (expected, tools) => !expected || tools.some((t) => t.id === expected),
  designer: { label: 'tool', input: 'tool' },
};
