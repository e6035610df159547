import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { waitFor } from '../testing/engine';
import { resetEnvCache } from '../env';
import { closeDb, pool } from '../db/client';
import { closeQueues } from '../queue/connection';
import { Limiter } from '../queue/limiter';
import { ensureTemplateExperiment } from '../experiments/templates';
import { createRun, startRun } from './start';
import { controlRun } from './control';
import { runContext } from './context';
import { limiterSlots, limitsOf, scopeOf } from './slot';
import { leaseMsFor, processTrial, type TrialOutcome } from './trial';

// One trial through processTrial with the real limiter, PostgreSQL and the OpenAI SDK against the loopback
// server: a claimed trial waits for a rate-limit slot held by someone else. While it waits its lease is
// renewed; if its run is paused or cancelled meanwhile, nothing is sent and the claim is given back.

let server: LoopbackServer;
let limiter: Limiter;
let experimentId: string;

beforeAll(async () => {
  server = await startLoopbackServer();
  process.env.OPENAI_API_KEY = 'sk-test-trial-0000';
  process.env.TCLAB_ALLOWED_BASE_URLS = server.url; // the runs name the loopback server as their base URL
  resetEnvCache();
  limiter = new Limiter();
  experimentId = (await ensureTemplateExperiment('reference-study')).id;
});

afterAll(async () => {
  limiter.close();
  await server.close();
  await closeQueues();
  await closeDb();
});

interface TrialRow {
  status: string;
  attempt_count: number;
  lease_owner: string | null;
  lease_expires_at: Date | null;
  attempts: number;
}

async function trialRow(id: string): Promise<TrialRow> {
  const r = await pool().query<TrialRow>(
    `SELECT status, attempt_count, lease_owner, lease_expires_at, (SELECT count(*)::int FROM attempts a WHERE a.trial_id = t.id) AS attempts
       FROM trials t WHERE id = $1`,
    [id],
  );
  return r.rows[0];
}

/** A running run of concurrency 1 whose only slot is held by a blocker; one of its trials, processing. */
async function trialBehindABlocker() {
  const model = `slot-test-${randomBytes(3).toString('hex')}`;
  const run = await createRun(experimentId, { provider: 'openai', model, baseUrl: server.openaiBaseUrl, concurrency: 1, timeoutMs: 1000 });
  expect((await startRun(run.id)).ok).toBe(true); // its jobs wait in Redis: no worker runs in this file
  const ctx = await runContext(run.id);
  const limits = limitsOf(ctx, leaseMsFor(ctx.settings.timeoutMs));
  const blocker = await limiter.acquire(scopeOf(ctx), `blocker-${model}`, limits);
  if (typeof blocker === 'string') throw new Error(`blocker: ${blocker}`);
  const trial = (await pool().query<{ id: string }>(`SELECT id FROM trials WHERE run_id = $1 ORDER BY id LIMIT 1`, [run.id])).rows[0];
  const sentBefore = server.count;
  let outcome: TrialOutcome | undefined;
  const processing = processTrial({ trialId: trial.id, runId: run.id }, { owner: 'test-worker', slots: limiterSlots(limiter, leaseMsFor) }).then((o) => (outcome = o));
  await waitFor('the claim', async () => (await trialRow(trial.id)).status === 'running', 5000, 20);
  return {
    run,
    trialId: trial.id,
    sent: () => server.count - sentBefore,
    outcome: () => outcome,
    processing,
    unblock: () => limiter.release(scopeOf(ctx), blocker.holder, 'ok', limits),
  };
}

describe('a claimed trial waiting for a slot', () => {
  it('renews its lease while it waits and is sent once, when the slot comes', async () => {
    const t = await trialBehindABlocker();
    const firstLease = (await trialRow(t.trialId)).lease_expires_at!.getTime();
    // past its slot wait (1 s for a 1 s timeout) the lease is renewed while the trial still waits
    const row = await waitFor(
      'the renewed lease',
      async () => {
        const r = await trialRow(t.trialId);
        return r.lease_expires_at!.getTime() > firstLease + 500 ? r : null;
      },
      10_000,
      50,
    );
    expect(row.status).toBe('running');
    expect(t.sent()).toBe(0);
    await t.unblock();
    await t.processing;
    expect(t.outcome()?.kind).toBe('done');
    expect(t.sent()).toBe(1);
    const done = await trialRow(t.trialId);
    expect(done).toMatchObject({ attempt_count: 1, attempts: 1 });
    expect(['passed', 'failed', 'untested']).toContain(done.status);
  });

  it('is not sent when its run is paused meanwhile: the claim is given back, the trial queued as before', async () => {
    const t = await trialBehindABlocker();
    expect((await controlRun(t.run.id, 'pause')).ok).toBe(true);
    await t.processing; // the halt is seen at the next poll of the limiter
    expect(t.outcome()).toMatchObject({ kind: 'dropped' });
    expect(await trialRow(t.trialId)).toMatchObject({ status: 'queued', attempt_count: 0, lease_owner: null, lease_expires_at: null, attempts: 0 });
    await t.unblock();
    expect(t.sent()).toBe(0);
  });

  it('is not sent when its run is cancelled meanwhile: the trial is cancelled with no attempt', async () => {
    const t = await trialBehindABlocker();
    expect((await controlRun(t.run.id, 'cancel')).ok).toBe(true);
    await t.processing;
    expect(t.outcome()).toMatchObject({ kind: 'dropped' });
    expect(await trialRow(t.trialId)).toMatchObject({ status: 'cancelled', attempt_count: 0, attempts: 0 });
    await t.unblock();
    expect(t.sent()).toBe(0);
  });
});
