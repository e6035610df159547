import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { saveExperiment } from '../experiments/versions';
import { savePriceTable } from './price-table';
import { budgetSpent, reserveBudgetedRequest } from '../db/budget';
import { claimTrial, insertTrials, markSending, recordResult } from '../db/trials';
import { getRun, setRunStatus } from '../db/runs';
import { resetEnvCache } from '../env';
import { closeQueues } from '../queue/connection';
import { TRIALS_PER_JOB } from '../queue/contracts';
import { benchSpec } from '../testing/bench-spec';
import { waitFor, waitForRunStatus } from '../testing/engine';
import { iterateTrials, toWireTool, naturalDefinitions, candidateOrders, trialKeyOf, pairKeyOf, trialIdOf, type TrialSpec } from '../design/matrix';
import { toolSetRef } from '../hash';
import { emptyObservation } from '../schema/observation';
import type { ExperimentSpec } from '../schema/experiment';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { SpendConfirmationRequired } from './spend';
import { createRun, createRuns, startRun, withTrialIds } from './start';
import { countAnswerWithinBudget } from './budget';
import { contextOf } from './context';
import { startWorker, type WorkerHandle } from './worker';

// Spend guards (docs/spend-guards.md) against real PostgreSQL and Redis: the confirmation of a large run in the
// use case every door goes through, a budget the engine stops at, and a run's trials created in chunks.

