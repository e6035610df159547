import { changeRunStatus, completeRun } from '../db/runs';
import type { RunStatus } from '../schema/run-status';
import { FINISHED_STAMP_STATUSES } from '../schema/run-status';
import { log } from '../log/logger';

// The run's status changes as the runner makes them, each said on the console at `info` (one JSON line,
// lib/log/logger.ts): `run paused`, `run running`, … and `run finished` with the final status. The runner
// calls these instead of lib/db/runs.ts's setRunStatus / completeRunIfDone (lib/db logs nothing).

/** setRunStatus, logged: false when the run was not in one of `from`. */
export async function setRunStatus(runId: string, from: RunStatus[], to: RunStatus, reason: string | null = null): Promise<boolean> {
  const changed = await changeRunStatus(runId, from, to, reason);
  if (changed) log('info', FINISHED_STAMP_STATUSES.includes(to) ? 'run finished' : `run ${to}`, { runId, status: to, from: changed.from, ...(reason ? { reason } : {}) });
  return changed !== null;
}

/** completeRunIfDone, logged with the final status, the trials, how long the run ran and the reason. */
export async function completeRunIfDone(runId: string): Promise<boolean> {
  const done = await completeRun(runId);
  if (done)
    log('info', 'run finished', {
      runId,
      status: done.status,
      trials: done.trials,
      ...(done.durationMs !== null ? { durationMs: done.durationMs } : {}),
      ...(done.reason ? { reason: done.reason } : {}),
    });
  return done !== null;
}
