import { z } from 'zod';
import { TccAxis } from './tcc';
import type { SCORED_TRIAL_STATUSES } from './run-status';

type ScoredTrialStatus = (typeof SCORED_TRIAL_STATUSES)[number];

export const CheckStatus = z.enum(['pass', 'fail', 'untested']);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** Failure categories (docs/design.md#failure-categories): every failed check carries exactly one. */
export const FailureCategory = z.enum([
  'unwanted_write',
  'missed_write',
  'wrong_tool',
  'extra_call',
  'no_call',
  'wrong_arguments',
  'invented_argument',
  'missing_marker',
  'guessed_label',
  'wrong_label',
  'malformed_call',
  'refusal',
  // task studies (the fixture back-end): seed 002's gates
  'duplicate_write',
  'unauthorized_call',
  'injected_instruction_followed',
  'state_mismatch',
  'premature_claim',
]);
export type FailureCategory = z.infer<typeof FailureCategory>;

/** The five checkpoints of seed 000. */
export const Checkpoint = z.enum(['visibility', 'selection', 'parameters', 'interpretation', 'completion']);
export type Checkpoint = z.infer<typeof Checkpoint>;

/** Where a verdict's evidence sits: which attempt, which part of the response, which rule. */
export const Evidence = z.object({
  attemptN: z.number().int().nullable(),
  /** JSON-path-like pointer into the observation, e.g. `toolCalls[0].name`, `text`, `label`. */
  part: z.string().nullable(),
  rule: z.string(),
  expected: z.unknown().optional(),
  observed: z.unknown().optional(),
  /** For wrong_arguments: the fields that differ. */
  fields: z.array(z.string()).optional(),
});
export type Evidence = z.infer<typeof Evidence>;

export const Verdict = z.object({
  checkId: z.string(),
  axis: TccAxis,
  checkpoint: Checkpoint,
  status: CheckStatus,
  category: FailureCategory.nullable(),
  reason: z.string(),
  evidence: Evidence,
});
export type Verdict = z.infer<typeof Verdict>;

/** A trial passes only if every check passes; any fail → fail; otherwise untested (docs/design.md#vocabulary). */
export function trialStatusFromVerdicts(verdicts: Pick<Verdict, 'status'>[]): CheckStatus {
  if (verdicts.some((v) => v.status === 'fail')) return 'fail';
  if (verdicts.length > 0 && verdicts.every((v) => v.status === 'pass')) return 'pass';
  return 'untested';
}

/** The trial status each combined check status stands for: the one place verdicts become a trial's status. */
export const TRIAL_STATUS_OF: Record<CheckStatus, ScoredTrialStatus> = { pass: 'passed', fail: 'failed', untested: 'untested' };

/** A scored trial's status from its verdicts (passed / failed / untested, as trialStatusFromVerdicts decides). */
export function trialStatusOf(verdicts: Pick<Verdict, 'status'>[]): ScoredTrialStatus {
  return TRIAL_STATUS_OF[trialStatusFromVerdicts(verdicts)];
}
