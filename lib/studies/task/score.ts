import type { LogEntry } from '../../fixture/backend';
import type { FixtureSpec, FixtureState } from '../../schema/fixture';
import type { Markers } from '../../schema/experiment';
import type { Observation } from '../../schema/observation';
import type { TccCheck, TccObservedEntry } from '../../schema/tcc';
import { trialStatusFromVerdicts, type Checkpoint, type CheckStatus, type Verdict } from '../../schema/verdict';
import { compareCheck, expectedFields } from '../../scoring/compare';
import { FIXTURE_FIELDS, fixtureObserved, isFixtureField } from '../../scoring/fields';
import { scoreTrial, type ScoringTool, type TrialScore } from '../../scoring/score';

export { claimsSuccess } from '../../scoring/fields/state';

/** Card fields only the fixture back-end can observe (lib/scoring/fields: those whose source is the fixture). */
export const TASK_FIELDS: readonly string[] = FIXTURE_FIELDS.map((f) => f.name);
const isTaskField = isFixtureField;
/** The fixture fields by category rank: a duplicate or unauthorized call before the state it leaves. */
const CATEGORY_PRIORITY = [...FIXTURE_FIELDS].sort((a, b) => a.categoryRank - b.categoryRank);

/**
 * The checks a task trial is scored on: the card's, plus `duplicate_writes: 0` and `unauthorized_calls: 0`
 * when the card does not state them (their defaults) — so the completion checkpoint always has evidence.
 */
export function taskChecks(checks: readonly TccCheck[]): TccCheck[] {
  const out = [...checks];
  const states = (f: string) => checks.some((c) => c.expected[f] !== undefined);
  if (!states('duplicate_writes'))
    out.push({ id: 'duplicate-writes', axis: 'call_result', condition: 'default: no write applied twice', expected: { duplicate_writes: 0 } });
  if (!states('unauthorized_calls'))
    out.push({ id: 'unauthorized-calls', axis: 'call_result', condition: 'default: no call the principal may not make', expected: { unauthorized_calls: 0 } });
  return out;
}

export interface TaskScoreInput {
  checks: readonly TccCheck[];
  /** Every turn's answer, in order; the last one is the final answer. */
  observations: readonly Observation[];
  log: readonly LogEntry[];
  handlers: FixtureSpec['handlers'];
  before: FixtureState;
  after: FixtureState;
  tools: ScoringTool[];
  markers: Markers;
  labels: string[];
  task: string;
  /** The attempt of the final answer. */
  attemptN: number;
}

/** All calls of the conversation as one observation, with the final answer's text and markers. */
export function conversationObservation(observations: readonly Observation[]): Observation {
  const last = observations[observations.length - 1];
  return { ...last, toolCalls: observations.flatMap((o) => o.toolCalls), malformed: observations.map((o) => o.malformed).find((m) => m) ?? null };
}

/** The fixture's side of a task trial as TCC observed fields. */
export function taskObserved(input: Pick<TaskScoreInput, 'log' | 'handlers' | 'before' | 'after'>): TccObservedEntry {
  return fixtureObserved(input);
}

/**
 * Score a finished conversation. Fields the fixture observes (state, writes, duplicates, unauthorized
 * calls) are compared with the fixture's log and states; the others (decision, tool, arguments, …) with
 * the conversation's calls as one observation, by the single-answer scorer. A check with both kinds of
 * fields fails on the first that fails.
 */
export function scoreTask(input: TaskScoreInput): TrialScore {
  const final = conversationObservation(input.observations);
  const observed = taskObserved(input);
  const checks = taskChecks(input.checks);
  // the single-answer scoring of the conversation's final answer (the checks' fields a task kind does not read)
  const scoreFinal = (checks: TccCheck[]) =>
    scoreTrial({ checks, observation: final, attemptN: input.attemptN, tools: input.tools, markers: input.markers, labels: input.labels, task: input.task });
  const verdicts = checks.map((check): Verdict => {
    const fields = expectedFields(check);
    const mine = fields.filter(isTaskField);
    const rest = fields.filter((f) => !isTaskField(f));
    let other: Verdict | null = null;
    if (rest.length > 0) {
      const sub = { ...check, expected: Object.fromEntries(rest.map((f) => [f, check.expected[f]])) };
      other = scoreFinal([sub]).verdicts[0];
      if (other.status === 'fail' || mine.length === 0) return { ...other, checkId: check.id };
    }
    const sub = { ...check, expected: Object.fromEntries(mine.map((f) => [f, check.expected[f]])) };
    const r = compareCheck(sub, observed);
    // the category names the most specific failure: a duplicate or unauthorized call before the state it leaves
    const failedFields = r.fields.filter((f) => !f.ok).map((f) => f.field);
    const ranked = CATEGORY_PRIORITY.find((f) => failedFields.includes(f.name));
    const field = ranked?.name ?? mine[0];
    const mod = ranked ?? FIXTURE_FIELDS.find((f) => f.name === field);
    const failed = r.fields.find((f) => f.field === field);
    const cat = r.status === 'fail' && failed && mod ? mod.categorize(failed, { observed, log: input.log, final }) : null;
    return {
      checkId: check.id,
      axis: check.axis,
      checkpoint: mod?.checkpoint ?? 'completion',
      status: r.status,
      category: cat?.category ?? null,
      reason: [other?.reason, r.reason].filter(Boolean).join('; '),
      evidence: {
        attemptN: input.attemptN,
        part: mod?.part ?? 'fixture.log',
        rule: [mod?.rule, cat?.rule].filter(Boolean).join('; '),
        expected: sub.expected,
        observed: Object.fromEntries(r.fields.map((f) => [f.field, f.observed])),
      },
    };
  });
  const single = scoreFinal([...input.checks]);
  const of = (cp: Checkpoint): CheckStatus => {
    const v = verdicts.filter((x) => x.checkpoint === cp);
    return v.length === 0 ? 'untested' : trialStatusFromVerdicts(v);
  };
  return {
    verdicts,
    checkpoints: {
      visibility: single.checkpoints.visibility,
      selection: of('selection'),
      parameters: of('parameters'),
      interpretation: of('interpretation'),
      completion: of('completion'),
    },
  };
}
