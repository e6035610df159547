import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { getExperiment } from './experiments';
import { saveExperiment } from '../experiments/versions';
import type { ExperimentSpec } from '../schema/experiment';
import { setRunStatus } from './runs';
import {
  cancelQueuedTrials,
  claimTrial,
  markExhausted,
  markSending,
  pendingBatches,
  pendingBatchPages,
  stillPending,
  recordResult,
  recordTransportError,
  unclaimTrial,
  type ClaimedTrial,
  type SendingTrial,
} from './trials';
import { createRun, firstChunkSent } from '../runner/start';
import { FIRST_CHUNK_WAIT_MS } from '../queue/enqueue';
import { TRIALS_PER_JOB } from '../queue/contracts';
import { expandTrials } from '../design/matrix';
import { closeQueues } from '../queue/connection';
import { benchSpec } from '../testing/bench-spec';
import type { ProviderResult } from '../schema/request';
import { emptyObservation, type Observation } from '../schema/observation';

// The hot-path SQL through group commit: claims and results of many trials go in one statement each, and
// every row is still fenced on its own lease token.

let runId: string;
let spec: ExperimentSpec;
let ids: string[];
let next = 0;
const take = (n: number) => ids.slice(next, (next += n));

const observation: Observation = { ...emptyObservation(), toolCalls: [{ name: 'lookup_order', arguments: {} }] };
const ok = (text: string): ProviderResult => ({ request: { model: 'm' }, response: { text }, httpStatus: 200, latencyMs: 12, usage: null, outcome: 'ok', observation });
const failed = (kind: 'http_5xx', message: string): ProviderResult => ({
  request: { model: 'm' },
  response: null,
  httpStatus: 500,
  latencyMs: 12,
  usage: null,
  outcome: 'transport_error',
  error: { kind, message },
});
const checkpoints = { visibility: 'pass', selection: 'pass', parameters: 'untested', interpretation: 'untested', completion: 'untested' } as const;
const verdict = {
  checkId: 'tool-choice',
  axis: 'task_fit',
  checkpoint: 'selection',
  status: 'pass',
  category: null,
  reason: 'ok',
  evidence: { attemptN: 1, part: null, rule: 'r' },
} as const;
const record = (c: SendingTrial, text = 'answer') => recordResult(c, ok(text), observation, [verdict], checkpoints, 'passed');
const claimed = (x: Awaited<ReturnType<typeof claimTrial>>): ClaimedTrial => {
  if (!('leaseToken' in x)) throw new Error(`refused: ${x.reason}`);
  return x;
};
const sending = async (c: ClaimedTrial): Promise<SendingTrial> => {
  const s = await markSending(c, 30_000);
  if (!s) throw new Error(`mark of ${c.id} fenced out`);
  return s;
};
const counted = async (id: string) => (await pool().query<{ n: number }>(`SELECT attempt_count AS n FROM trials WHERE id = $1`, [id])).rows[0].n;
const expireLease = (id: string) => pool().query(`UPDATE trials SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
const attempts = async (id: string) =>
  (await pool().query<{ n: number; outcome: string; response: unknown }>(`SELECT n, outcome, response FROM attempts WHERE trial_id = $1 ORDER BY n`, [id])).rows;

beforeAll(async () => {
  const exp = await saveExperiment({ ...benchSpec(200), id: 'trials-itest' });
  spec = (await getExperiment(exp.id))!.spec;
  const run = await createRun(exp.id, { provider: 'simulated' });
  runId = run.id;
  await setRunStatus(runId, ['created'], 'running');
  ids = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY trial_key`, [runId])).rows.map((r) => r.id);
});

afterAll(async () => {
  // integration files share one database and one queue, and every worker reconciles every running run: once this
  // file is done, no other file's worker may claim the trials its tests left in the states they needed
  await setRunStatus(runId, ['running'], 'cancelled');
  await closeQueues();
  await closeDb();
});

