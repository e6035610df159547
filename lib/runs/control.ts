import type { Actor } from '../auth/roles';
import { recordAudit } from '../db/audit';
import { getRun } from '../db/runs';
import { controlRun, type ControlAction } from '../runner/control';

export type { ControlAction } from '../runner/control';

const AUDITED = { pause: 'run.paused', resume: 'run.resumed', cancel: 'run.cancelled' } as const;

/**
 * Pause, resume or cancel a run for `actor` (the run control route and `tclab pause|resume|cancel`): the
 * runner changes its status (lib/runner/control.ts), and a change made is recorded in the audit log under
 * `actor`. The caller has checked that `actor` may control runs.
 */
export async function controlRunAs(actor: Actor, runId: string, action: ControlAction): Promise<{ ok: boolean; status: string; message: string }> {
  const result = await controlRun(runId, action);
  if (result.ok) {
    const run = await getRun(runId);
    await recordAudit(actor, AUDITED[action], { runId, experimentId: run?.experimentId }, { status: result.status });
  }
  return result;
}
