import { RUN_CONTROL, type ControlAction } from '../schema/run-status';
import { getRun } from '../db/runs';
import { setRunStatus } from './run-events';
import { cancelQueuedTrials } from '../db/trials';
import { clearHalt, haltRun } from '../queue/halt';
import { enqueuePending, startRun } from './start';

export type { ControlAction } from '../schema/run-status';

/**
 * Pause stops claims (workers drop jobs of a paused run; their trials stay queued) and, through the run's
 * halt key, the sending of trials already claimed and waiting for a slot (their claims are given back).
 * Resume re-adds the jobs; a run that never started (paused while prechecking, or left prechecking by a
 * process that died) first finishes its pre-checks here. Cancel stops new requests: queued trials become cancelled; what was sent stays
 * recorded.
 */
export async function controlRun(runId: string, action: ControlAction): Promise<{ ok: boolean; status: string; message: string }> {
  const run = await getRun(runId);
  if (!run) return { ok: false, status: 'missing', message: `run ${runId} not found` };
  if (action === 'pause') {
    const ok = await setRunStatus(runId, [...RUN_CONTROL.pause.from], RUN_CONTROL.pause.to);
    if (ok) await haltRun(runId);
    return { ok, status: ok ? 'paused' : run.status, message: ok ? 'paused: no new requests until resumed' : `cannot pause a ${run.status} run` };
  }
  if (action === 'resume') {
    // A run stopped by a configuration error (it had started) may resume once that is fixed; a run
    // whose pre-checks failed never started: it needs a new run, with new pre-checks.
    if (run.status === 'failed' && !run.startedAt) return { ok: false, status: run.status, message: 'its pre-checks failed, so it never started: start a new run' };
    if (!RUN_CONTROL.resume.from.includes(run.status)) return { ok: false, status: run.status, message: `cannot resume a ${run.status} run` };
    if (!run.startedAt && (run.status === 'prechecking' || run.status === 'paused')) {
      // never started: its pre-checks are finished here (taken over if their process is gone), then its trials enqueued
      await clearHalt(runId);
      const r = await startRun(runId, { from: ['prechecking', 'paused'] });
      const now = (await getRun(runId))?.status ?? run.status;
      return { ok: r.ok, status: now, message: r.ok ? 'resumed: pre-checks passed, trials enqueued' : `cannot resume: ${r.reason}` };
    }
    await clearHalt(runId); // first: a run marked running must not keep refusing its own slots
    const ok = await setRunStatus(runId, [...RUN_CONTROL.resume.from], RUN_CONTROL.resume.to);
    if (ok) await enqueuePending(runId);
    return { ok, status: ok ? 'running' : run.status, message: ok ? 'resumed' : `cannot resume a ${run.status} run` };
  }
  const ok = await setRunStatus(runId, [...RUN_CONTROL.cancel.from], RUN_CONTROL.cancel.to, 'cancelled by user');
  if (ok) await haltRun(runId);
  const n = ok ? await cancelQueuedTrials(runId) : 0;
  return { ok, status: ok ? 'cancelled' : run.status, message: ok ? `cancelled; ${n} queued trials will not be sent` : `cannot cancel a ${run.status} run` };
}
