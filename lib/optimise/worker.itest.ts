import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { closeDb, pool } from '../db/client';
import { getOptimisation } from '../db/optimisations';
import { getExperiment } from '../db/experiments';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { SIMULATED_ENGINE, SIMULATED_GENERIC_PREFERRING } from '../simulator';
import { closeQueues } from '../queue/connection';
import { enqueueOptimisation } from '../queue/enqueue';
import { startWorker, type WorkerHandle } from '../runner/worker';
import type { OptimisationRow } from '../schema/optimisation';
import { advanceOptimisation, startOptimisation, storeOptimisation } from './loop';
import { setSelectRun } from '../db/optimisations';
import { getRun, newRunId } from '../db/runs';
import { createRun } from '../runner/start';

// The loop in the worker (docs/optimise.md "The loop, stored"): startOptimisation stores the record and queues
// its advance; the worker continues it from what PostgreSQL holds. The job delivered again — queued twice,
// and advanced at the same time in this process, and once more after the record is final — starts no second
// select run and no second confirm run.

const actor = commandLineActor('optimise-worker-test');
let worker: WorkerHandle;

beforeAll(async () => {
  worker = startWorker({ concurrency: 8, advanceOptimisation });
  await worker.ready;
});
afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

/** The record once its stage is final, read from PostgreSQL as the record's page reads it. */
async function finalRecord(id: string): Promise<OptimisationRow> {
  for (;;) {
    const r = await getOptimisation(id);
    if (r && ['confirmed', 'no-winner', 'failed'].includes(r.stage)) return r;
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** An advance of the record in this process, asked again while another holder (the worker) has it. */
async function advanceWhenFree(id: string): Promise<OptimisationRow> {
  for (;;) {
    const r = await advanceOptimisation(id);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
}

const runsOf = async (experimentId: string) =>
  (await pool().query<{ id: string; provider: string; model: string }>('SELECT id, provider, model FROM runs WHERE experiment_id = $1 ORDER BY id', [experimentId])).rows;

describe('the loop in the worker', () => {
  it('the job delivered twice yields one select run and one confirm run per target', async () => {
    // the template under an id of this test's own: the integration files share one database, and the select and
    // confirm versions (and their runs) are derived from the source's id — another file's loop on the template
    // would add its runs to the ones counted here
    const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
    const exp = await saveExperiment({ ...structuredClone(template), id: `politely-ignored-worker-${process.pid}` });
    const targets = [
      { provider: 'simulated' as const, model: SIMULATED_GENERIC_PREFERRING },
      { provider: 'simulated' as const, model: SIMULATED_ENGINE },
    ];
    const started = await startOptimisation(actor, { experimentId: exp.id, study: 'selection', targets });
    expect(started.stage).toBe('select');
    expect(started.selectRunId).toBeNull();
    // a second delivery, and an advance in this process beside the worker's
    await enqueueOptimisation(started.id);
    const beside = await advanceOptimisation(started.id).catch((e: unknown) => e);
    const record = await finalRecord(started.id);
    expect(record.stage).toBe('confirmed');
    if (beside !== null) expect(beside).toEqual(record);
    // once final, another delivery changes nothing (the worker may hold the record while it reads the delivery: the
    // advance here is then refused, null, and is asked again once the record is free)
    await enqueueOptimisation(started.id);
    expect(await advanceWhenFree(started.id)).toEqual(record);

    const selectRuns = await runsOf(record.selectExperimentId!);
    expect(selectRuns.map((r) => r.id)).toEqual([record.selectRunId]);
    const confirmRuns = await runsOf(record.confirmExperimentId!);
    expect(confirmRuns.map((r) => r.id).sort()).toEqual([...record.confirmRunIds!].sort());
    expect(confirmRuns.map((r) => `${r.provider}:${r.model}`).sort()).toEqual(targets.map((t) => `${t.provider}:${t.model}`).sort());
    expect(record.result!.confirm.map((c) => c.runId).sort()).toEqual([...record.confirmRunIds!].sort());
    // the confirmation's runs are one group, as any run of several models
    const groups = await Promise.all(record.confirmRunIds!.map(async (id) => (await getRun(id))!.groupId));
    expect(groups[0]).not.toBeNull();
    expect(new Set(groups).size).toBe(1);
  }, 240_000);

  it('an advance stopped after storing a run id, before the run was created or before it started, is continued by the next with that run alone', async () => {
    const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
    const exp = await saveExperiment({ ...structuredClone(template), id: `politely-ignored-stop-${process.pid}` });
    const target = { provider: 'simulated' as const, model: SIMULATED_GENERIC_PREFERRING };
    const input = { experimentId: exp.id, study: 'selection', targets: [target], actor };
    // a first record, whole: its select version is the one the next records of the same split derive again
    const first = await advanceOptimisation((await storeOptimisation(input)).id);
    const selectVersion = first!.selectExperimentId!;

    // stopped after the select run's id was stored, before the run was created
    const notCreated = await storeOptimisation(input);
    const idA = newRunId();
    await setSelectRun(notCreated.id, selectVersion, idA);
    expect(await getRun(idA)).toBeNull();
    const a = await advanceOptimisation(notCreated.id);
    expect(a!.stage).toBe('confirmed');
    expect(a!.selectRunId).toBe(idA);
    expect((await getRun(idA))!.status).toBe('completed');

    // stopped after the run was created under the stored id, before it started
    const notStarted = await storeOptimisation(input);
    const idB = newRunId();
    await setSelectRun(notStarted.id, selectVersion, idB);
    await createRun(selectVersion, target, { ids: [idB] });
    expect((await getRun(idB))!.status).toBe('created');
    const b = await advanceOptimisation(notStarted.id);
    expect(b!.stage).toBe('confirmed');
    expect(b!.result!.select!.runId).toBe(idB);
    expect((await getRun(idB))!.status).toBe('completed');

    // the select version holds the three records' runs and no other: nothing created twice, nothing left unstarted
    expect((await runsOf(selectVersion)).map((r) => r.id).sort()).toEqual([first!.selectRunId, idA, idB].sort());
    expect(b!.result!.select!.ranked).toEqual(a!.result!.select!.ranked);
  }, 240_000);
});
