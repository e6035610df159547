import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { saveExperiment } from '../experiments/versions';
import { loadRunSummary } from '../runs/summary';
import { createRun, startRun } from '../runner/start';
import { startWorker, type WorkerHandle } from '../runner/worker';
import { closeQueues } from '../queue/connection';
import { waitForRunStatus } from '../testing/engine';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { getTemplate } from '../templates';
import { proposeAblations, withAblations } from '../design/ablations';

// Single-field ablations of the reference study's selection study run offline (simulated provider, the real
// queue and worker) and each ablation condition gets its paired comparison with the baseline, beside the
// full treatment's.

let worker: WorkerHandle | undefined;
afterAll(async () => {
  await worker?.close();
  await closeQueues();
  await closeDb();
});

describe('ablations of the reference study', () => {
  it('run offline; each condition is paired with the baseline (improved / same / regressed, McNemar)', async () => {
    const reference = getTemplate('reference-study').build();
    const selection = reference.studies.find((s) => s.id === 'selection')!;
    const proposals = proposeAblations(selection, 'clear');
    expect(proposals.map((p) => p.condition.id)).toEqual(['clear-only-names', 'clear-only-descriptions', 'clear-only-parameters']);
    const spec = {
      ...withAblations(reference, 'selection', proposals),
      id: 'reference-ablations-itest',
      studies: withAblations(reference, 'selection', proposals).studies.filter((s) => s.id === 'selection'),
      prechecks: [],
    };
    const exp = await saveExperiment(spec);
    const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic' });
    const started = await startRun(run.id);
    expect(started.ok).toBe(true);
    worker = startWorker({ concurrency: 16 });
    const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES]);
    expect(final.status).toBe('completed');
    const summary = await loadRunSummary(run.id, spec);
    const ablation = summary.ablations?.find((a) => a.study === 'selection');
    expect(ablation?.baseline).toBe('overlapping');
    expect(ablation!.conditions.map((c) => c.condition).sort()).toEqual(['clear', 'clear-only-descriptions', 'clear-only-names', 'clear-only-parameters']);
    for (const c of ablation!.conditions) {
      expect(c.pairs.improved + c.pairs.same + c.pairs.regressed + c.pairs.incomplete).toBe(48);
      expect(c.baseline.n + c.baseline.unresolved + c.baseline.untested).toBe(48);
      if (c.pairs.improved + c.pairs.regressed > 0) expect(c.mcnemar).not.toBeNull();
    }
  });
});
