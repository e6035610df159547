import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { closeQueues } from '../queue/connection';
import { getExperiment } from './experiments';
import { trialOutcomes } from './results';
import { reviewAgreement, reviewedOutcomes, runReviews, saveReview } from './reviews';
import { summarizeRun } from '../analysis/summary';
import { runProgress, runsProgress } from './runs';
import type { WorkerHandle } from '../runner/worker';
import { completedReferenceRun } from '../testing/engine';
import { reviewPairs } from '../analysis/review';
import { SpecError } from '../schema/common';
import type { Actor } from '../auth/roles';
import { RunExport } from '../schema/run-export';
import { checksCsvStream, runJsonStream } from '../runs/export';
import { parse } from 'csv-parse/sync';
import type { Readable } from 'node:stream';

async function text(stream: Readable): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

// Reviews of a finished run of the reference study (simulated provider): stored beside the verdicts,
// which never change; agreement counted from them; bad input names its field and stores nothing.

/** A reviewer's account (the actor the door passes). */
const who = (name: string): Actor => ({ kind: 'user', userId: `u_${name}`, email: `${name}@lab.example`, name, role: 'reviewer' });

let worker: WorkerHandle;
let runId: string;

beforeAll(async () => {
  ({ runId, worker } = await completedReferenceRun());
}, 120_000);

afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

/** The first verdict (by trial id, check id) with this status in a trial with that status: each kind comes
 * from a trial of its own, whatever the run id (a failed trial also holds passed checks). */
async function verdict(status: 'pass' | 'fail' | 'untested', trialStatus: 'passed' | 'failed' | null) {
  const r = await pool().query<{ trial_id: string; check_id: string; status: string; reason: string }>(
    `SELECT v.trial_id, v.check_id, v.status, v.reason FROM verdicts v JOIN trials t ON t.id = v.trial_id
      WHERE t.run_id = $1 AND v.status = $2 AND ($3::text IS NULL OR t.status = $3) ORDER BY v.trial_id, v.check_id LIMIT 1`,
    [runId, status, trialStatus],
  );
  expect(r.rows, `a ${status} verdict of a ${trialStatus ?? 'any'} trial`).toHaveLength(1);
  return r.rows[0];
}

