import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { closeQueues } from '../queue/connection';
import { getRun } from './runs';
import { getExperiment } from './experiments';
import { trialOutcomes } from './results';
import { loadTable1, reviewedCells } from '../runs/summary';
import { runCells, storedRunCells } from './aggregate';
import { liveResultsVersion, resultsVersion } from './result-cache';
import { runProgress } from './runs';
import { modelPairCellsSql, storedModelPairCells } from './compare';
import { compareRuns } from '../runs/compare';
import { modelDifferences, modelPairCells } from '../analysis/compare-runs';
import { createRun, startRun } from '../runner/start';
import { waitForRunStatus } from '../testing/engine';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { cellsFromTrials } from '../analysis/cells';
import { summarizeRun } from '../analysis/summary';
import type { ExperimentSpec } from '../schema/experiment';
import type { WorkerHandle } from '../runner/worker';
import { completedReferenceRun } from '../testing/engine';
import { reviewPairs, PAIR_CLASSES } from '../analysis/review';
import { reviewPairCounts, reviewPairsPage } from './review-pairs';
import { reviewAgreementTables, reviewedOutcomes, saveReview } from './reviews';
import { summarizeCells } from '../analysis/summary';
import type { Actor } from '../auth/roles';
import { expandTrials } from '../design/matrix';
import { saveExperiment } from '../experiments/versions';
import { TEMPLATES } from '../templates';

const ITEST_REVIEWER: Actor = { kind: 'user', userId: 'u_itest', email: 'itest@lab.example', name: 'itest', role: 'reviewer' };

// Table 1 from grouped queries in PostgreSQL against the same summary computed from every trial in memory.

let worker: WorkerHandle;
let runId: string;
let spec: ExperimentSpec;

beforeAll(async () => {
  ({ runId, worker } = await completedReferenceRun());
  spec = (await getExperiment((await getRun(runId))!.experimentId))!.spec;
}, 120_000);

// keys sorted before comparing: cells read back from jsonb come with their keys in jsonb's order
const canonical = (x: unknown): string =>
  JSON.stringify(x, (_, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));
const sortCells = <T>(xs: T[]) => [...xs].sort((a, b) => (canonical(a) < canonical(b) ? -1 : 1));
const sortRunCells = (c: Awaited<ReturnType<typeof runCells>>) => ({
  status: sortCells(c.status),
  pairs: sortCells(c.pairs),
  categories: sortCells(c.categories),
  tasks: sortCells(c.tasks),
  orders: sortCells(c.orders),
  flipped: sortCells(c.flipped),
  flippedTotal: new Map([...c.flippedTotal].sort()),
});

describe('pass^k from PostgreSQL', () => {
  it('a task study with replicates: the SQL task cells (a case in one order, its replicates together) and pass^k equal the in-memory ones', async () => {
    const exp = await saveExperiment({ ...TEMPLATES['task-completion'].build(), id: 'passk-itest', replicates: 3 });
    const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic' });
    expect((await startRun(run.id)).ok).toBe(true);
    expect((await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES])).status).toBe('completed');
    const taskSpec = (await getExperiment(exp.id))!.spec;
    const outcomes = await trialOutcomes(run.id);
    expect(outcomes.length).toBe(expandTrials(taskSpec).length);
    for (const by of ['case', 'scenario'] as const) {
      const fromSql = await runCells(run.id, taskSpec, by);
      const fromJs = cellsFromTrials(taskSpec, outcomes, by);
      expect(fromSql.tasks.length).toBeGreaterThan(0);
      expect(fromSql.tasks.every((t) => t.decided === 3)).toBe(true); // every task holds its three replicates
      expect(sortCells(fromSql.tasks)).toEqual(sortCells(fromJs.tasks));
      const summary = await loadTable1(run.id, taskSpec, by);
      expect(summary).toEqual(summarizeRun(taskSpec, outcomes, { clusterBy: by }));
      expect(summary.studies.find((s) => s.passK)?.passK?.k).toBe(3);
    }
  });
});

