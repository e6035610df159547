import type { Actor } from '../auth/roles';
import { recordAudit } from '../db/audit';
import type { RunRow } from '../schema/run-row';
import { enqueueRunStart } from '../queue/enqueue';
import { createRuns, startRun, type StartResult } from '../runner/start';
import type { SpendConfirmation } from '../runner/spend';
import type { RunBudgetInput, RunSettingsInput, RunTarget } from '../schema/run';
import type { RunLabel } from '../schema/run-label';
import { labelRun } from './label';

// Use case: start runs of a stored experiment version — the one place a run is created and started, for the
// Run dialog and `tclab run` alike (docs/architecture.md). The door has checked that `actor` may control runs.

/** What a person asks for when they start runs: the version, the settings, the targets and what they allow. */
export interface StartRequest {
  experimentId: string;
  settings: RunSettingsInput;
  /** one run per provider/model target (none or one: a plain run), docs/compare.md */
  targets: readonly RunTarget[];
  /** the confirmation of a run past the spend thresholds (lib/runner/spend.ts) */
  confirm?: SpendConfirmation;
  /** what the runs may spend; the engine stops sending once it is reached */
  budget?: RunBudgetInput | null;
  /** a name and note given at the start (stored and audited as `run.labelled`) */
  label?: RunLabel;
  /** what else the `run.started` entry says (the optimisation loop names its stage) */
  auditDetail?: Record<string, unknown>;
  /** the runs' ids and group, chosen by the caller (lib/runner/start.ts CreateRunOptions) */
  ids?: readonly string[];
  groupId?: string | null;
}

/**
 * How the pre-checks run: `queue` hands each run's start to a worker (the Run dialog: the page returns at
 * once); `here` runs them in this process, one run after another (`tclab run`: the command says at once
 * whether a run could not start).
 */
export type StartWhere = 'queue' | 'here';

export interface StartedRun {
  run: RunRow;
  /** `here`: the pre-checks' result; `queue`: `{ ok: true }` once the start is enqueued */
  start: StartResult;
}

/**
 * Create one run per target (every target checked, and the spend guard applied, before anything is stored:
 * SpecError / SpendConfirmationRequired), label them, record `run.started` under `actor` for each, then start
 * them. `onCreated` sees the runs once all are stored and before any starts (the CLI prints them).
 */
export async function startRuns(
  actor: Actor,
  request: StartRequest,
  where: StartWhere,
  onCreated: (runs: readonly RunRow[]) => Promise<void> | void = () => undefined,
): Promise<StartedRun[]> {
  const runs = await createRuns(request.experimentId, request.settings, request.targets, {
    confirm: request.confirm,
    budget: request.budget ?? null,
    ids: request.ids,
    groupId: request.groupId,
  });
  const label = request.label;
  for (const run of runs) {
    if (label && (label.name !== null || label.note !== null)) await labelRun(actor, run.id, label);
    await recordAudit(actor, 'run.started', { experimentId: request.experimentId, runId: run.id }, { provider: run.provider, model: run.model, ...request.auditDetail });
  }
  await onCreated(runs);
  const started: StartedRun[] = [];
  for (const run of runs) {
    if (where === 'queue') {
      await enqueueRunStart(run.id);
      started.push({ run, start: { ok: true } });
    } else started.push({ run, start: await startRun(run.id) });
  }
  return started;
}
