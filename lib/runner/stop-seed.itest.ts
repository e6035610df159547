import { afterAll, describe, expect, it } from 'vitest';
import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { ensureTemplateExperiment } from '../experiments/templates';
import { loadStoppingReport } from '../runs/stopping';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { engineViolations, waitForRunStatus } from '../testing/engine';
import { createRun, startRun } from './start';
import { startWorker, type WorkerHandle } from './worker';

// A stop is a function of the stored order (docs/statistics.md › Stop when decided): the reference study on the
// simulated provider, stopped when decided with one seed, five times, worked by a worker holding 16 trials at
// once (answers arrive in whatever order they come back). Every run stops each study at the same pair with the
// same decision; the requests saved differ at most by the pairs in flight at the decision (they finish and are kept).

let worker: WorkerHandle | undefined;
afterAll(async () => {
  await worker?.close();
});

const SEED = 2024;

async function stoppedRun(): Promise<string> {
  const exp = await ensureTemplateExperiment('reference-study');
  const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic', stopWhenDecided: { precision: null, seed: SEED } });
  expect((await startRun(run.id)).ok).toBe(true);
  worker ??= startWorker({ concurrency: 16 });
  const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES]);
  expect(final.status).toBe('completed');
  expect(await engineViolations(run.id)).toEqual([]);
  return run.id;
}

describe('five times the same stop seed', () => {
  it('stops every study at the same pair with the same decision', async () => {
    const outcomes: string[] = [];
    const saved: number[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await stoppedRun();
      const run = (await getRun(id))!;
      const exp = (await getExperiment(run.experimentId))!;
      const report = (await loadStoppingReport(run, exp.spec))!;
      expect(report.studies.every((s) => s.stopped)).toBe(true);
      outcomes.push(
        JSON.stringify(
          report.studies.map((s) => {
            const d = s.comparisons[0].decision!;
            return { study: s.study, pairs: s.decidedAfterPairs, reason: d.reason, improved: d.improved, regressed: d.regressed, e: d.maxEValue };
          }),
        ),
      );
      saved.push(report.trialsNotSent);
    }
    console.log(`stop seed ${SEED}, five runs: ${outcomes[0]}; trials not sent: ${saved.join(', ')}`);
    expect(new Set(outcomes).size).toBe(1);
    // the requests saved: the pairs in flight at the decision finish (as many as the worker holds at most), the
    // rest are never sent — so the counts differ by no more than the worker's 16 trials in flight
    expect(Math.max(...saved) - Math.min(...saved)).toBeLessThanOrEqual(16);
    expect(Math.min(...saved)).toBeGreaterThan(0);
  }, 300_000);
});
