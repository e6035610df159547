import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { getExperiment } from './experiments';
import { saveExperiment } from '../experiments/versions';
import { setRunStatus } from './runs';
import { claimTrial, markSending, recordResult, type ClaimedTrial, type SendingTrial } from './trials';
import {
  batchItems,
  batchOwner,
  claimBatch,
  createBatch,
  finishBatch,
  markItemsRecorded,
  orphanedBatches,
  recordPoll,
  recordSubmitted,
  releaseUnsubmitted,
  runBatches,
} from './batches';
import { createRun } from '../runner/start';
import { closeQueues } from '../queue/connection';
import { benchSpec } from '../testing/bench-spec';
import { emptyObservation } from '../schema/observation';
import type { ProviderResult } from '../schema/request';

// Batch storage: a batch takes its trials' attempts under its own long lease, is claimed and fenced like a
// trial (a dead holder's batch is taken over with the same provider id, the stale holder's writes refused), and
// its answers are recorded through the engine's fenced trial statement with the token kept on each item.

let runId: string;
let ids: string[];
let next = 0;
const take = (n: number) => ids.slice(next, (next += n));

const sending = async (id: string, owner: string): Promise<SendingTrial> => {
  const c = (await claimTrial(id, owner, 30_000, 3)) as ClaimedTrial;
  if (!('leaseToken' in c)) throw new Error('claim refused');
  const s = await markSending(c, 30_000);
  if (!s) throw new Error('mark fenced out');
  return s;
};
const newItems = (ts: SendingTrial[]) => ts.map((t) => ({ trialId: t.id, attemptN: t.attemptN, leaseToken: t.leaseToken, customId: `${t.id}.${t.attemptN}` }));
const observation = { ...emptyObservation(), toolCalls: [{ name: 'lookup_order', arguments: {} }] };
const ok: ProviderResult = { request: { model: 'm' }, response: { text: 'x' }, httpStatus: 200, latencyMs: 0, usage: null, outcome: 'ok', observation };
const checkpoints = { visibility: 'pass', selection: 'pass', parameters: 'untested', interpretation: 'untested', completion: 'untested' } as const;