describe('reviews', () => {
  it('stores a reviewer reading beside the verdict, replaces it on a second review, and counts agreement', async () => {
    const failed = await verdict('fail', 'failed');
    const passed = await verdict('pass', 'passed');
    const before = await pool().query('SELECT * FROM verdicts WHERE trial_id = $1 ORDER BY check_id', [failed.trial_id]);

    const override = await saveReview({ runId, trialId: failed.trial_id, checkId: failed.check_id, humanStatus: 'pass', note: 'asked for the id: fine' }, who('ab'));
    expect(override).toMatchObject({ graderStatus: 'fail', humanStatus: 'pass', reviewer: 'ab@lab.example', note: 'asked for the id: fine' });
    await saveReview({ runId, trialId: passed.trial_id, checkId: passed.check_id, humanStatus: 'pass' }, who('ab'));
    expect(await reviewAgreement(runId)).toEqual({ reviewed: 2, agreed: 1, overriddenToPass: 1, overriddenToFail: 0 });

    // a second reading of the same check replaces the first
    await saveReview({ runId, trialId: failed.trial_id, checkId: failed.check_id, humanStatus: 'fail' }, who('cd'));
    expect(await reviewAgreement(runId)).toEqual({ reviewed: 2, agreed: 2, overriddenToPass: 0, overriddenToFail: 0 });
    expect((await runReviews(runId, [failed.trial_id])).map((r) => [r.checkId, r.humanStatus, r.reviewer])).toEqual([[failed.check_id, 'fail', 'cd@lab.example']]);

    // the formal result is untouched
    expect((await pool().query('SELECT * FROM verdicts WHERE trial_id = $1 ORDER BY check_id', [failed.trial_id])).rows).toEqual(before.rows);

    // both exports carry the reading beside the verdict
    const json = await text(await runJsonStream(runId));
    const doc = RunExport.parse(JSON.parse(json));
    // the reading's fields in the order the exports have always written them (the database's jsonb key order)
    expect(json).toMatch(/"review":\{"note":"","reviewer":"cd@lab\.example","reviewedAt":"[^"]+","humanStatus":"fail","graderStatus":"fail"\}/);
    const v = doc.trials.find((t) => t.id === failed.trial_id)!.verdicts.find((x) => x.checkId === failed.check_id)!;
    expect(v).toMatchObject({ status: 'fail', review: { humanStatus: 'fail', graderStatus: 'fail', reviewer: 'cd@lab.example', note: '' } });
    expect(Date.parse(v.review!.reviewedAt)).not.toBeNaN();
    const rows = parse(await text(await checksCsvStream(runId)), { columns: true }) as Record<string, string>[];
    expect(rows.find((r) => r.trialId === failed.trial_id && r.checkId === failed.check_id)).toMatchObject({
      status: 'fail',
      reviewStatus: 'fail',
      reviewer: 'cd@lab.example',
    });
    expect(rows.filter((r) => r.reviewStatus !== '')).toHaveLength(2);
  });

  it('shows what the readings would change: a trial whose one failed check is read as a pass passes in the reviewed view only', async () => {
    const r = await pool().query<{ id: string; check_id: string }>(
      `SELECT t.id, min(v.check_id) FILTER (WHERE v.status = 'fail') AS check_id FROM trials t JOIN verdicts v ON v.trial_id = t.id
        WHERE t.run_id = $1 AND t.status = 'failed' AND NOT EXISTS (SELECT 1 FROM reviews x WHERE x.trial_id = t.id)
        GROUP BY t.id HAVING count(*) FILTER (WHERE v.status = 'fail') = 1 AND count(*) FILTER (WHERE v.status = 'untested') = 0
        ORDER BY t.id LIMIT 1`,
      [runId],
    );
    const { id, check_id } = r.rows[0];
    const before = await reviewedOutcomes(runId);
    await saveReview({ runId, trialId: id, checkId: check_id, humanStatus: 'pass' }, who('ef'));
    const after = await reviewedOutcomes(runId);
    expect(after.changed).toBe(before.changed + 1);
    expect(after.outcomes.find((t) => t.id === id)!.status).toBe('passed');
    expect((await trialOutcomes(runId)).find((t) => t.id === id)!.status).toBe('failed'); // the formal result stays
    const exp = await getExperiment((await pool().query<{ experiment_id: string }>('SELECT experiment_id FROM runs WHERE id = $1', [runId])).rows[0].experiment_id);
    const pass = (outcomes: typeof after.outcomes) => summarizeRun(exp!.spec, outcomes).studies.reduce((n, s) => n + s.total.baseline.pass + s.total.treatment.pass, 0);
    expect(pass(after.outcomes)).toBe(pass(await trialOutcomes(runId)) + 1);
  });

  it('refuses bad input with the field named and stores nothing', async () => {
    const failed = await verdict('fail', 'failed');
    const count = async () => (await reviewAgreement(runId)).reviewed;
    const n = await count();
    const reasons = async (input: Parameters<typeof saveReview>[0]) => {
      const e = await saveReview(input, who('ab')).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(SpecError);
      return (e as SpecError).issues.map((i) => i.path);
    };
    expect(await reasons({ runId, trialId: failed.trial_id, checkId: failed.check_id, humanStatus: 'maybe' as 'pass' })).toEqual(['humanStatus']);
    expect(await reasons({ runId, trialId: failed.trial_id, checkId: 'no-such-check', humanStatus: 'pass' })).toEqual(['checkId']);
    expect(await reasons({ runId: 'r_other', trialId: failed.trial_id, checkId: failed.check_id, humanStatus: 'pass' })).toEqual(['checkId']);
    // the simulated run scores every check: an untested verdict is added for this check and removed after
    await pool().query(
      `INSERT INTO verdicts (trial_id, check_id, axis, status, category, reason, evidence) VALUES ($1, 'no-evidence', 'task_fit', 'untested', NULL, 'no evidence', '{}')`,
      [failed.trial_id],
    );
    try {
      const untested = await verdict('untested', null);
      expect(await reasons({ runId, trialId: untested.trial_id, checkId: untested.check_id, humanStatus: 'pass' })).toEqual(['checkId']);
    } finally {
      await pool().query(`DELETE FROM verdicts WHERE trial_id = $1 AND check_id = 'no-evidence'`, [failed.trial_id]);
    }
    expect(await count()).toBe(n);
  });

  it('reports the progress of several runs at once, as of each alone (list pages)', async () => {
    const many = await runsProgress([runId, 'r_not_a_run']);
    expect(many.get(runId)).toEqual(await runProgress(runId));
    expect(many.get(runId)).toMatchObject({ total: 152, done: 152, queued: 0, inFlight: 0, attempts: 152 });
    expect(many.get('r_not_a_run')).toMatchObject({ total: 0, done: 0, attempts: 0 });
  });

  it('lists the pairs to review from the stored outcomes, every one with a failed side', async () => {
    const exp = await getExperiment((await pool().query<{ experiment_id: string }>('SELECT experiment_id FROM runs WHERE id = $1', [runId])).rows[0].experiment_id);
    const outcomes = await trialOutcomes(runId);
    const pairs = reviewPairs(exp!.spec, outcomes);
    expect(pairs.length).toBeGreaterThan(0);
    const status = new Map(outcomes.map((t) => [t.id, t.status]));
    for (const p of pairs) {
      expect([p.baseline.status, p.treatment.status]).toContain('failed');
      expect(status.get(p.baseline.trialId!)).toBe(p.baseline.status);
      expect(status.get(p.treatment.trialId!)).toBe(p.treatment.status);
    }
    const failedTrials = outcomes.filter((t) => t.status === 'failed').length;
    const covered = new Set(pairs.flatMap((p) => [p.baseline, p.treatment].filter((s) => s.status === 'failed').map((s) => s.trialId)));
    expect(covered.size).toBe(failedTrials); // no failed trial is left out of the review
  });
});
