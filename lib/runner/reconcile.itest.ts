import { afterAll, describe, expect, it } from 'vitest';
import { ensureTemplateExperiment } from '../experiments/templates';
import { activeRunIds, pendingBatchesByRun } from '../db/runs';
import { queues } from '../queue/connection';
import { trialJobId, JOB_NAMES } from '../queue/contracts';
import { createRun, startRun } from './start';
import { controlRun } from './control';
import { reconcile } from './reconcile';

// Reconcile gives a batch its job back when the job is gone and its trials are still pending — batch by
// batch: open jobs of other runs (a cancelled run's delayed retries, a run of another database on the same
// queue prefix) used to count as this run's, and hid the missing one (cli/db-restart.itest.ts saw it once).
// No worker runs here: the queue holds what startRun added, less the job this test removes.

const staleRun = `stale-${process.pid}-${Date.now()}`;
const staleIds: string[] = [];
let runId: string | undefined;

afterAll(async () => {
  const { trials } = queues();
  await Promise.all(staleIds.map((id) => trials.remove(id)));
  if (runId) await controlRun(runId, 'cancel');
});

describe('reconcile', () => {
  it('re-adds the job of a pending batch that has none, however many jobs of other runs are open', async () => {
    const exp = await ensureTemplateExperiment('reference-study');
    const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic' });
    runId = run.id;
    expect((await startRun(run.id)).ok).toBe(true);
    const { trials } = queues();
    const lost = trialJobId(run.id, 0);
    expect(await trials.getJobState(lost)).toBe('waiting');
    expect(await trials.remove(lost)).toBe(1);
    expect(await trials.getJobState(lost)).toBe('unknown');

    // more open jobs than every running run has pending batches: delayed jobs of a run this database does not have
    const pending = [...(await pendingBatchesByRun(await activeRunIds())).values()].reduce((n, b) => n + b.length, 0);
    for (let b = 0; b <= pending; b++) staleIds.push(trialJobId(staleRun, b));
    await trials.addBulk(
      staleIds.map((jobId, b) => ({ name: JOB_NAMES.trial, data: { runId: staleRun, batch: b, trialIds: [`${staleRun}-t${b}`] }, opts: { jobId, delay: 3_600_000 } })),
    );

    const r = await reconcile();
    expect(r.pending).toBeGreaterThanOrEqual(1);
    expect(await trials.getJobState(lost)).toBe('waiting');
    // the stale jobs are left alone: they are another run's (its worker, when it takes them, finds nothing to do)
    expect(await trials.getJobState(staleIds[0])).toBe('delayed');

    // nothing missing: a second pass adds nothing
    expect((await reconcile()).pending).toBe(0);
  });
});
