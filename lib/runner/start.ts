import { RunSettings, type RunSettingsInput } from '../schema/run';
import { parseOrThrow, SpecError } from '../schema/common';
import { buildRequest, expandTrials } from '../design/matrix';
import { getExperiment } from '../db/experiments';
import { getRun, insertRun, newRunId, setRunStatus, type RunRow } from '../db/runs';
import { insertTrials, pendingTrialIds } from '../db/trials';
import { insertPrecheckAttempt } from '../db/attempts';
import { getProvider } from '../providers/registry';
import { describeProviderFailure } from '../providers/precheck';
import { enqueueTrials, type EnqueueOptions } from '../queue/enqueue';
import { primeRunContext } from './context';

/** Write the run and all its trial rows first; nothing is enqueued until pre-checks pass. */
export async function createRun(experimentId: string, settingsInput: RunSettingsInput | unknown): Promise<RunRow> {
  const exp = await getExperiment(experimentId);
  if (!exp) throw new SpecError(`experimentId: no experiment "${experimentId}"`, [{ path: 'experimentId', message: 'not found' }]);
  const settings = parseOrThrow(RunSettings, settingsInput ?? {}, 'run settings');
  try {
    getProvider(settings.provider);
  } catch (e) {
    throw new SpecError(`provider: ${(e as Error).message}`, [{ path: 'provider', message: (e as Error).message }]);
  }
  const trials = expandTrials(exp.spec);
  const run = await insertRun({ id: newRunId(), experimentId, settings, totalTrials: trials.length });
  await insertTrials(run.id, trials);
  return run;
}

export type StartResult = { ok: true } | { ok: false; reason: string };

/**
 * Pre-checks, then enqueue. Idempotent: a retried start job continues where the last one stopped, and a
 * run already running only gets its missing jobs re-added (same job ids).
 */
export async function startRun(runId: string): Promise<StartResult> {
  const run = await getRun(runId);
  if (!run) return { ok: false, reason: `run ${runId} not found` };
  if (run.status === 'running') {
    await enqueuePending(runId);
    return { ok: true };
  }
  if (!(await setRunStatus(runId, ['created', 'prechecking'], 'prechecking'))) return { ok: false, reason: `run is ${run.status}` };
  const exp = await getExperiment(run.experimentId);
  if (!exp) return fail(runId, `experiment ${run.experimentId} not found`);
  const provider = getProvider(run.settings.provider);
  for (const pc of exp.spec.prechecks) {
    const request = buildRequest(exp.spec, { study: pc.study, caseId: pc.caseId, condition: pc.condition });
    const result = await provider.send(request, { settings: run.settings });
    const n = await insertPrecheckAttempt(runId, result);
    if (result.outcome !== 'ok') return fail(runId, `pre-check ${n} failed: ${describeProviderFailure(result, run.settings.provider)}`);
  }
  if (!(await setRunStatus(runId, ['prechecking'], 'running'))) return { ok: false, reason: 'run changed state during pre-checks' };
  primeRunContext(runId, exp.spec, run.settings); // the first trials are often taken by this very process
  // first chunk: what the run can have in flight (a worker starts what it fetched once the queue is empty)
  await enqueuePending(runId, { first: run.settings.concurrency, waitForPickup: true });
  return { ok: true };
}

async function fail(runId: string, reason: string): Promise<StartResult> {
  await setRunStatus(runId, ['created', 'prechecking'], 'failed', reason);
  return { ok: false, reason };
}

/** (Re-)add a job for every trial that is not final; BullMQ ignores ids that already have a job. */
export async function enqueuePending(runId: string, opts?: EnqueueOptions): Promise<number> {
  const pending = await pendingTrialIds(runId);
  const now = Date.now();
  await enqueueTrials(
    pending.map((p) => ({ trialId: p.id, runId, delayMs: p.notBefore ? p.notBefore.getTime() - now : undefined })),
    opts,
  );
  return pending.length;
}
