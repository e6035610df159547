import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, echoScript, type LoopbackServer } from '../testing/loopback-server';
import { engineViolations, doneCount, spawnWorker, waitFor, waitForRunStatus, type WorkerProcess } from '../testing/engine';
import { closeDb, pool } from '../db/client';
import { resetEnvCache } from '../env';
import { closeQueues } from '../queue/connection';
import { ensureTemplateExperiment } from '../db/templates';
import { createRun, startRun } from './start';

// Worker processes as in production (`npm run worker`), killed with SIGKILL mid-run, and two of them
// sharing one run. Short locks and leases so a dead worker's trials come back within seconds.

const KEY = 'sk-test-crash-0000';
let server: LoopbackServer;
let experimentId: string;
const workers: WorkerProcess[] = [];
const workerEnv = () => ({ OPENAI_API_KEY: KEY, TCLAB_LOCK_MS: '2000', TCLAB_RECONCILE_MS: '1000', TCLAB_WORKER_CONCURRENCY: '8' });

beforeAll(async () => {
  process.env.OPENAI_API_KEY = KEY;
  resetEnvCache();
  server = await startLoopbackServer({ script: async (req) => ({ kind: 'delay', ms: 150, then: await echoScript(req) }) });
  experimentId = (await ensureTemplateExperiment('reference-study')).id;
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  await server.close();
  await closeQueues();
  await closeDb();
});

const settings = () => ({ provider: 'openai', model: 'loopback-model', baseUrl: server.openaiBaseUrl, timeoutMs: 1000, retryBaseMs: 20, concurrency: 8, maxAttempts: 8 });

describe('crashes and scale-out', () => {
  it('survives three SIGKILLs of the worker: every trial ends with exactly one formal result', async () => {
    const run = await createRun(experimentId, settings());
    expect((await startRun(run.id)).ok).toBe(true);
    let lastDone = 0;
    for (let kill = 1; kill <= 3; kill++) {
      const w = spawnWorker(workerEnv());
      workers.push(w);
      await waitFor(`progress before kill ${kill}`, async () => (await doneCount(run.id)) >= lastDone + 10, 60_000);
      await w.kill('SIGKILL');
      lastDone = await doneCount(run.id);
      expect(lastDone).toBeLessThan(152);
    }
    const survivor = spawnWorker(workerEnv());
    workers.push(survivor);
    const final = await waitForRunStatus(run.id, ['completed'], 120_000);
    expect(final.status).toBe('completed');
    expect(await engineViolations(run.id)).toEqual([]);
    const lost = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND outcome = 'lost'`, [run.id]);
    // requests in flight at each kill were recorded as lost and re-sent under a new attempt number
    expect(lost.rows[0].n).toBeGreaterThan(0);
    const resent = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM trials t WHERE t.run_id = $1 AND EXISTS (SELECT 1 FROM attempts a WHERE a.trial_id = t.id AND a.outcome = 'lost')
          AND EXISTS (SELECT 1 FROM attempts a WHERE a.trial_id = t.id AND a.outcome = 'ok' AND a.n > 1)`,
      [run.id],
    );
    expect(resent.rows[0].n).toBeGreaterThan(0);
    await survivor.kill('SIGTERM');
  });

  it('lets two worker processes share one run without processing a trial to a result twice', async () => {
    const run = await createRun(experimentId, settings());
    expect((await startRun(run.id)).ok).toBe(true);
    const a = spawnWorker(workerEnv());
    const b = spawnWorker(workerEnv());
    workers.push(a, b);
    const final = await waitForRunStatus(run.id, ['completed'], 120_000);
    expect(final.status).toBe('completed');
    expect(await engineViolations(run.id)).toEqual([]);
    const owners = await pool().query<{ owner: string; n: number }>(
      `SELECT lease_owner AS owner, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY lease_owner`,
      [run.id],
    );
    expect(owners.rows.filter((o) => o.owner && o.n > 0).length).toBe(2);
    const twice = await pool().query(`SELECT trial_id FROM attempts WHERE run_id = $1 AND kind = 'formal' AND outcome = 'ok' GROUP BY trial_id HAVING count(*) > 1`, [run.id]);
    expect(twice.rowCount).toBe(0);
    await Promise.all([a.kill('SIGTERM'), b.kill('SIGTERM')]);
  });
});