beforeAll(async () => {
  const exp = await saveExperiment({ ...benchSpec(40), id: 'batches-itest' });
  await getExperiment(exp.id);
  const run = await createRun(exp.id, { provider: 'simulated' });
  runId = run.id;
  await setRunStatus(runId, ['created'], 'running');
  ids = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY trial_key`, [runId])).rows.map((r) => r.id);
});
afterAll(async () => {
  await closeQueues();
  await closeDb();
});

describe('provider batches', () => {
  it('a batch takes its trials under its own owner; no worker can claim them while it lives', async () => {
    const ts = await Promise.all(take(3).map((id) => sending(id, 'w1')));
    const made = (await createBatch({ runId, provider: 'openai', holder: 'w1', leaseMs: 30_000, batchLeaseMs: 3_600_000, items: newItems(ts) }))!;
    expect(made.items).toHaveLength(3);
    const owners = await pool().query<{ lease_owner: string }>(`SELECT lease_owner FROM trials WHERE id = ANY($1)`, [ts.map((t) => t.id)]);
    expect(owners.rows.map((r) => r.lease_owner)).toEqual([batchOwner(made.batch.id), batchOwner(made.batch.id), batchOwner(made.batch.id)]);
    // even with the worker's own lease long gone, a second worker is refused the trial
    const other = await claimTrial(ts[0].id, 'w2', 30_000, 3);
    expect('reason' in other && other.reason).toBe('leased');
  });

  it('a fenced-out trial is left out of the batch; none left: no batch', async () => {
    const [a, b] = await Promise.all(take(2).map((id) => sending(id, 'w1')));
    const made = (await createBatch({
      runId,
      provider: 'openai',
      holder: 'w1',
      leaseMs: 30_000,
      batchLeaseMs: 3_600_000,
      items: newItems([a, { ...b, leaseToken: b.leaseToken - 1 }]),
    }))!;
    expect(made.items.map((i) => i.trialId)).toEqual([a.id]);
    const [c] = await Promise.all(take(1).map((id) => sending(id, 'w1')));
    expect(await createBatch({ runId, provider: 'openai', holder: 'w1', leaseMs: 30_000, batchLeaseMs: 3_600_000, items: newItems([{ ...c, attemptN: 9 }]) })).toBeNull();
  });

  it('a dead holder’s batch is taken over with its provider id; the stale holder is fenced out; answers recorded once', async () => {
    const ts = await Promise.all(take(2).map((id) => sending(id, 'w1')));
    const { batch } = (await createBatch({ runId, provider: 'anthropic', holder: 'dead-worker', leaseMs: 30_000, batchLeaseMs: 3_600_000, items: newItems(ts) }))!;
    expect(await recordSubmitted(batch, 'msgbatch_1')).toBe(true);
    expect(await claimBatch(batch.id, 'w2', 30_000)).toBeNull(); // the holder's lease still runs
    // the holder dies: its heartbeat row lapses
    await pool().query(
      `INSERT INTO holders (id, alive_until) VALUES ('dead-worker', now() - interval '1 minute') ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
    );
    expect(await orphanedBatches(runId)).toContain(batch.id);
    const taken = (await claimBatch(batch.id, 'w2', 30_000))!;
    expect(taken).toMatchObject({ providerBatchId: 'msgbatch_1', state: 'accepted', fence: batch.fence + 1 });
    expect(await recordPoll(batch, { state: 'completed', succeeded: 2, failed: 0 }, 30_000)).toBe(false);
    expect(await recordSubmitted(batch, 'msgbatch_2')).toBe(false);
    expect(await recordPoll(taken, { state: 'completed', succeeded: 2, failed: 0 }, 30_000)).toBe(true);

    const items = await batchItems(batch.id);
    for (const it of items) {
      const holder = { id: it.trialId, runId, attemptN: it.attemptN, leaseToken: it.leaseToken, sentAtMs: Date.now() };
      expect(await recordResult(holder, ok, observation, [], checkpoints, 'passed')).toBe(true);
    }
    expect(
      await markItemsRecorded(
        taken,
        items.map((i) => i.customId),
      ),
    ).toBe(2);
    expect(
      await markItemsRecorded(
        taken,
        items.map((i) => i.customId),
      ),
    ).toBe(0);
    expect(await finishBatch(taken)).toBe(true);
    const st = await pool().query<{ status: string; n: number }>(
      `SELECT t.status, (SELECT count(*)::int FROM attempts a WHERE a.trial_id = t.id) AS n FROM trials t WHERE t.id = ANY($1)`,
      [ts.map((t) => t.id)],
    );
    expect(st.rows).toEqual([
      { status: 'passed', n: 1 },
      { status: 'passed', n: 1 },
    ]);
    const views = await runBatches(runId);
    expect(views.find((v) => v.id === batch.id)).toMatchObject({ state: 'recorded', providerBatchId: 'msgbatch_1', itemCount: 2, succeeded: 2 });
    expect(await claimBatch(batch.id, 'w3', 30_000)).toBeNull();
  });

  it('a holder that died while submitting: the batch is never sent again; its attempts become lost and the trials claimable', async () => {
    const ts = await Promise.all(take(2).map((id) => sending(id, 'w1')));
    const { batch } = (await createBatch({ runId, provider: 'gemini', holder: 'dead-submitter', leaseMs: 30_000, batchLeaseMs: 3_600_000, items: newItems(ts) }))!;
    await pool().query(
      `INSERT INTO holders (id, alive_until) VALUES ('dead-submitter', now() - interval '1 minute') ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until`,
    );
    const taken = (await claimBatch(batch.id, 'w2', 30_000))!;
    expect(taken).toMatchObject({ state: 'submitting', providerBatchId: null });
    expect(await releaseUnsubmitted(batch)).toEqual([]); // the stale fence releases nothing
    expect((await releaseUnsubmitted(taken)).sort()).toEqual(ts.map((t) => t.id).sort());
    expect(await recordSubmitted(taken, 'late')).toBe(false); // never written, never polled
    const again = (await claimTrial(ts[0].id, 'w3', 30_000, 3)) as ClaimedTrial;
    expect(again).toMatchObject({ attemptN: 2, lostAttempts: 1 });
    const a = await pool().query<{ outcome: string }>(`SELECT outcome FROM attempts WHERE trial_id = $1 ORDER BY n`, [ts[0].id]);
    expect(a.rows.map((r) => r.outcome)).toEqual(['lost']);
  });
});
