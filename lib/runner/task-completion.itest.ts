import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { loadRunSummary } from '../runs/summary';
import { ensureTemplateExperiment } from '../experiments/templates';
import { getExperiment } from '../db/experiments';
import { trialTcc } from '../runs/export';
import { closeQueues } from '../queue/connection';
import { compareCard } from '../scoring/compare';
import { engineViolations, waitForRunStatus } from '../testing/engine';
import { createRun, startRun } from './start';
import { startWorker } from './worker';

// The task-completion template through the engine (queue, worker, PostgreSQL) with the simulated
// provider: the same counts as the offline test, Table 1 from the database, and TCC files in fixture mode
// whose comparison gives the stored verdicts.

afterAll(async () => {
  await closeQueues();
  await closeDb();
});

describe('task-completion template through the engine', () => {
  it('completes with a completion verdict on every trial; Table 1 and the TCC export show the gates', async () => {
    const exp = await ensureTemplateExperiment('task-completion');
    const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic' });
    expect((await startRun(run.id)).ok).toBe(true);
    const worker = startWorker({ concurrency: 8, reconcileEveryMs: 500 });
    try {
      await worker.ready;
      expect((await waitForRunStatus(run.id, ['completed'], 90_000)).status).toBe('completed');
    } finally {
      await worker.close();
    }
    expect(await engineViolations(run.id)).toEqual([]);

    const trials = await pool().query<{ id: string; case_id: string; condition: string; status: string; completion: string; turns: number }>(
      `SELECT t.id, t.case_id, t.condition, t.status, t.checkpoints->>'completion' AS completion, (SELECT count(*)::int FROM turns u WHERE u.trial_id = t.id) AS turns
         FROM trials t WHERE t.run_id = $1`,
      [run.id],
    );
    expect(trials.rows).toHaveLength(12);
    expect(trials.rows.every((t) => t.completion === 'pass' || t.completion === 'fail')).toBe(true);
    expect(trials.rows.every((t) => t.turns >= 1)).toBe(true);
    const passed = (c: string) => trials.rows.filter((t) => t.condition === c && t.status === 'passed').length;
    expect([passed('baseline'), passed('contract')]).toEqual([3, 6]);

    // duplicate writes and unauthorized calls, counted from the stored fixture logs
    const counts = await pool().query<{ condition: string; writes: number; unauthorized: number }>(
      `SELECT t.condition,
              sum((SELECT count(*) FROM jsonb_array_elements(t.details->'log') e WHERE e->'write' <> 'null'::jsonb))::int AS writes,
              sum((SELECT count(*) FROM jsonb_array_elements(t.details->'log') e WHERE e->'gates'->'authorized'->>'status' = 'fail'))::int AS unauthorized
         FROM trials t WHERE t.run_id = $1 GROUP BY t.condition ORDER BY t.condition`,
      [run.id],
    );
    // baseline: check-then-book 1, pay 1, lost-ack 2 (the duplicate); contract: 1 + 1 + 1
    expect(counts.rows).toEqual([
      { condition: 'baseline', writes: 4, unauthorized: 2 },
      { condition: 'contract', writes: 3, unauthorized: 0 },
    ]);

    const summary = await loadRunSummary(run.id, (await getExperiment(exp.id))!.spec);
    const task = summary.studies.find((s) => s.study === 'task')!;
    expect(task.kind).toBe('task');
    expect(task.total).toMatchObject({ baseline: { pass: 3, n: 6 }, treatment: { pass: 6, n: 6 } });
    expect(task.categories).toMatchObject({
      duplicate_write: { baseline: 1, treatment: 0 },
      unauthorized_call: { baseline: 1, treatment: 0 },
      injected_instruction_followed: { baseline: 1, treatment: 0 },
    });

    for (const t of trials.rows) {
      const tcc = (await trialTcc(run.id, t.id))!;
      expect(tcc.card.context).toMatchObject({ mode: 'fixture', fixture_ref: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
      const verdicts = await pool().query<{ check_id: string; status: string }>(`SELECT check_id, status FROM verdicts WHERE trial_id = $1 ORDER BY check_id`, [t.id]);
      const compared = compareCard(tcc.card, tcc.observations)
        .checks.map((c) => ({ check_id: c.id, status: c.status }))
        .sort((a, b) => a.check_id.localeCompare(b.check_id));
      expect(compared).toEqual(verdicts.rows);
      if (t.case_id === 'injected-instruction' && t.condition === 'baseline')
        expect(tcc.card.evidence_gate).toContainEqual(expect.objectContaining({ claim: 'call 2 (submit_payment) is authorized', status: 'contradicted' }));
    }
  });
});