const saved = { requests: process.env.TCLAB_CONFIRM_REQUESTS, cost: process.env.TCLAB_CONFIRM_COST };
let expId: string;
let worker: WorkerHandle | undefined;
const runsOf = async (id: string) => (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE experiment_id = $1`, [id])).rows[0].n;

beforeAll(async () => {
  Object.assign(process.env, { TCLAB_CONFIRM_REQUESTS: '50', TCLAB_CONFIRM_COST: '1' });
  resetEnvCache();
  expId = (await saveExperiment({ ...benchSpec(200), id: 'spend-itest' })).id;
});

afterAll(async () => {
  await worker?.close();
  await pool().query(`DELETE FROM price_tables WHERE id = 'default'`);
  for (const [k, v] of [
    ['TCLAB_CONFIRM_REQUESTS', saved.requests],
    ['TCLAB_CONFIRM_COST', saved.cost],
  ] as const)
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  resetEnvCache();
  await closeQueues();
  await closeDb();
});

const openai = { provider: 'openai', model: 'gpt-test' } as const;

describe('the confirmation of a large run', () => {
  it('refuses a run of more paid requests than TCLAB_CONFIRM_REQUESTS without a confirmation naming the number, storing nothing', async () => {
    const refused = await createRun(expId, openai).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SpendConfirmationRequired);
    expect((refused as SpendConfirmationRequired).requests).toBe(200);
    expect((refused as Error).message).toMatch(/200 paid requests \(more than TCLAB_CONFIRM_REQUESTS = 50\); confirm 200 to start it/);
    // a ceiling below the number is no confirmation
    await expect(createRun(expId, openai, { confirm: { maxRequests: 199 } })).rejects.toThrow(/199 was confirmed/);
    expect(await runsOf(expId)).toBe(0);
  });

  it('accepts it with the number (or more), or with yes', async () => {
    const run = await createRun(expId, openai, { confirm: { maxRequests: 200 } });
    expect(run.totalTrials).toBe(200);
    const yes = await createRun(expId, openai, { confirm: { yes: true } });
    expect(yes.totalTrials).toBe(200);
  });

  it('counts no request to the simulated provider, and every paid target of a group together', async () => {
    expect((await createRun(expId, { provider: 'simulated' })).totalTrials).toBe(200);
    const group = await createRuns(expId, {}, [
      { provider: 'openai', model: 'a' },
      { provider: 'openai', model: 'b' },
      { provider: 'simulated', model: 'heuristic' },
    ]).catch((e: unknown) => e);
    expect((group as SpendConfirmationRequired).requests).toBe(400);
  });

  it('asks for a confirmation when the estimated cost passes TCLAB_CONFIRM_COST, though the requests do not', async () => {
    Object.assign(process.env, { TCLAB_CONFIRM_REQUESTS: '100000' });
    resetEnvCache();
    try {
      expect((await createRun(expId, openai)).totalTrials).toBe(200); // not priced: requests only
      await savePriceTable({ prices: [{ provider: 'openai', model: 'gpt-test', inputPerMTok: 10_000, outputPerMTok: 10_000 }] });
      await expect(createRun(expId, openai)).rejects.toThrow(/estimated [\d.]+ USD, more than TCLAB_CONFIRM_COST = 1/);
      expect((await createRun(expId, openai, { confirm: { maxRequests: 200 } })).totalTrials).toBe(200);
    } finally {
      Object.assign(process.env, { TCLAB_CONFIRM_REQUESTS: '50' });
      resetEnvCache();
    }
  });

  it('refuses a cost budget for a model the price table does not price, naming budget.cost', async () => {
    await expect(createRun(expId, { provider: 'openai', model: 'unpriced' }, { confirm: { yes: true }, budget: { cost: 5 } })).rejects.toThrow(
      /budget.cost: no price for openai\/unpriced/,
    );
  });
});

describe('a budget', () => {
  it('stops a run at its budget: 5 requests of 20 trials sent, the run cancelled with "budget reached: 5 requests", the rest unsent', async () => {
    const exp = await saveExperiment({ ...benchSpec(20), id: 'budget-itest' });
    const run = await createRun(exp.id, { provider: 'simulated', concurrency: 4 }, { budget: { requests: 5 } });
    expect(run.budget).toMatchObject({ requests: 5, tokens: null, cost: null });
    expect((await startRun(run.id)).ok).toBe(true);
    worker = startWorker({ concurrency: 16 });
    const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES]);
    expect([final.status, final.statusReason]).toEqual(['cancelled', 'budget reached: 5 requests']);
    await waitFor(
      'no trial in hand',
      async () => (await pool().query(`SELECT 1 FROM trials WHERE run_id = $1 AND status IN ('queued', 'running')`, [run.id])).rowCount === 0,
    );
    const sent = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [run.id]);
    // reserved on the run row before each sending mark: never more than the budget
    expect(sent.rows[0].n).toBe(5);
    const trials = await pool().query<{ status: string; n: number; attempts: number }>(
      `SELECT status, count(*)::int AS n, sum(attempt_count)::int AS attempts FROM trials WHERE run_id = $1 GROUP BY status ORDER BY status`,
      [run.id],
    );
    // what was sent stays recorded; the trials never sent are cancelled with no attempt, none failed
    const scored = trials.rows.filter((r) => r.status !== 'cancelled');
    expect(scored.reduce((s, r) => s + r.n, 0)).toBe(5);
    expect(trials.rows.find((r) => r.status === 'cancelled')).toEqual({ status: 'cancelled', n: 15, attempts: 0 });
    expect((await budgetSpent(run.id))?.requests).toBe(5);
  });

  it('counts each answer’s tokens as it arrives, stops the run at the answer that crosses the token budget, and refuses every request after it', async () => {
    const run = await createRun(expId, { provider: 'simulated' }, { budget: { tokens: 1000 } });
    await setRunStatus(run.id, ['created'], 'running');
    const ctx = contextOf(run.id, (await getExperiment(expId))!.spec, run.settings, run.budget);
    expect(ctx.countsUsage).toBe(true);
    const id = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY id LIMIT 1`, [run.id])).rows[0].id;
    expect(await reserveBudgetedRequest(run.id)).toEqual({ ok: true });
    const c = await claimTrial(id, 'w', 30_000, 3);
    if (!('leaseToken' in c)) throw new Error(c.reason);
    const s = (await markSending(c, 30_000))!;
    expect(await countAnswerWithinBudget(ctx, { inputTokens: 500, outputTokens: 100 })).toBeNull();
    expect(await budgetSpent(run.id)).toMatchObject({ requests: 1, inputTokens: 500, outputTokens: 100 });
    // recording the answer's attempt counts nothing more: it was counted when it arrived
    const observation = { ...emptyObservation(), text: 'x' };
    const result = { request: {}, response: {}, httpStatus: 200, latencyMs: 1, usage: { inputTokens: 500, outputTokens: 100 }, outcome: 'ok' as const, observation };
    expect(await recordResult(s, result, observation, [], {} as never, 'untested')).toBe(true);
    expect(await budgetSpent(run.id)).toMatchObject({ inputTokens: 500, outputTokens: 100 });

    expect(await reserveBudgetedRequest(run.id)).toEqual({ ok: true }); // 600 < 1,000: allowed
    const reason = 'budget reached: 1,100 tokens (budget 1,000) after 2 requests';
    expect(await countAnswerWithinBudget(ctx, { inputTokens: 400, outputTokens: 100 })).toBe(reason);
    const stopped = await getRun(run.id);
    expect([stopped?.status, stopped?.statusReason]).toEqual(['cancelled', reason]);
    expect(await reserveBudgetedRequest(run.id)).toEqual({ ok: false, reason });
    expect(stopped?.budget?.tokens).toBe(1000);
  });

  it('counts nothing for a run without a token or cost budget', async () => {
    const spec = (await getExperiment(expId))!.spec;
    const requestsOnly = await createRun(expId, { provider: 'simulated' }, { budget: { requests: 3 } });
    expect(contextOf(requestsOnly.id, spec, requestsOnly.settings, requestsOnly.budget)).toMatchObject({ budgeted: true, countsUsage: false });
    const none = await createRun(expId, { provider: 'simulated' });
    expect(contextOf(none.id, spec, none.settings, none.budget)).toMatchObject({ budgeted: false, countsUsage: false });
    // no trigger on attempts counts usage any more: an unbudgeted run's records run no budget statement
    const triggers = await pool().query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'attempts'::regclass AND NOT tgisinternal`);
    expect(triggers.rows).toEqual([]);
  });
});

/** The trials as the expansion listed them before it became a generator (the old expandTrials, verbatim in substance). */
function expandedBefore(spec: ExperimentSpec): TrialSpec[] {
  const out: TrialSpec[] = [];
  for (const study of spec.studies)
    for (const c of study.cases) {
      const orders = candidateOrders(naturalDefinitions(spec, study.conditions[0], c.scenario, c.locale).length, study.orderPolicy);
      for (const condition of study.conditions) {
        const defs = naturalDefinitions(spec, condition, c.scenario, c.locale);
        orders.forEach((perm, orderIndex) => {
          const sent = perm.map((i) => defs[i]).filter(Boolean);
          for (let replicate = 1; replicate <= spec.replicates; replicate++) {
            const base = { study: study.id, scenario: c.scenario, locale: c.locale, caseId: c.id, orderIndex, replicate };
            out.push({
              ...base,
              kind: study.kind,
              condition: condition.id,
              baseline: condition.baseline,
              trialKey: trialKeyOf({ ...base, condition: condition.id }),
              pairKey: pairKeyOf(base),
              toolOrder: sent.map((d) => d.tool),
              order: sent.map((d) => d.name),
              toolSetRef: toolSetRef(sent.map(toWireTool)),
              catalogSize: null,
              discovery: null,
              visible: sent.map((d) => d.name),
            });
          }
        });
      }
    }
  return out;
}

describe("a run's trials created in chunks", () => {
  it('writes exactly the rows of the whole list: same ids, order, keys and batch numbers, whatever the chunk', async () => {
    const exp = await saveExperiment({ ...benchSpec(120, { orderPolicy: 'reverse-swap' }), id: 'chunks-itest' });
    const spec = (await getExperiment(exp.id))!.spec;
    const expected = expandedBefore(spec).map((t, i) => ({
      id: trialIdOf('r_chunks', t.trialKey),
      trial_key: t.trialKey,
      pair_key: t.pairKey,
      order: t.order,
      order_index: t.orderIndex,
      tool_set_ref: t.toolSetRef,
      batch: Math.floor(i / TRIALS_PER_JOB),
    }));
    await pool().query(`INSERT INTO runs (id, experiment_id, provider, model, settings) VALUES ('r_chunks', $1, 'simulated', 'heuristic', '{}')`, [exp.id]);
    // 7 rows per INSERT: chunks that straddle the batches of 16
    expect(await insertTrials('r_chunks', withTrialIds('r_chunks', iterateTrials(spec)), TRIALS_PER_JOB, 7)).toBe(120);
    const sorted = <T extends { batch: number; trial_key: string }>(xs: T[]) =>
      [...xs].sort((a, b) => a.batch - b.batch || (a.trial_key < b.trial_key ? -1 : a.trial_key > b.trial_key ? 1 : 0));
    const rows = await pool().query(`SELECT id, trial_key, pair_key, "order", order_index, tool_set_ref, batch FROM trials WHERE run_id = 'r_chunks'`);
    expect(sorted(rows.rows)).toEqual(sorted(expected));
    // and the run created through the use case has the same batches
    const run = await createRun(exp.id, { provider: 'simulated' });
    const batches = await pool().query<{ trial_key: string; batch: number }>(`SELECT trial_key, batch FROM trials WHERE run_id = $1`, [run.id]);
    expect(sorted(batches.rows)).toEqual(sorted(expected.map((t) => ({ trial_key: t.trial_key, batch: t.batch }))));
  });
});
