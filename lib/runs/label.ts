import type { Actor } from '../auth/roles';
import { recordAudit } from '../db/audit';
import { getRun, setRunLabel } from '../db/runs';
import { SpecError } from '../schema/common';
import { parseRunLabel, type RunLabel } from '../schema/run-label';

/**
 * Name and note a run (any status: a label says what the run was for, it changes nothing of the run).
 * Checked (SpecError naming `name` / `note`), stored, and recorded in the audit log under `actor` with the
 * values before and after. The caller has checked that `actor` may control runs.
 */
export async function labelRun(actor: Actor, runId: string, input: unknown): Promise<RunLabel> {
  const label = parseRunLabel(input);
  const run = await getRun(runId);
  if (!run) throw new SpecError(`runId: no run "${runId}"`, [{ path: 'runId', message: 'not found' }]);
  await setRunLabel(runId, label);
  await recordAudit(actor, 'run.labelled', { runId, experimentId: run.experimentId }, { name: label.name, note: label.note, before: { name: run.name, note: run.note } });
  return label;
}