describe('stored cells (result_cache) equal the computed ones', () => {
  for (const by of ['case', 'scenario'] as const)
    it(`stores Table 1's cells under the run's results version and reads them back unchanged (clusters by ${by})`, async () => {
      const computed = await runCells(runId, spec, by);
      const first = await storedRunCells(runId, spec, by); // computes and stores
      const stored = await pool().query<{ version: string }>(`SELECT version FROM result_cache WHERE run_id = $1 AND key LIKE $2`, [runId, `cells2|${by}|%`]);
      expect(stored.rows.map((r) => r.version)).toEqual([await resultsVersion(runId)]);
      const second = await storedRunCells(runId, spec, by); // read back
      expect(sortRunCells(first)).toEqual(sortRunCells(computed));
      expect(sortRunCells(second)).toEqual(sortRunCells(computed));
      expect(await loadTable1(runId, spec, by)).toEqual(summarizeRun(spec, await trialOutcomes(runId), { clusterBy: by }));
    });

  it('never reads an entry of another version: a stale one is recomputed', async () => {
    await storedRunCells(runId, spec, 'case');
    await pool().query(
      `UPDATE result_cache SET version = 'stale', value = '{"status": [], "pairs": [], "categories": [], "tasks": [], "orders": [], "flipped": [], "flippedTotal": []}' WHERE run_id = $1 AND key LIKE 'cells2|case|%'`,
      [runId],
    );
    expect(sortRunCells(await storedRunCells(runId, spec, 'case'))).toEqual(sortRunCells(await runCells(runId, spec, 'case')));
    expect((await pool().query(`SELECT 1 FROM result_cache WHERE run_id = $1 AND version = 'stale'`, [runId])).rows.length).toBe(0);
  });

  it('the live results version changes with a claim (lease token) and with a trial that becomes final', async () => {
    const v0 = await liveResultsVersion(runId);
    const [t] = (await pool().query<{ id: string; status: string; finished_at: Date }>(`SELECT id, status, finished_at FROM trials WHERE run_id = $1 LIMIT 1`, [runId]))
      .rows;
    try {
      await pool().query(`UPDATE trials SET lease_token = lease_token + 1 WHERE id = $1`, [t.id]);
      const v1 = await liveResultsVersion(runId);
      expect(v1).not.toBe(v0);
      await pool().query(`UPDATE trials SET status = 'running' WHERE id = $1`, [t.id]);
      const v2 = await liveResultsVersion(runId);
      await pool().query(`UPDATE trials SET status = $2, finished_at = now() WHERE id = $1`, [t.id, t.status]);
      expect(new Set([v0, v1, v2, await liveResultsVersion(runId)]).size).toBe(4);
    } finally {
      await pool().query(`UPDATE trials SET lease_token = lease_token - 1, status = $2, finished_at = $3 WHERE id = $1`, [t.id, t.status, t.finished_at]);
    }
    expect(await liveResultsVersion(runId)).toBe(v0);
  });

  it('a completed run: its progress frozen at completion equals the live count, and its results version is fixed', async () => {
    const frozen = (await pool().query(`SELECT final_progress FROM runs WHERE id = $1`, [runId])).rows[0].final_progress;
    expect(frozen).not.toBeNull();
    const live = await runProgress(runId);
    await pool().query(`UPDATE runs SET final_progress = NULL WHERE id = $1`, [runId]);
    try {
      expect(await runProgress(runId)).toEqual(live); // counted from the trials
      expect(await resultsVersion(runId)).toBe(await liveResultsVersion(runId));
    } finally {
      await pool().query(`UPDATE runs SET final_progress = $2::jsonb WHERE id = $1`, [runId, JSON.stringify(frozen)]);
    }
    expect(await resultsVersion(runId)).toMatch(/;completed;/);
    expect(live.done).toBe(live.total);
  });

  it('model vs model: the SQL cells and the stored cells equal the in-memory ones, and the compare page’s differences', async () => {
    const other = await createRun((await getRun(runId))!.experimentId, { provider: 'simulated', model: 'simulated-position-biased-v1' });
    const started = await startRun(other.id);
    expect(started.ok).toBe(true);
    expect((await waitForRunStatus(other.id, [...FINAL_RUN_STATUSES])).status).toBe('completed');
    const [ref, oth] = [await trialOutcomes(runId), await trialOutcomes(other.id)];
    for (const by of ['case', 'scenario'] as const) {
      const inMemory = modelPairCells(ref, oth, by);
      expect(inMemory.length).toBeGreaterThan(0);
      expect(sortCells(await modelPairCellsSql(runId, other.id, by))).toEqual(sortCells(inMemory));
      expect(sortCells(await storedModelPairCells(runId, other.id, by))).toEqual(sortCells(inMemory));
      expect(sortCells(await storedModelPairCells(runId, other.id, by))).toEqual(sortCells(inMemory)); // read back
      const c = await compareRuns([runId, other.id], by);
      expect(c.differences).toEqual(modelDifferences(spec.studies, { runId, trials: ref }, { runId: other.id, trials: oth }, by));
    }
  }, 120_000);
});

afterAll(async () => {
  await worker.close();
  await closeQueues();
  await closeDb();
});

