import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { closeQueues } from '../queue/connection';
import { getExperiment } from '../db/experiments';
import { AccessDenied, type Actor } from '../auth/roles';
import type { WorkerHandle } from '../runner/worker';
import { completedReferenceRun } from '../testing/engine';
import type { ExperimentSpec } from '../schema/experiment';
import { runAudit } from '../db/audit';
import { saveReviews } from '../db/reviews';
import { assignmentCounts, pairNeighbours, reviewQueuePage, AssignError, shareReviewPairs, reviewerAccounts } from './reviews';

// Review pairs shared among reviewers (docs/review.md "Shared among reviewers"), on a finished run of the
// reference study: who controls the run shares the unreviewed pairs no one has, one each in turn; each
// reviewer's queue (`mine`) holds theirs, in the list's order, and walks them; sharing again gives out only what
// is new; refusals name their field and assign nothing.

const tag = `${process.pid}`;
const users = {
  ana: { id: `u_ana_${tag}`, email: `ana-${tag}@lab.example`, role: 'reviewer' },
  ben: { id: `u_ben_${tag}`, email: `ben-${tag}@lab.example`, role: 'admin' },
  vic: { id: `u_vic_${tag}`, email: `vic-${tag}@lab.example`, role: 'viewer' },
} as const;
const researcher: Actor = { kind: 'user', userId: `u_res_${tag}`, email: `res-${tag}@lab.example`, name: 'res', role: 'researcher' };
const asUser = (u: (typeof users)[keyof typeof users]): Actor => ({ kind: 'user', userId: u.id, email: u.email, name: u.email, role: u.role });

let worker: WorkerHandle;
let runId: string;
let spec: ExperimentSpec;

beforeAll(async () => {
  ({ runId, worker } = await completedReferenceRun());
  const r = await pool().query<{ experiment_id: string }>('SELECT experiment_id FROM runs WHERE id = $1', [runId]);
  spec = (await getExperiment(r.rows[0].experiment_id))!.spec;
  for (const u of Object.values(users))
    await pool().query(`INSERT INTO users (id, name, email, email_verified, role) VALUES ($1, $2, $3, true, $4)`, [u.id, u.email, u.email, u.role]);
}, 120_000);

afterAll(async () => {
  await pool().query('DELETE FROM users WHERE id = ANY($1::text[])', [Object.values(users).map((u) => u.id)]);
  await worker.close();
  await closeQueues();
  await closeDb();
});

describe('sharing the review among reviewers', () => {
  it('one each in turn in the list order; each queue holds its own and walks it; a second share gives out only what is new', async () => {
    expect((await reviewerAccounts()).map((a) => a.email)).toEqual(expect.arrayContaining([users.ana.email, users.ben.email]));
    expect((await reviewerAccounts()).map((a) => a.email)).not.toContain(users.vic.email);
    const unreviewed = await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 0, size: 10_000 });
    expect(unreviewed.length).toBeGreaterThan(3);
    expect(await assignmentCounts(runId, spec, users.ana.id)).toEqual({ mine: 0, unassigned: unreviewed.length });
    // nobody's account, nothing mine
    expect(await reviewQueuePage(runId, spec, { show: 'mine', page: 0, size: 10_000, viewer: null })).toEqual([]);

    const got = await shareReviewPairs(researcher, runId, [users.ana.email, users.ben.email.toUpperCase()]);
    const half = Math.ceil(unreviewed.length / 2);
    expect(got).toEqual([
      { email: users.ana.email, pairs: half },
      { email: users.ben.email, pairs: unreviewed.length - half },
    ]);
    const all = await reviewQueuePage(runId, spec, { show: 'unreviewed', page: 0, size: 10_000 });
    expect(all.map((p) => p.assignee)).toEqual(all.map((_, i) => (i % 2 === 0 ? users.ana.email : users.ben.email)));
    const mine = await reviewQueuePage(runId, spec, { show: 'mine', page: 0, size: 10_000, viewer: users.ana.id });
    expect(mine.map((p) => p.pairKey + p.treatment.condition)).toEqual(all.filter((_, i) => i % 2 === 0).map((p) => p.pairKey + p.treatment.condition));
    expect(await assignmentCounts(runId, spec, users.ana.id)).toEqual({ mine: half, unassigned: 0 });
    // ana's next pair under `mine` is her next one, skipping ben's
    const at = (p: (typeof mine)[number]) => ({ baselineId: p.baseline.trialId ?? '', treatmentId: p.treatment.trialId ?? '' });
    const withBoth = mine.filter((p) => p.baseline.trialId);
    expect(withBoth.length).toBeGreaterThan(1);
    const i = mine.indexOf(withBoth[0]);
    const next = (await pairNeighbours(runId, spec, at(withBoth[0]), 'mine', users.ana.id)).next;
    expect(next).toEqual(i + 1 < mine.length ? { baselineId: mine[i + 1].baseline.trialId, treatmentId: mine[i + 1].treatment.trialId } : null);

    // reviewed, a pair leaves her queue; sharing again finds nothing new to give
    const first = mine[0];
    const r = await pool().query<{ trial_id: string; check_id: string; status: 'pass' | 'fail' }>(
      `SELECT trial_id, check_id, status FROM verdicts WHERE trial_id = ANY($1::text[]) AND status IN ('pass', 'fail')`,
      [[first.baseline.trialId, first.treatment.trialId].filter(Boolean)],
    );
    await saveReviews(
      runId,
      r.rows.map((x) => ({ trialId: x.trial_id, checkId: x.check_id, humanStatus: x.status, note: '' })),
      asUser(users.ana),
    );
    expect((await assignmentCounts(runId, spec, users.ana.id)).mine).toBe(half - 1);
    expect(await shareReviewPairs(researcher, runId, [users.ana.email])).toEqual([{ email: users.ana.email, pairs: 0 }]);

    // attributed: who shared, and how many each got
    const audit = (await runAudit(runId)).filter((a) => a.action === 'review.assigned');
    expect(audit.map((a) => [a.actor, a.detail])).toEqual([
      [researcher.kind === 'user' ? researcher.email : '', { pairs: { [users.ana.email]: half, [users.ben.email]: unreviewed.length - half } }],
      [researcher.kind === 'user' ? researcher.email : '', { pairs: { [users.ana.email]: 0 } }],
    ]);
  });

  it('refuses, naming the field, and assigns nothing: no permission, no reviewer, an account that may not review', async () => {
    const before = (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM review_assignments WHERE run_id = $1', [runId])).rows[0].n;
    await expect(shareReviewPairs(asUser(users.ana), runId, [users.ana.email])).rejects.toBeInstanceOf(AccessDenied);
    await expect(shareReviewPairs(researcher, runId, [])).rejects.toMatchObject({ field: 'reviewers', message: 'pick at least one reviewer' });
    await expect(shareReviewPairs(researcher, runId, [users.vic.email])).rejects.toMatchObject({
      field: 'reviewers',
      message: `not an account that may review: ${users.vic.email}`,
    });
    await expect(shareReviewPairs(researcher, 'r_nope', [users.ana.email])).rejects.toBeInstanceOf(AssignError);
    expect((await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM review_assignments WHERE run_id = $1', [runId])).rows[0].n).toBe(before);
  });
});
