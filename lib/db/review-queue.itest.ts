import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { closeQueues } from '../queue/connection';
import { getExperiment } from './experiments';
import { runReviews, saveReviews } from './reviews';
import { pairNeighbours, reviewProgress, reviewQueuePage, type QueuedPair } from './review-queue';
import { reviewPairsPage } from './review-pairs';
import type { WorkerHandle } from '../runner/worker';
import { completedReferenceRun } from '../testing/engine';
import { SpecError } from '../schema/common';
import type { Actor } from '../auth/roles';
import type { ExperimentSpec } from '../schema/experiment';

// The review list as a queue, on a finished run of the reference study: a pair's readings saved in one call
// (atomically, each attributed and audited), progress and the unreviewed filter counted from them, and a
// pair's previous / next in the list's order and filter.

const who: Actor = { kind: 'user', userId: 'u_q', email: 'q@lab.example', name: 'q', role: 'reviewer' };

let worker: WorkerHandle;
let runId: string;
let spec: ExperimentSpec;

beforeAll(async () => {
  ({ runId, worker } = await completedReferenceRun());
  const r = await pool().query<{ experiment_id: string }>('SELECT experiment_id FROM runs WHERE id = $1', [runId]);
  spec = (await getExperiment(r.rows[0].experiment_id))!.spec;
}, 120_000);

afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

/** The scored checks of a pair's two trials, as readings that confirm the grader (or override where asked). */
async function readingsOf(p: QueuedPair) {
  const r = await pool().query<{ trial_id: string; check_id: string; status: 'pass' | 'fail' }>(
    `SELECT trial_id, check_id, status FROM verdicts WHERE trial_id = ANY($1::text[]) AND status IN ('pass', 'fail') ORDER BY trial_id, check_id`,
    [[p.baseline.trialId, p.treatment.trialId].filter(Boolean)],
  );
  return r.rows.map((x) => ({ trialId: x.trial_id, checkId: x.check_id, humanStatus: x.status, note: '' }));
}