describe('SQL-side aggregation', () => {
  it("stores every trial's candidate order as the design made it: order_index is the design's orderIndex", async () => {
    const design = expandTrials(spec);
    const rows = (await pool().query<{ trial_key: string; order_index: number }>(`SELECT trial_key, order_index FROM trials WHERE run_id = $1`, [runId])).rows;
    expect(rows).toHaveLength(design.length);
    expect(new Set(rows.map((r) => r.order_index))).toEqual(new Set([0, 1])); // the reference study sends two orders
    expect(new Map(rows.map((r) => [r.trial_key, r.order_index]))).toEqual(new Map(design.map((t) => [t.trialKey, t.orderIndex])));
  });

  for (const by of ['case', 'scenario'] as const)
    it(`gives the cells and the Table 1 of the in-memory path (clusters by ${by})`, async () => {
      const outcomes = await trialOutcomes(runId);
      const fromSql = await runCells(runId, spec, by);
      const fromJs = cellsFromTrials(spec, outcomes, by);
      expect(sortCells(fromSql.status)).toEqual(sortCells(fromJs.status));
      expect(sortCells(fromSql.pairs)).toEqual(sortCells(fromJs.pairs));
      expect(sortCells(fromSql.categories)).toEqual(sortCells(fromJs.categories));
      expect(sortCells(fromSql.orders)).toEqual(sortCells(fromJs.orders));
      expect(sortCells(fromSql.flipped)).toEqual(sortCells(fromJs.flipped));
      expect(await loadTable1(runId, spec, by)).toEqual(summarizeRun(spec, outcomes, { clusterBy: by }));
    });

  it('reports the reference study (simulated) with clustered intervals, the paired difference, both McNemar p and order consistency', async () => {
    const summary = await loadTable1(runId, spec);
    const [sel, int] = summary.studies;
    // the simulated provider's figures (docs/providers.md): selection 11/48 → 47/48, interpretation 12/28 → 28/28
    expect([sel.total.baseline.pass, sel.total.baseline.n, sel.total.treatment.pass, sel.total.treatment.n]).toEqual([11, 48, 47, 48]);
    expect([int.total.baseline.pass, int.total.treatment.pass, int.total.treatment.n]).toEqual([12, 28, 28]);
    // six cases per scenario × locale: 24 clusters of two orders each; 23 df
    expect(sel.clustered!.baseline).toMatchObject({ clusters: 24, df: 23 });
    expect(sel.clustered!.baseline.se).toBeGreaterThan(0);
    const { improved, regressed, same } = sel.pairs;
    expect(improved + regressed + same).toBe(48);
    expect(sel.difference).toMatchObject({ pairs: 48, clusters: 24, df: 23 });
    expect(sel.difference!.estimate).toBeCloseTo((improved - regressed) / 48, 12);
    expect(sel.difference!.ci95![0]).toBeGreaterThan(0);
    expect(sel.mcnemar).toMatchObject({ b: improved, c: regressed });
    expect(sel.mcnemar!.pMid).toBeLessThanOrEqual(sel.mcnemar!.pExact);
    // both orders in selection: order consistency per condition; interpretation sends one tool in one order
    expect(sel.orderConsistency!.baseline!.cases).toBe(24);
    expect(sel.orderConsistency!.treatment!.cases).toBe(24);
    expect(int.orderConsistency).toBeUndefined();
    // interpretation: all 28 pass with code meanings: CR1 SE 0, no design effect
    expect(int.clustered!.treatment).toMatchObject({ estimate: 1, se: 0, designEffect: null });
    // each flipped case links trials that exist in this run and differ in decision
    for (const f of sel.flipped ?? []) {
      expect(new Set(f.trials.map((t) => t.decision)).size).toBeGreaterThan(1);
      const r = await pool().query(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND id = ANY($2)`, [runId, f.trials.map((t) => t.id)]);
      expect(r.rows[0].n).toBe(f.trials.length);
    }
    expect(sel.flippedTotal).toBe(sel.flipped!.length);
  });

  it('pages the review list in SQL: the same pairs, classes and counts as the in-memory list', async () => {
    const expected = reviewPairs(spec, await trialOutcomes(runId));
    const counts = await reviewPairCounts(runId, spec);
    for (const c of PAIR_CLASSES) expect(counts[c]).toBe(expected.filter((p) => p.class === c).length);
    const got = [];
    for (let page = 0; ; page++) {
      const rows = await reviewPairsPage(runId, spec, { show: null, page, size: 7 });
      got.push(...rows);
      if (rows.length < 7) break;
    }
    const key = (p: { pairKey: string; treatment: { condition: string } }) => `${p.pairKey}|${p.treatment.condition}`;
    expect(got.map((p) => PAIR_CLASSES.indexOf(p.class))).toEqual([...got.map((p) => PAIR_CLASSES.indexOf(p.class))].sort((a, b) => a - b));
    const norm = (p: (typeof expected)[number]) => ({
      ...p,
      baseline: { ...p.baseline, categories: [...p.baseline.categories].sort() },
      treatment: { ...p.treatment, categories: [...p.treatment.categories].sort() },
    });
    expect(new Map(got.map((p) => [key(p), norm(p)]))).toEqual(new Map(expected.map((p) => [key(p), norm(p)])));
    const regressed = await reviewPairsPage(runId, spec, { show: 'improved', page: 0, size: 1000 });
    expect(regressed.every((p) => p.class === 'improved')).toBe(true);
    expect(regressed).toHaveLength(counts.improved);
  });

  it('a completed run’s stored review list gives the pages and counts of the list read from its trials', async () => {
    const live = await reviewPairCounts(runId, spec, { stored: false });
    expect(await reviewPairCounts(runId, spec)).toEqual(live); // classes and stores it
    expect(await reviewPairCounts(runId, spec)).toEqual(live); // read back
    for (const show of [null, ...PAIR_CLASSES])
      for (let page = 0; page < 4; page++)
        expect(await reviewPairsPage(runId, spec, { show, page, size: 5 })).toEqual(await reviewPairsPage(runId, spec, { show, page, size: 5, stored: false }));
    const all = await reviewPairsPage(runId, spec, { show: null, page: 0, size: 10_000 });
    expect(all).toEqual(await reviewPairsPage(runId, spec, { show: null, page: 0, size: 10_000, stored: false }));
    expect(all).toHaveLength(PAIR_CLASSES.reduce((n, c) => n + live[c], 0));
  });

  it('counts the grader × reviewer table per check axis in SQL', async () => {
    const scored = await pool().query<{ trial_id: string; check_id: string; axis: string; status: string }>(
      `SELECT v.trial_id, v.check_id, v.axis, v.status FROM verdicts v JOIN trials t ON t.id = v.trial_id WHERE t.run_id = $1 AND v.status IN ('pass', 'fail') ORDER BY v.trial_id, v.check_id LIMIT 6`,
      [runId],
    );
    // confirm the first four, override the last two
    for (const [i, v] of scored.rows.entries())
      await saveReview(
        { runId, trialId: v.trial_id, checkId: v.check_id, humanStatus: i < 4 ? (v.status as 'pass' | 'fail') : v.status === 'pass' ? 'fail' : 'pass' },
        ITEST_REVIEWER,
      );
    const { overall, byAxis } = await reviewAgreementTables(runId);
    expect(overall.bothPass + overall.bothFail).toBe(4);
    expect(overall.graderPassReviewerFail + overall.graderFailReviewerPass).toBe(2);
    const sum = (t: typeof overall) => t.bothPass + t.bothFail + t.graderFailReviewerPass + t.graderPassReviewerFail;
    expect(Object.values(byAxis).reduce((n, t) => n + sum(t), 0)).toBe(6);
    for (const axis of Object.keys(byAxis)) expect(sum(byAxis[axis])).toBe(scored.rows.filter((v) => v.axis === axis).length);
  });

  it('Table 1 with the readings applied: the stored cells moved by the reviewed pairs equal the in-memory view of every trial', async () => {
    // one failed trial read as passing on every check, one passed trial read as failing one check
    const pick = async (status: string) =>
      (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 AND status = $2 ORDER BY trial_key DESC LIMIT 1`, [runId, status])).rows[0].id;
    for (const [trialId, to] of [
      [await pick('failed'), 'pass'],
      [await pick('passed'), 'fail'],
    ] as const) {
      const checks = (await pool().query<{ check_id: string; status: string }>(`SELECT check_id, status FROM verdicts WHERE trial_id = $1 ORDER BY check_id`, [trialId]))
        .rows;
      for (const c of to === 'pass' ? checks.filter((x) => x.status === 'fail') : checks.filter((x) => x.status === 'pass').slice(0, 1))
        await saveReview({ runId, trialId, checkId: c.check_id, humanStatus: to }, ITEST_REVIEWER);
    }
    const inMemory = await reviewedOutcomes(runId);
    expect(inMemory.changed).toBeGreaterThanOrEqual(2);
    for (const by of ['case', 'scenario'] as const) {
      const fast = await reviewedCells(runId, spec, by);
      expect(fast.changed).toBe(inMemory.changed);
      expect(summarizeCells(spec, fast.cells, { clusterBy: by })).toEqual(summarizeRun(spec, inMemory.outcomes, { clusterBy: by }));
    }
  });
});
