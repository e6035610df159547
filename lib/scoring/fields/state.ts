import type { FixtureState } from '../../schema/fixture';
import { verifyState, type ExpectedState } from '../../fixture/verify';
import { isPlainObject } from '../pyvalue';
import type { FixtureField } from './types';

/** The final answer claims the task is done (checked only where the state says otherwise). */
const CLAIM = /\b(done|success(ful(ly)?)?|paid|booked|reserved|completed?|confirmed|went through|has been (paid|booked|made))\b|已(完成|付款|預訂|訂位|支付)|成功/i;
export function claimsSuccess(text: string | null): boolean {
  return text !== null && CLAIM.test(text);
}

/**
 * `state` (task studies): the records that must exist after the task with these fields, or must not; the
 * verified gate — anything else that changed is collateral damage (per-field diff, lib/fixture/verify.ts).
 */
export const state: FixtureField<'state'> = {
  name: 'state',
  source: 'fixture',
  checkpoint: 'completion',
  rule: 'verified: the final fixture state has the records the card names, and nothing else changed (per-field diff)',
  categories: ['premature_claim', 'state_mismatch'],
  observe: ({ before, after }) => ({ before, after }),
  part: 'fixture.state',
  categoryRank: 2,
  // observed: the fixture's state before and after the conversation
  compare: (expected, observed) => {
    const o = isPlainObject(observed) ? observed : {};
    if (!isPlainObject(o.before) || !isPlainObject(o.after)) return { ok: false, reason: 'state: observed is not {before, after}' };
    const v = verifyState(o.before as FixtureState, o.after as FixtureState, (isPlainObject(expected) ? expected : {}) as ExpectedState);
    const first = v.problems[0];
    const where = first ? `${first.collection}/${first.id}${first.field ? `.${first.field}` : ''}` : '';
    const reason = v.status === 'pass' ? 'state as expected, nothing else changed' : `state: ${v.problems.length} difference(s), first ${first.kind} at ${where}`;
    return { observed: { problems: v.problems, diff: v.diff }, ok: v.status === 'pass', reason };
  },
  categorize: (_f, { final }) =>
    claimsSuccess(final.text)
      ? { category: 'premature_claim', rule: 'premature_claim: the final answer claims success the state does not show' }
      : { category: 'state_mismatch', rule: 'state_mismatch: the final state is not the expected one' },
};
