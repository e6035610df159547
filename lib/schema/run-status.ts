import { z } from 'zod';

// The one home of run and trial statuses and of the run control rules. The engine (lib/runner, lib/db),
// the CLI, the pages and the exports import these; nobody else lists a status set.

export const RunStatus = z.enum([
  'created',
  'prechecking',
  'running',
  'paused',
  'cancelled',
  /** every trial final and none unresolved */
  'completed',
  /** every trial final, but some ended `unresolved` (every attempt failed in transport): not a plain success */
  'completed_with_unresolved',
  'failed',
]);
export type RunStatus = z.infer<typeof RunStatus>;

/** A run in one of these changes no more by itself (a failed run that had started may still be resumed). */
export const FINAL_RUN_STATUSES = ['completed', 'completed_with_unresolved', 'cancelled', 'failed'] as const satisfies readonly RunStatus[];
export type FinalRunStatus = (typeof FINAL_RUN_STATUSES)[number];

export function isFinalRunStatus(status: string): status is FinalRunStatus {
  return (FINAL_RUN_STATUSES as readonly string[]).includes(status);
}

/** Statuses whose run ended with every trial final (completeRunIfDone decides which of the two). */
export const COMPLETED_RUN_STATUSES = ['completed', 'completed_with_unresolved'] as const satisfies readonly FinalRunStatus[];

export function isCompletedRunStatus(status: string): status is (typeof COMPLETED_RUN_STATUSES)[number] {
  return (COMPLETED_RUN_STATUSES as readonly string[]).includes(status);
}

/** finished_at is stamped when a run enters one of these. */
export const FINISHED_STAMP_STATUSES: readonly RunStatus[] = FINAL_RUN_STATUSES;

/** How a status reads in the UI, the CLI and the exports (`statusLabel`). */
export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  created: 'created',
  prechecking: 'prechecking',
  running: 'running',
  paused: 'paused',
  cancelled: 'cancelled',
  completed: 'completed',
  completed_with_unresolved: 'completed with unresolved trials',
  failed: 'failed',
};

export function runStatusLabel(status: string): string {
  return RUN_STATUS_LABELS[status as RunStatus] ?? status;
}

/**
 * Whether a finished run counts as a success for a caller such as `tclab run` (exit 0): `completed`, and
 * `completed_with_unresolved` only when the caller accepts unresolved trials.
 */
export function runSucceeded(status: string, opts: { allowUnresolved?: boolean } = {}): boolean {
  return status === 'completed' || (status === 'completed_with_unresolved' && opts.allowUnresolved === true);
}

export type ControlAction = 'pause' | 'resume' | 'cancel';
export const CONTROL_ACTIONS: readonly ControlAction[] = ['pause', 'resume', 'cancel'];

/**
 * Run control rules: which statuses each action accepts and what it makes of the run. Pause stops claims and
 * sends; resume continues a paused run, a run stopped by a configuration error (it had started), or a run
 * whose pre-checking process is gone (it finishes the pre-checks first); cancel stops new requests for good.
 */
export const RUN_CONTROL: Record<ControlAction, { from: readonly RunStatus[]; to: RunStatus }> = {
  pause: { from: ['running', 'prechecking'], to: 'paused' },
  resume: { from: ['paused', 'failed', 'prechecking'], to: 'running' },
  cancel: { from: ['created', 'prechecking', 'running', 'paused', 'failed'], to: 'cancelled' },
};

export function controlAllowed(action: ControlAction, status: string): boolean {
  return (RUN_CONTROL[action].from as readonly string[]).includes(status);
}

export const TrialStatus = z.enum(['queued', 'running', 'passed', 'failed', 'untested', 'unresolved', 'cancelled']);
export type TrialStatus = z.infer<typeof TrialStatus>;
/** Not final: a trial in one of these still needs a job. */
export const PENDING_TRIAL_STATUSES = ['queued', 'running'] as const satisfies readonly TrialStatus[];
export const FINAL_TRIAL_STATUSES = ['passed', 'failed', 'untested', 'unresolved', 'cancelled'] as const satisfies readonly TrialStatus[];
/** A formal result: an observation and verdicts from an attempt that ended ok. */
export const SCORED_TRIAL_STATUSES = ['passed', 'failed', 'untested'] as const satisfies readonly TrialStatus[];
