import { matchArguments } from '../arguments';
import { cardExpects, inventedValues, malformedCall, selection, SELECTION_CATEGORIES } from '../categories';
import { isPlainObject } from '../pyvalue';
import { malformedNote, show } from './shared';
import type { AnswerField } from './types';

const asObject = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

/** `arguments`: the complete first call (lib/scoring/arguments.ts, `tcc` mode). */
export const args: AnswerField<'arguments'> = {
  name: 'arguments',
  source: 'answer',
  checkpoint: 'parameters',
  rule: 'arguments: the complete call — every expected key with an acceptable value, no other key (docs/design.md#scoring-rules)',
  categories: ['no_call', 'invented_argument', 'wrong_arguments', ...SELECTION_CATEGORIES, 'malformed_call'],
  // null without a usable call: none, or one naming no sent tool, or unparseable
  observe: ({ derived }) => (derived.decision === 'malformed' ? null : (derived.firstCall?.arguments ?? null)),
  reportsMalformed: true,
  part: (_d, failed) => {
    const fields = failed?.field === 'arguments' ? (failed.match?.fields ?? []) : [];
    return fields.length === 1 ? `toolCalls[0].arguments.${fields[0]}` : 'toolCalls[0].arguments';
  },
  compare: (expected, observed, entry) => {
    if (observed === null) {
      const malformed = malformedNote(entry);
      const why = malformed ? `no usable call${malformed}` : 'no call observed';
      return { ok: false, reason: `arguments: ${why}`, match: matchArguments(asObject(expected), null, null, 'tcc') };
    }
    if (!isPlainObject(observed)) return { ok: false, reason: `arguments: observed ${show(observed)} is not an object` };
    const match = matchArguments(asObject(expected), observed, null, 'tcc');
    return { ok: match.ok, reason: match.ok ? 'arguments match' : `arguments: ${match.reason}`, match };
  },
  categorize: (f, check, ctx) => {
    const malformed = malformedCall(ctx);
    if (malformed) return malformed;
    const d = ctx.derived;
    const expected = cardExpects(check, ctx);
    if (!d.firstCall) return { category: 'no_call', rule: 'no_call: no call whose arguments could be compared' };
    if (expected.tool && d.firstTool && d.firstTool.id !== expected.tool.id) return selection(expected.decision, expected.tool, ctx);
    const fields = f.match?.fields ?? [];
    if (inventedValues(d.firstCall.arguments, ctx.task, fields).length > 0)
      return { category: 'invented_argument', rule: 'invented_argument: an argument value the task never contained' };
    return { category: 'wrong_arguments', rule: `wrong_arguments: ${fields.join(', ') || 'arguments'} differ` };
  },
  designer: { label: 'arguments', input: 'arguments' },
};