const auditCount = async () =>
  (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE run_id = $1 AND action = 'review.saved'`, [runId])).rows[0].n;

describe('the review queue', () => {
  it('saves all of a pair’s readings in one call, attributed and audited; progress and the unreviewed filter follow', async () => {
    const all = await reviewQueuePage(runId, spec, { show: null, page: 0, size: 10_000 });
    expect(all.length).toBeGreaterThan(2);
    expect(await reviewProgress(runId, spec)).toEqual({ pairs: all.length, reviewed: 0 });
    expect(all.every((p) => p.reviewed === 0 && p.checks > 0)).toBe(true);
    expect(await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 0, size: 10_000 })).toEqual(all);

    // the second pair of the list (both trials), all its readings at once, one overridden
    const pair = all.filter((p) => p.baseline.trialId && p.treatment.trialId)[1];
    const readings = await readingsOf(pair);
    expect(readings.length).toBe(pair.checks);
    readings[0] = { ...readings[0], humanStatus: readings[0].humanStatus === 'pass' ? 'fail' : 'pass', note: 'read otherwise' };
    const audits = await auditCount();
    const saved = await saveReviews(runId, readings, who);
    expect(saved).toHaveLength(readings.length);
    expect(saved.every((r) => r.reviewer === 'q@lab.example')).toBe(true);
    expect(await auditCount()).toBe(audits + readings.length);
    const stored = await runReviews(runId, [pair.baseline.trialId!, pair.treatment.trialId!]);
    expect(stored.map((r) => [r.trialId, r.checkId, r.humanStatus])).toEqual(readings.map((r) => [r.trialId, r.checkId, r.humanStatus]));
    const users = await pool().query(`SELECT DISTINCT reviewer_user_id FROM reviews WHERE run_id = $1`, [runId]);
    expect(users.rows).toEqual([{ reviewer_user_id: 'u_q' }]);

    // progress counts the pair (and any other pair whose checks are all reviewed now: those sharing its baseline trial)
    const after = await reviewQueuePage(runId, spec, { show: null, page: 0, size: 10_000 });
    const done = after.filter((p) => p.reviewed === p.checks);
    expect(done.map((p) => `${p.pairKey}|${p.treatment.condition}`)).toContain(`${pair.pairKey}|${pair.treatment.condition}`);
    expect(await reviewProgress(runId, spec)).toEqual({ pairs: all.length, reviewed: done.length });
    const unreviewed = await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 0, size: 10_000 });
    expect(unreviewed.map((p) => p.treatment.trialId)).toEqual(after.filter((p) => p.reviewed < p.checks).map((p) => p.treatment.trialId));
    expect(unreviewed).toHaveLength(all.length - done.length);
    // paged like the rest of the list
    expect(await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 1, size: 2 })).toEqual(unreviewed.slice(2, 4));
  });

  it('refuses a bad reading naming its check, and stores nothing of the pair', async () => {
    const [pair] = (await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 0, size: 1 })).filter((p) => p.baseline.trialId);
    const readings = await readingsOf(pair);
    expect(readings.length).toBeGreaterThan(1);
    const audits = await auditCount();
    const bad = readings.map((r, i) => (i === readings.length - 1 ? { ...r, humanStatus: 'maybe' as 'pass' } : r));
    const e = await saveReviews(runId, bad, who).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(SpecError);
    const last = readings[readings.length - 1];
    expect((e as SpecError).issues).toEqual([
      { path: `readings.${readings.length - 1}.humanStatus`, message: expect.stringContaining(`check "${last.checkId}" of trial ${last.trialId}`) },
    ]);
    // a check that is not scored (or not in the run) is refused the same way
    const e2 = await saveReviews(runId, [...readings, { trialId: last.trialId, checkId: 'no-such-check', humanStatus: 'pass' }], who).catch((x: unknown) => x);
    expect((e2 as SpecError).issues.map((i) => i.path)).toEqual([`readings.${readings.length}.checkId`]);
    expect((e2 as SpecError).message).toContain('no-such-check');
    expect(await runReviews(runId, [pair.baseline.trialId!, pair.treatment.trialId!])).toEqual([]);
    expect(await auditCount()).toBe(audits);
  });

  it('gives a pair’s previous and next in the list’s order, under its filter', async () => {
    const all = await reviewPairsPage(runId, spec, { show: null, page: 0, size: 10_000 });
    const both = all.filter((p) => p.baseline.trialId && p.treatment.trialId);
    const link = (p: (typeof all)[number]) => ({ baselineId: p.baseline.trialId, treatmentId: p.treatment.trialId });
    const at = (p: (typeof all)[number]) => ({ baselineId: p.baseline.trialId!, treatmentId: p.treatment.trialId! });
    const i = all.indexOf(both[1]);
    expect(await pairNeighbours(runId, spec, at(both[1]), null)).toEqual({ inList: true, prev: link(all[i - 1]), next: link(all[i + 1]) });
    // the first pair has no previous
    expect((await pairNeighbours(runId, spec, at(both[0]), null)).prev).toBe(all.indexOf(both[0]) === 0 ? null : link(all[all.indexOf(both[0]) - 1]));
    // under "unreviewed": the reviewed pair (test 1) still has a next — the first unreviewed after it
    const unreviewed = await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 0, size: 10_000 });
    const reviewed = (await reviewQueuePage(runId, spec, { show: null, page: 0, size: 10_000 })).find((p) => p.reviewed === p.checks && p.baseline.trialId)!;
    const rank = (p: { pairKey: string; treatment: { condition: string } }) =>
      all.findIndex((x) => x.pairKey === p.pairKey && x.treatment.condition === p.treatment.condition);
    const nextUnreviewed = unreviewed.find((p) => rank(p) > rank(reviewed)) ?? null;
    const n = await pairNeighbours(runId, spec, at(reviewed), 'unreviewed');
    expect(n.next).toEqual(nextUnreviewed && link(nextUnreviewed));
    // under a class: only that class's pairs
    const improved = all.filter((p) => p.class === 'improved');
    if (improved.length >= 2) expect((await pairNeighbours(runId, spec, at(improved[0]), 'improved')).next).toEqual(link(improved[1]));
    // a pair that is not in the list has none
    expect(await pairNeighbours(runId, spec, { baselineId: 'nope', treatmentId: 'nope' }, null)).toEqual({ inList: false, prev: null, next: null });
  });
});
