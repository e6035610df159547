import { afterAll, describe, expect, it } from 'vitest';
import { pool } from '../db/client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { getExperiment } from '../db/experiments';
import { loadRunSummary } from '../runs/summary';
import { loadStoppingReport } from '../runs/stopping';
import { getRun } from '../db/runs';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { engineViolations, runCli, waitForRunStatus } from '../testing/engine';
import { RunExport } from '../schema/run-export';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { createRun, startRun } from './start';
import { startWorker, type WorkerHandle } from './worker';

// Stop when decided (docs/statistics.md) on the reference study with the simulated provider: the same run with
// and without the option. The stopped run must reach the decision of the full run with fewer requests
// (counted from the attempts table), and record every trial it sent exactly once.

let worker: WorkerHandle | undefined;
afterAll(async () => {
  await worker?.close();
});

async function formalAttempts(runId: string): Promise<number> {
  const r = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [runId]);
  return r.rows[0].n;
}

async function finished(settings: Record<string, unknown>): Promise<string> {
  const exp = await ensureTemplateExperiment('reference-study');
  const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic', ...settings });
  expect((await startRun(run.id)).ok).toBe(true);
  worker ??= startWorker({ concurrency: 16 });
  const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES]);
  expect(final.status).toBe('completed');
  expect(await engineViolations(run.id)).toEqual([]);
  return run.id;
}

describe('stop when decided', () => {
  it('stops the reference study early with the decision of the full run, and saves requests', async () => {
    const fullId = await finished({});
    const stopId = await finished({ stopWhenDecided: { seed: 7 } });
    const stopRun = (await getRun(stopId))!;
    expect(stopRun.settings.stopWhenDecided).toEqual({ alpha: 0.05, precision: null, seed: 7 });
    const exp = (await getExperiment(stopRun.experimentId))!;

    // the order is the stored one: one batch per pair, both members in it
    const batches = await pool().query<{ batch: number; n: number; pairs: number }>(
      `SELECT batch, count(*)::int AS n, count(DISTINCT pair_key)::int AS pairs FROM trials WHERE run_id = $1 GROUP BY batch`,
      [stopId],
    );
    expect(batches.rows.every((b) => b.n === 2 && b.pairs === 1)).toBe(true);

    const full = await loadRunSummary(fullId, exp.spec, 'case');
    const report = (await loadStoppingReport(stopRun, exp.spec))!;
    expect(report.studies.map((s) => s.study)).toEqual(['selection', 'interpretation']);
    for (const s of report.studies) {
      const f = full.studies.find((x) => x.study === s.study)!;
      // the full run's decision: exact McNemar at α, and its direction
      expect(f.mcnemar!.pExact).toBeLessThan(0.05);
      expect(f.mcnemar!.b).toBeGreaterThan(f.mcnemar!.c);
      // the stopped run's: decided by its e-value, in the same direction, before every pair was sent
      expect(s.stopped).toBe(true);
      const d = s.comparisons[0].decision!;
      expect(d.reason).toBe('e-value');
      expect(d.improved).toBeGreaterThan(d.regressed);
      expect(d.maxEValue).toBeGreaterThanOrEqual(d.threshold!);
      expect(s.decidedAfterPairs!).toBeLessThan(s.plannedPairs);
      expect(s.headline).toBe(`stopped: decided after ${s.decidedAfterPairs} pairs of ${s.plannedPairs}`);
      // the anytime-valid interval (conservative: Hoeffding) covers the full run's paired difference
      const cs = s.comparisons[0].anytimeValid.interval;
      expect(cs.lo).toBeLessThanOrEqual(f.difference!.estimate!);
      expect(cs.hi).toBeGreaterThanOrEqual(f.difference!.estimate!);
    }

    // requests saved, from the database: formal attempts of each run, and the trials never sent
    const [sentFull, sentStop] = await Promise.all([formalAttempts(fullId), formalAttempts(stopId)]);
    const cancelled = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND status = 'cancelled' AND attempt_count = 0`, [
      stopId,
    ]);
    expect(sentFull).toBe(152);
    expect(sentStop).toBe(152 - cancelled.rows[0].n);
    expect(report.trialsNotSent).toBe(cancelled.rows[0].n);
    expect(sentStop).toBeLessThan(sentFull);
    console.log(
      `stop when decided, reference study (seed 7): ${sentStop} of ${sentFull} requests sent (${sentFull - sentStop} saved); ${report.studies.map((s) => `${s.study}: ${s.headline}`).join('; ')}`,
    );
  });

  it('tclab run --stop-when-decided says when and why each study stopped, and the JSON export carries it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tclab-stop-'));
    const file = path.join(dir, 'run.json');
    const r = await runCli(['run', '--template', 'reference-study', '--stop-when-decided', '--stop-seed', '7', '--out', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Stop when decided (α = 0.05, order seed 7)');
    expect(r.stdout).toMatch(/selection: stopped: decided after \d+ pairs of 48/);
    expect(r.stdout).toMatch(/clear: e-value [\d.]+ ≥ 40 \(1\/α = 20, Holm across the run's comparisons\)/);
    expect(r.stdout).toContain('anytime-valid 95% confidence sequence');
    expect(r.stdout).toContain('fixed-n 95% interval');
    const doc = RunExport.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(doc.run.stopWhenDecided).toEqual({ alpha: 0.05, precision: null, seed: 7 });
    expect(doc.stopping!.studies.every((s) => s.stopped && s.headline!.startsWith('stopped: decided after'))).toBe(true);
    // the export's count of trials not sent is the database's
    const notSent = doc.trials.filter((t) => t.status === 'cancelled').length;
    expect(doc.stopping!.trialsNotSent).toBe(notSent);
    expect(notSent).toBeGreaterThan(0);
    // bad input names the flag
    const bad = await runCli(['run', '--template', 'reference-study', '--stop-precision', '10']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--stop-precision and --stop-seed need --stop-when-decided');
  }, 300_000); // two CLI processes, each loading the bundle
});
