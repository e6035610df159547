import type { CheckStatus } from '../schema/verdict';
import type { TccAxis, TccCard, TccCheck, TccObservations, TccObservedEntry } from '../schema/tcc';
import { compareField, expectedFields } from './fields';
import type { CheckResult } from './fields/types';

/**
 * Comparing a case card with an observation file (TCC v0.1). The one implementation behind both
 * `tclab compare` and `scoreTrial`, so a card exported from a trial and compared with the trial's exported
 * observation gives the trial's verdicts.
 *  - a check whose id has no entry (or `null`) is `untested`, never `pass`;
 *  - otherwise every field of `expected` must match the observed field, by the field's module
 *    (lib/scoring/fields/<field>.ts); a field missing from the entry fails with "not observed"; `arguments`
 *    is the complete call (see arguments.ts, `tcc` mode).
 */

export type { CheckResult, FieldResult } from './fields/types';
export { expectedFields } from './fields';

export interface CheckComparison {
  id: string;
  axis: TccAxis;
  status: CheckStatus;
  reason: string;
}

export interface CardComparison {
  case_id: string;
  checks: CheckComparison[];
  summary: Record<CheckStatus, number>;
}

export function compareCheck(check: TccCheck, entry: TccObservedEntry | null | undefined): CheckResult {
  if (entry === null || entry === undefined) return { status: 'untested', reason: 'no observation for this check', fields: [], failed: null };
  const fields = expectedFields(check).map((f) => compareField(f, check.expected[f], entry));
  const failedAll = fields.filter((f) => !f.ok);
  if (failedAll.length > 0) return { status: 'fail', reason: failedAll.map((f) => f.reason).join('; '), fields, failed: failedAll[0] };
  return { status: 'pass', reason: fields.map((f) => f.reason).join(', ') || 'nothing expected', fields, failed: null };
}

export function compareCard(card: TccCard, observations: TccObservations): CardComparison {
  const checks = card.checks.map((check) => {
    // own entries only: a check id such as `constructor` or `__proto__` with no entry is untested
    const r = compareCheck(check, Object.hasOwn(observations, check.id) ? observations[check.id] : undefined);
    return { id: check.id, axis: check.axis, status: r.status, reason: r.reason };
  });
  const summary: Record<CheckStatus, number> = { pass: 0, fail: 0, untested: 0 };
  for (const c of checks) summary[c.status]++;
  return { case_id: card.case_id, checks, summary };
}
