import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { getRun } from '../db/runs';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { engineViolations, runCli, spawnWorker, waitFor, waitForRunStatus, type WorkerProcess } from '../testing/engine';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { setProviderEnv } from '../testing/provider-fixtures';
import { createRun, startRun } from './start';

// A run's destination is part of the run (docs/runs.md, "Where a run's requests go"): the base URL it is
// created with is fixed on it, and a worker sends its trials there or not at all. Real worker processes
// (`npm run worker`) and the real OpenAI SDK against two loopback servers: the run is created for A; a worker
// whose environment points at B sends nothing anywhere and the run says why (run row, `tclab status`, log);
// a worker configured for A then completes it, and B never sees a request.

const KEY = 'sk-tclab-DEST-KEY-0123456789abcdef';
let a: LoopbackServer; // where the run was created to go
let b: LoopbackServer; // where the wrong worker's environment points
let experimentId: string;
let restoreEnv: () => void;
const workers: WorkerProcess[] = [];
const workerEnv = (baseUrl: string) => ({
  OPENAI_API_KEY: KEY,
  OPENAI_BASE_URL: baseUrl,
  TCLAB_ALLOWED_BASE_URLS: '',
  TCLAB_LOCK_MS: '2000',
  TCLAB_RECONCILE_MS: '1000',
  TCLAB_WORKER_CONCURRENCY: '8',
  TCLAB_LOG_LEVEL: 'info',
});

beforeAll(async () => {
  a = await startLoopbackServer();
  b = await startLoopbackServer();
  restoreEnv = setProviderEnv({ OPENAI_API_KEY: KEY, OPENAI_BASE_URL: a.openaiBaseUrl, TCLAB_ALLOWED_BASE_URLS: undefined });
  experimentId = (await ensureTemplateExperiment('reference-study')).id;
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.kill()));
});

afterAll(async () => {
  restoreEnv();
  await a.close();
  await b.close();
  await closeQueues();
  await closeDb();
});

const formalAttempts = async (runId: string) =>
  (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [runId])).rows[0].n;

describe("a run's base URL is fixed when it is created", () => {
  it('created without --base-url, the run stores the configured one', async () => {
    const run = await createRun(experimentId, { provider: 'openai', model: 'm' });
    expect(run.settings.baseUrl).toBe(a.openaiBaseUrl);
    expect((await getRun(run.id))!.settings.baseUrl).toBe(a.openaiBaseUrl);
  });

  it('a worker configured for B sends nothing and the run says why; one configured for A completes it', async () => {
    const run = await createRun(experimentId, { provider: 'openai', model: 'loopback-model', concurrency: 8, retryBaseMs: 20, timeoutMs: 2000 });
    expect((await startRun(run.id)).ok).toBe(true); // the pre-checks, from this process (configured for A)
    const precheckRequests = a.count;
    expect(precheckRequests).toBeGreaterThan(0);

    const wrong = spawnWorker(workerEnv(b.openaiBaseUrl), [], { ready: true });
    workers.push(wrong);
    await wrong.ready;
    const why = await waitFor('the run to say why its trials are unsent', async () => (await getRun(run.id))?.unsentReason);
    expect(why).toContain(`OPENAI_BASE_URL=${b.openaiBaseUrl}`);
    expect(why).toContain(`cannot send to the run's base URL ${a.openaiBaseUrl}`);
    expect(why).not.toContain(KEY);
    await waitFor('the wrong worker to log it', async () => wrong.output().includes('run left unsent'));
    const status = await runCli(['status', run.id]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'running', unsentReason: why });
    // nothing went anywhere: no request at B, none more at A, no attempt booked
    expect(b.count).toBe(0);
    expect(a.count).toBe(precheckRequests);
    expect(await formalAttempts(run.id)).toBe(0);

    // the right worker comes (the wrong one is still running beside it)
    const right = spawnWorker(workerEnv(a.openaiBaseUrl), [], { ready: true });
    workers.push(right);
    const final = await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved'], 120_000);
    expect(final.status).toBe('completed');
    expect(b.count).toBe(0);
    expect(a.count - precheckRequests).toBe(await formalAttempts(run.id));
    expect(await formalAttempts(run.id)).toBe(final.totalTrials);
    expect(await engineViolations(run.id)).toEqual([]);
    expect(final.settings.baseUrl).toBe(a.openaiBaseUrl);
  }, 180_000);

  it('a worker without the key for that base URL sends nothing either, and says which variable to set', async () => {
    const run = await createRun(experimentId, { provider: 'openai', model: 'loopback-model', concurrency: 8 });
    expect((await startRun(run.id)).ok).toBe(true);
    const before = a.count;
    const keyless = spawnWorker({ ...workerEnv(a.openaiBaseUrl), OPENAI_API_KEY: '' }, [], { ready: true });
    workers.push(keyless);
    const why = await waitFor('the run to say why', async () => (await getRun(run.id))?.unsentReason);
    expect(why).toContain('OPENAI_API_KEY is not set');
    expect(a.count).toBe(before);
    expect(await formalAttempts(run.id)).toBe(0);
    await pool().query(`UPDATE runs SET status = 'cancelled' WHERE id = $1`, [run.id]);
  }, 60_000);

  it('the pre-checks are left too: a process configured for B takes nothing of a run fixed on A', async () => {
    const run = await createRun(experimentId, { provider: 'openai', model: 'm' });
    const undo = setProviderEnv({ OPENAI_BASE_URL: b.openaiBaseUrl });
    try {
      const started = await startRun(run.id);
      expect(started).toMatchObject({ ok: false, waiting: true, reason: expect.stringContaining(`cannot send to the run's base URL ${a.openaiBaseUrl}`) });
    } finally {
      undo();
    }
    expect(b.count).toBe(0);
    const stored = (await getRun(run.id))!;
    expect(stored.status).toBe('created');
    expect(stored.unsentReason).toContain(`OPENAI_BASE_URL=${b.openaiBaseUrl}`);
    // configured for A again: it starts, and the reason is cleared
    expect((await startRun(run.id)).ok).toBe(true);
    expect((await getRun(run.id))!.unsentReason).toBeNull();
    await pool().query(`UPDATE runs SET status = 'cancelled' WHERE id = $1`, [run.id]);
  });
});
