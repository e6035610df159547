import { normalizeText } from '../arguments';
import { CANNOT_DETERMINE, squash } from '../categories';
import { show } from './shared';
import type { AnswerField } from './types';

/** `label`: the label the answer reports after the STATUS marker (interpretation studies). */
export const label: AnswerField<'label'> = {
  name: 'label',
  source: 'answer',
  checkpoint: 'interpretation',
  rule: 'label: the label after the STATUS marker, exact',
  categories: ['missing_marker', 'guessed_label', 'wrong_label'],
  // null when none was reported
  observe: ({ observation }) => observation.label,
  reportsMalformed: false,
  part: () => 'label',
  compare: (expected, observed) => {
    if (observed === null) return { ok: false, reason: `label: expected ${show(expected)}, no label reported` };
    const ok = typeof observed === 'string' && typeof expected === 'string' && normalizeText(observed).toUpperCase() === normalizeText(expected).toUpperCase();
    return { ok, reason: ok ? `label ${show(observed)}` : `label: expected ${show(expected)}, observed ${show(observed)}` };
  },
  // an unusable call does not decide a label's category: the label does
  categorize: (f, _check, ctx) => {
    const expected = String(f.expected).toUpperCase();
    const observed = typeof f.observed === 'string' ? f.observed.toUpperCase() : null;
    if (observed === null) {
      const said = ctx.observation.text && squash(ctx.observation.text).includes(squash(expected.replaceAll('_', ' ')));
      if (said) return { category: 'missing_marker', rule: `missing_marker: the text states the expected label without the ${ctx.markers.status} marker` };
      return { category: 'wrong_label', rule: 'wrong_label: no label reported' };
    }
    if (expected === CANNOT_DETERMINE && observed !== CANNOT_DETERMINE)
      return { category: 'guessed_label', rule: `guessed_label: a definite label where only ${CANNOT_DETERMINE} is justified` };
    const known = ctx.labels.length === 0 || ctx.labels.some((l) => l.toUpperCase() === observed);
    return { category: 'wrong_label', rule: `wrong_label: the reported label differs from the expected one${known ? '' : ' (not a label of the protocol)'}` };
  },
  designer: { label: 'label', input: 'text' },
};
