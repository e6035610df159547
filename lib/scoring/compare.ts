import type { CheckStatus } from '../schema/verdict';
import type { TccAxis, TccCard, TccCheck, TccObservations, TccObservedEntry } from '../schema/tcc';
import { matchArguments, normalizeText, tccValueEquals, type ArgumentMatch } from './arguments';
import { isPlainObject } from './pyvalue';
import { verifyState, type ExpectedState } from '../fixture/verify';
import type { FixtureState } from '../schema/fixture';

/**
 * Comparing a case card with an observation file (TCC v0.1). The one implementation behind both
 * `tclab compare` and `scoreTrial`, so a card exported from a trial and compared with the trial's exported
 * observation gives the trial's verdicts.
 *  - a check whose id has no entry (or `null`) is `untested`, never `pass`;
 *  - otherwise every field of `expected` must match the observed field; a field missing from the entry
 *    fails with "not observed"; `arguments` is the complete call (see arguments.ts, `tcc` mode).
 */

export interface FieldResult {
  field: string;
  ok: boolean;
  reason: string;
  expected: unknown;
  observed: unknown;
  /** For `arguments`. */
  match?: ArgumentMatch;
}

export interface CheckResult {
  status: CheckStatus;
  reason: string;
  /** Per expected field, in canonical order (decision, tool, call_count, arguments, label, write_count, others). */
  fields: FieldResult[];
  /** The first field that failed, if any. */
  failed: FieldResult | null;
}

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

const ORDER = ['decision', 'tool', 'call_count', 'arguments', 'label', 'write_count', 'state', 'duplicate_writes', 'unauthorized_calls'];

/** The expected fields of a check, in canonical order (so the reason text does not depend on key order). */
export function expectedFields(check: TccCheck): string[] {
  const keys = Object.keys(check.expected).filter((k) => check.expected[k] !== undefined);
  return [...ORDER.filter((k) => keys.includes(k)), ...keys.filter((k) => !ORDER.includes(k)).sort()];
}

const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function compareField(field: string, expected: unknown, entry: TccObservedEntry): FieldResult {
  const base = { field, expected, observed: entry[field] };
  if (!Object.hasOwn(entry, field) || entry[field] === undefined) return { ...base, ok: false, reason: `${field}: not observed` };
  const observed = entry[field];
  const malformed = typeof entry.malformed === 'string' ? ` (malformed call: ${entry.malformed})` : '';
  switch (field) {
    case 'arguments': {
      if (observed === null) {
        const why = malformed ? `no usable call${malformed}` : 'no call observed';
        return { ...base, ok: false, reason: `arguments: ${why}`, match: matchArguments(asObject(expected), null, null, 'tcc') };
      }
      if (!isPlainObject(observed)) return { ...base, ok: false, reason: `arguments: observed ${show(observed)} is not an object` };
      const match = matchArguments(asObject(expected), observed, null, 'tcc');
      return { ...base, ok: match.ok, reason: match.ok ? 'arguments match' : `arguments: ${match.reason}`, match };
    }
    case 'label': {
      if (observed === null) return { ...base, ok: false, reason: `label: expected ${show(expected)}, no label reported` };
      const ok = typeof observed === 'string' && typeof expected === 'string' && normalizeText(observed).toUpperCase() === normalizeText(expected).toUpperCase();
      return { ...base, ok, reason: ok ? `label ${show(observed)}` : `label: expected ${show(expected)}, observed ${show(observed)}` };
    }
    case 'state': {
      // observed: the fixture's state before and after the conversation; the verified gate decides
      const o = isPlainObject(observed) ? observed : {};
      if (!isPlainObject(o.before) || !isPlainObject(o.after)) return { ...base, ok: false, reason: 'state: observed is not {before, after}' };
      const v = verifyState(o.before as FixtureState, o.after as FixtureState, (isPlainObject(expected) ? expected : {}) as ExpectedState);
      const first = v.problems[0];
      const where = first ? `${first.collection}/${first.id}${first.field ? `.${first.field}` : ''}` : '';
      const reason = v.status === 'pass' ? 'state as expected, nothing else changed' : `state: ${v.problems.length} difference(s), first ${first.kind} at ${where}`;
      return { ...base, observed: { problems: v.problems, diff: v.diff }, ok: v.status === 'pass', reason };
    }
    default: {
      const ok = tccValueEquals(expected, observed);
      const extra = field === 'decision' || field === 'tool' || field === 'call_count' ? malformed : '';
      return { ...base, ok, reason: ok ? `${field} ${show(observed)}` : `${field}: expected ${show(expected)}, observed ${show(observed)}${extra}` };
    }
  }
}

const asObject = (v: unknown): Record<string, unknown> => (isPlainObject(v) ? v : {});

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