describe('batched claim and record', () => {
  it('claims and records many trials at once, each with its own token and attempt 1', async () => {
    const batch = take(40);
    const claims = (await Promise.all(batch.map((id) => claimTrial(id, 'w1', 30_000, 3)))).map(claimed);
    expect(claims.map((c) => c.id)).toEqual(batch);
    for (const c of claims) expect([c.attemptN, c.leaseToken, c.attemptId]).toEqual([1, 1, `${c.id}-a1`]);
    const sent = await Promise.all(claims.map(sending));
    expect(await Promise.all(sent.map((c) => record(c)))).toEqual(batch.map(() => true));
    const r = await pool().query<{ status: string; obs: number; v: number; a: number }>(
      `SELECT t.status, (SELECT count(*)::int FROM observations o WHERE o.trial_id = t.id) AS obs,
              (SELECT count(*)::int FROM verdicts v WHERE v.trial_id = t.id) AS v,
              (SELECT count(*)::int FROM attempts a WHERE a.trial_id = t.id AND a.outcome = 'ok') AS a
         FROM trials t WHERE t.id = ANY($1)`,
      [batch],
    );
    expect(r.rows).toEqual(batch.map(() => ({ status: 'passed', obs: 1, v: 1, a: 1 })));
  });

  it('stores each request and response text as given, in a batch of several: quotes, backslashes, escapes spelt out, a lone surrogate as a text parameter makes it', async () => {
    const texts = [
      String.raw`{"text":"quote \" backslash \\ pair \ud83d\ude00 nul \u0000 tab \t","raw":"😀 é 中"}`,
      String.raw`{"alone":"\ud800 spelt out, and \u0000"}`,
      // a raw lone surrogate cannot be written as UTF-8: the driver writes a text parameter's as U+FFFD
      `{"raw":"a\ud800b"}`,
    ];
    const batch = take(texts.length);
    const sent = await Promise.all(batch.map(async (id) => sending(claimed(await claimTrial(id, 'w1', 30_000, 3)))));
    const won = await Promise.all(
      sent.map((c, i) => recordResult(c, { ...ok('x'), requestJson: texts[i], responseJson: texts[i] }, observation, [verdict], checkpoints, 'passed')),
    );
    expect(won).toEqual(texts.map(() => true));
    const r = await pool().query<{ trial_id: string; request: string; response: string }>(
      `SELECT trial_id, request::text AS request, response::text AS response FROM attempts WHERE trial_id = ANY($1)`,
      [batch],
    );
    const stored = new Map(r.rows.map((x) => [x.trial_id, x]));
    const expected = [texts[0], texts[1], '{"raw":"a\ufffdb"}'];
    batch.forEach((id, i) => expect(stored.get(id)).toEqual({ trial_id: id, request: expected[i], response: expected[i] }));
  });

  it('fences every row on its own token: a stale holder in the same batch records its attempt and nothing else', async () => {
    const [a, b] = take(2);
    const staleA = await sending(claimed(await claimTrial(a, 'old', 30_000, 3)));
    await expireLease(a);
    const freshA = await sending(claimed(await claimTrial(a, 'new', 30_000, 3)));
    const onlyB = await sending(claimed(await claimTrial(b, 'new', 30_000, 3)));
    expect(freshA.attemptN).toBe(2);
    // the three results go in one statement
    const won = await Promise.all([record(staleA, 'stale'), record(freshA, 'fresh'), record(onlyB)]);
    expect(won).toEqual([false, true, true]);
    expect(await attempts(a)).toEqual([
      { n: 1, outcome: 'ok', response: { text: 'stale' } }, // the late answer replaced the `lost` its mark became
      { n: 2, outcome: 'ok', response: { text: 'fresh' } },
    ]);
    const obs = await pool().query<{ attempt_id: string }>(`SELECT attempt_id FROM observations WHERE trial_id = $1`, [a]);
    expect(obs.rows).toEqual([{ attempt_id: `${a}-a2` }]);
  });

  it('records an attempt whose holder died after sending as lost when the trial is claimed again', async () => {
    const [id] = take(1);
    await sending(claimed(await claimTrial(id, 'dies', 30_000, 3)));
    expect((await attempts(id)).map((x) => [x.n, x.outcome])).toEqual([[1, 'sending']]);
    await expireLease(id);
    const again = await sending(claimed(await claimTrial(id, 'next', 30_000, 3)));
    expect([again.attemptN, again.lostAttempts]).toEqual([2, 1]);
    expect(await recordTransportError(again, failed('http_5xx', 'x'), { kind: 'retry', notBefore: new Date(Date.now() + 60_000) })).toBe(true);
    expect((await attempts(id)).map((x) => [x.n, x.outcome])).toEqual([
      [1, 'lost'],
      [2, 'transport_error'],
    ]);
    expect(await claimTrial(id, 'early', 30_000, 3)).toMatchObject({ reason: 'not-before' });
  });

  it('counts no attempt for a claim that never sent: its holder died, or it was given back', async () => {
    const [died, halted] = take(2);
    const first = claimed(await claimTrial(died, 'dies-before-sending', 30_000, 2));
    await expireLease(died);
    const again = claimed(await claimTrial(died, 'next', 30_000, 2));
    expect([again.attemptN, again.lostAttempts, again.leaseToken]).toEqual([1, 0, first.leaseToken + 1]);
    expect(await attempts(died)).toEqual([]);
    expect(await counted(died)).toBe(0);
    // the dead claim cannot book a send any more: fenced on its token
    expect(await markSending(first, 30_000)).toBeNull();
    expect(await counted(died)).toBe(0);

    const h = claimed(await claimTrial(halted, 'w', 30_000, 2));
    expect(await unclaimTrial(h)).toBe(true);
    expect(await markSending(h, 30_000)).toBeNull();
    const retaken = claimed(await claimTrial(halted, 'w', 30_000, 2));
    expect(retaken.attemptN).toBe(1);
    expect([await attempts(halted), await counted(halted)]).toEqual([[], 0]);
  });

  it('books each sent attempt once, with the next number, however many claims came before', async () => {
    const [id] = take(1);
    const c1 = claimed(await claimTrial(id, 'w', 30_000, 3));
    const [s1, dup] = await Promise.all([markSending(c1, 30_000), markSending(c1, 30_000)]);
    expect([s1 !== null, dup !== null].sort()).toEqual([false, true]); // one mark per claim
    expect(await counted(id)).toBe(1);
    const row = await pool().query<{ started_at: Date; outcome: string }>(`SELECT started_at, outcome FROM attempts WHERE trial_id = $1`, [id]);
    expect(row.rows[0].outcome).toBe('sending');
    expect(Math.abs(row.rows[0].started_at.getTime() - (s1 ?? dup)!.sentAtMs)).toBeLessThan(5);
  });

  it('marks a trial whose attempts ran out unresolved, recording the unanswered one as lost', async () => {
    const [id] = take(1);
    await sending(claimed(await claimTrial(id, 'dies', 30_000, 1)));
    await expireLease(id);
    expect(await claimTrial(id, 'next', 30_000, 1)).toMatchObject({ reason: 'exhausted', attempts: 1 });
    expect(await markExhausted(id)).toBe(true);
    expect((await attempts(id)).map((x) => [x.n, x.outcome])).toEqual([[1, 'lost']]);
    const t = await pool().query<{ status: string }>(`SELECT status FROM trials WHERE id = $1`, [id]);
    expect(t.rows[0].status).toBe('unresolved');
  });

  it('cancels the trials of a dead holder with the queued ones; its sending mark becomes lost', async () => {
    const exp = await saveExperiment({ ...benchSpec(4), id: 'trials-itest-cancel' });
    const run = await createRun(exp.id, { provider: 'simulated' });
    await setRunStatus(run.id, ['created'], 'running');
    const [dead, live] = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY trial_key`, [run.id])).rows.map((r) => r.id);
    await sending(claimed(await claimTrial(dead, 'dies', 30_000, 3)));
    await expireLease(dead);
    const holder = await sending(claimed(await claimTrial(live, 'alive', 30_000, 3)));
    await setRunStatus(run.id, ['running'], 'cancelled');
    expect(await cancelQueuedTrials(run.id)).toBe(3); // the dead holder's and the two queued
    expect((await attempts(dead)).map((x) => [x.n, x.outcome])).toEqual([[1, 'lost']]);
    // the live holder's answer still lands: it was sent
    expect(await record(holder)).toBe(true);
    const st = await pool().query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY status ORDER BY status`, [
      run.id,
    ]);
    expect(st.rows).toEqual([
      { status: 'cancelled', n: 3 },
      { status: 'passed', n: 1 },
    ]);
  });

  it('says why each refused claim of a batch was refused', async () => {
    const [done, held, missing] = [ids[0], take(1)[0], 'no-such-trial'];
    claimed(await claimTrial(held, 'holder', 30_000, 3));
    const refusals = await Promise.all([claimTrial(done, 'w', 30_000, 3), claimTrial(held, 'w', 30_000, 3), claimTrial(missing, 'w', 30_000, 3)]);
    expect(refusals).toMatchObject([{ reason: 'final', status: 'passed' }, { reason: 'leased' }, { reason: 'missing' }]);
    await setRunStatus(runId, ['running'], 'paused');
    expect(await claimTrial(take(1)[0], 'w', 30_000, 3)).toMatchObject({ reason: 'run-not-running', runStatus: 'paused' });
    await setRunStatus(runId, ['paused'], 'running');
  });
});

describe('the start of a run', () => {
  /** A batch none of whose trials an earlier test touched, and its trials. */
  const freshBatch = async () => {
    const b = await pool().query<{ batch: number }>(
      `SELECT batch FROM trials WHERE run_id = $1 GROUP BY batch HAVING bool_and(status = 'queued' AND attempt_count = 0) ORDER BY batch DESC LIMIT 1`,
      [runId],
    );
    const batch = b.rows[0].batch;
    const members = await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 AND batch = $2 ORDER BY id`, [runId, batch]);
    return { batch, trials: members.rows.map((x) => x.id) };
  };

  it('numbers a run’s trials into delivery batches of TRIALS_PER_JOB, in the design’s order', async () => {
    const r = await pool().query<{ batch: number; n: number }>(`SELECT batch, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY batch ORDER BY batch`, [runId]);
    const full = Math.floor(200 / TRIALS_PER_JOB);
    expect(r.rows.map((x) => x.batch)).toEqual(Array.from({ length: Math.ceil(200 / TRIALS_PER_JOB) }, (_, i) => i));
    expect(r.rows.slice(0, full).every((x) => x.n === TRIALS_PER_JOB)).toBe(true);
    expect(r.rows.reduce((a, x) => a + x.n, 0)).toBe(200);
    const order = (await pool().query<{ trial_key: string; batch: number }>(`SELECT trial_key, batch FROM trials WHERE run_id = $1`, [runId])).rows;
    const byKey = new Map(order.map((x) => [x.trial_key, x.batch]));
    expandTrials(spec).forEach((t, i) => expect(byKey.get(t.trialKey)).toBe(Math.floor(i / TRIALS_PER_JOB)));
  });

  it('says which batches need a job and the trials it carries: none whose trials are all final or held; when one whose trials all wait is due', async () => {
    const { batch, trials } = await freshBatch();
    const has = async () => (await pendingBatches(runId)).find((p) => p.batch === batch);
    expect(await has()).toEqual({ batch, trialIds: trials, notBefore: null });
    const later = new Date(Date.now() + 60_000);
    await pool().query(`UPDATE trials SET not_before = $2 WHERE id = ANY($1::text[])`, [trials, later]);
    expect((await has())?.notBefore?.getTime()).toBe(later.getTime()); // every pending trial waits: the batch is due then
    await pool().query(`UPDATE trials SET not_before = NULL WHERE id = $1`, [trials[0]]);
    expect(await has()).toEqual({ batch, trialIds: trials, notBefore: null }); // one is due now
    await pool().query(`UPDATE trials SET not_before = NULL WHERE id = ANY($1::text[])`, [trials]);
    const held = await Promise.all(trials.map(async (id) => claimed(await claimTrial(id, 'w', 30_000, 3))));
    expect(await has()).toBeUndefined(); // all held under live leases
    expect((await pendingBatches(runId)).flatMap((p) => p.trialIds)).not.toContain(trials[0]);
    await unclaimTrial(held[0]);
    // one claimable again: the batch needs a job, which carries the held trials too (taken over if their holder dies)
    expect(await has()).toEqual({ batch, trialIds: trials, notBefore: null });
    await Promise.all(held.slice(1).map((c) => unclaimTrial(c)));
    expect(await stillPending([...trials, ids[0]])).toEqual(trials); // ids[0] was recorded by an earlier test
  });

  it('reads the batches that need a job in pages, in batch order, from one snapshot; a reader that stops early leaves no connection held', async () => {
    const whole = await pendingBatches(runId);
    expect(whole.length).toBeGreaterThan(5);
    const last = whole.at(-1)!.batch;
    const before = (await pool().query<{ id: string; status: string }>(`SELECT id, status FROM trials WHERE run_id = $1 AND batch = $2`, [runId, last])).rows;
    const pages: number[][] = [];
    for await (const page of pendingBatchPages(runId, 3)) {
      pages.push(page.map((p) => p.batch));
      // a trial recorded between two pages: the pages still read the snapshot taken when the first was asked
      if (pages.length === 1) await pool().query(`UPDATE trials SET status = 'cancelled' WHERE run_id = $1 AND batch = $2`, [runId, last]);
    }
    expect(pages.slice(0, -1).every((p) => p.length === 3)).toBe(true);
    expect(pages.flat()).toEqual(whole.map((p) => p.batch));
    // each trial back to what it was (a trial an earlier test scored is not queued again)
    await pool().query(`UPDATE trials t SET status = b.status FROM unnest($1::text[], $2::text[]) AS b(id, status) WHERE t.id = b.id`, [
      before.map((t) => t.id),
      before.map((t) => t.status),
    ]);
    for await (const page of pendingBatchPages(runId, 2)) {
      expect(page).toHaveLength(2);
      break;
    }
    expect(pool().totalCount - pool().idleCount).toBe(0);
    // the pool hands out its most recently released connection: the one the cursor was on has none left open
    const c = await pool().connect();
    try {
      expect((await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_cursors`)).rows[0].n).toBe(0);
    } finally {
      c.release();
    }
  });

  it('adds the rest of a run once its first chunk is sent: it waits for every sending mark, at most its deadline', async () => {
    const { batch, trials: chunk } = await freshBatch();
    const jobs = [{ runId, batch, trialIds: chunk }];
    const t0 = Date.now();
    expect(await firstChunkSent(jobs)).toBe('timeout'); // nothing sent: the rest is added anyway, after the deadline
    expect(Date.now() - t0).toBeGreaterThanOrEqual(FIRST_CHUNK_WAIT_MS);
    const [first, ...rest] = await Promise.all(chunk.map(async (id) => claimed(await claimTrial(id, 'w', 30_000, 3))));
    await Promise.all(rest.map((c) => sending(c)));
    const waiting = firstChunkSent(jobs); // all but one sent: still waiting
    await sending(first);
    expect(await waiting).toBe('sent');
  });
});
