import { afterAll, describe, expect, it } from 'vitest';
import { echoScript, type Reply } from '../testing/loopback-server';
import { loopbackEngine } from '../testing/loopback-engine';
import { engineViolations, runCli, spawnCli, waitFor, waitForRunStatus, type WorkerProcess } from '../testing/engine';
import { pool } from '../db/client';
import { getRun } from '../db/runs';
import { claimPrecheck, markPrecheckSending } from '../db/prechecks';
import { createRun, startRun } from './start';
import { controlRun } from './control';
import { startWorker } from './worker';

// Durable pre-checks against a loopback OpenAI-wire server: transport errors retried with backoff, every
// request an attempt row, a run whose pre-checking process died taken over by reconcile or `tclab resume`.

const KEY = 'sk-test-precheck-0000';
const spawned: WorkerProcess[] = [];
const engine = loopbackEngine({
  key: KEY,
  env: (server) => ({ OPENAI_BASE_URL: server.openaiBaseUrl }),
  settings: { maxAttempts: 3, timeoutMs: 2000, concurrency: 8 },
});
const settings = engine.settings;

afterAll(async () => {
  await Promise.all(spawned.map((p) => p.kill()));
});

const prechecks = async (runId: string) =>
  (
    await pool().query<{ n: number; outcome: string; error_kind: string | null; trial_id: string | null }>(
      `SELECT n, outcome, error_kind, trial_id FROM attempts WHERE run_id = $1 AND kind = 'precheck' ORDER BY n`,
      [runId],
    )
  ).rows.map((a) => [a.n, a.outcome, a.error_kind, a.trial_id]);

/** Answers from a list, one per request, then the echo. */
function scripted(first: Reply[]) {
  let i = 0;
  engine.server.setScript((req) => (i < first.length ? first[i++] : echoScript(req)));
}

/** The run's pre-check holder (`<holder>#<claim>`) has a heartbeat row, and it has lapsed. */
const precheckHolderLapsed = async (runId: string) =>
  (
    await pool().query(
      `SELECT 1 FROM runs r JOIN holders h ON h.id = split_part(r.precheck_owner, '#', 1) WHERE r.id = $1 AND h.alive_until < now()
          AND r.precheck_lease_expires_at > now()`,
      [runId],
    )
  ).rowCount === 1;

describe('durable pre-checks', () => {
  it('retries a 500 and a reset on the pre-checks like trials; each request is an attempt row outside every denominator', async () => {
    scripted([{ kind: 'http', status: 500 }, { kind: 'reset' }]);
    const run = await createRun(engine.experimentId, settings());
    expect(await startRun(run.id)).toEqual({ ok: true });
    expect(await prechecks(run.id)).toEqual([
      [1, 'transport_error', 'http_5xx', null],
      [2, 'transport_error', 'reset', null],
      [3, 'ok', null, null],
      [4, 'ok', null, null],
    ]);
    expect((await getRun(run.id))!.status).toBe('running');
    const worker = startWorker({ concurrency: 8 });
    try {
      expect((await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed'])).status).toBe('completed');
    } finally {
      await worker.close();
    }
    expect(await engineViolations(run.id)).toEqual([]);
    const formal = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [run.id]);
    expect(formal.rows[0].n).toBe(152);
  });

  it('fails at once on a 4xx, and after its attempts on transport errors; the trials are then never sent', async () => {
    scripted([{ kind: 'http', status: 401 }]);
    const refused = await createRun(engine.experimentId, settings());
    const r1 = await startRun(refused.id);
    expect(r1).toMatchObject({ ok: false, reason: expect.stringMatching(/^pre-check 1 failed \(requests go to .*\): .*key/i) });
    expect(await prechecks(refused.id)).toEqual([[1, 'transport_error', 'http_4xx', null]]);

    engine.server.setScript(() => ({ kind: 'http', status: 503 }));
    const down = await createRun(engine.experimentId, settings());
    const r2 = await startRun(down.id);
    expect(r2).toMatchObject({ ok: false, reason: expect.stringMatching(/^pre-check 1 failed after 3 attempts \(requests go to .*\): .*server error/) });
    expect((await prechecks(down.id)).map((a) => a[1])).toEqual(['transport_error', 'transport_error', 'transport_error']);
    for (const id of [refused.id, down.id]) {
      expect((await getRun(id))!.status).toBe('failed');
      const t = await pool().query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY status`, [id]);
      expect(t.rows).toEqual([{ status: 'cancelled', n: 152 }]);
    }
    engine.server.setScript(echoScript);
  });

  it('reconcile takes over a run left prechecking by a dead process: its sending mark becomes lost, the pre-checks finish, the run completes', async () => {
    engine.server.setScript(echoScript);
    const run = await createRun(engine.experimentId, settings());
    // a process took the pre-checks, booked one request as sending, and died: its lease runs out at once
    expect(await claimPrecheck(run.id, 'dead-process', 1)).toEqual({ ok: true });
    expect(await markPrecheckSending(run.id, 'dead-process', 1)).toBe(1);
    await waitFor(
      'the dead lease to expire',
      async () => (await pool().query(`SELECT 1 FROM runs WHERE id = $1 AND precheck_lease_expires_at < now()`, [run.id])).rowCount === 1,
    );
    const worker = startWorker({ concurrency: 8, reconcileEveryMs: 200 });
    try {
      expect((await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed'])).status).toBe('completed');
    } finally {
      await worker.close();
    }
    expect(await prechecks(run.id)).toEqual([
      [1, 'lost', 'lost', null],
      [2, 'ok', null, null],
      [3, 'ok', null, null],
    ]);
    expect(await engineViolations(run.id)).toEqual([]);
  });

  it('a CLI killed during the pre-check: `tclab resume` refuses while it lives, takes over once its heartbeat lapsed (long before its lease), and the run completes', async () => {
    let seen!: () => void;
    const firstSeen = new Promise<void>((resolve) => (seen = resolve));
    let n = 0;
    engine.server.setScript((req) => {
      if (++n === 1) {
        seen();
        return { kind: 'hang' };
      }
      return echoScript(req);
    });
    // a 60 s timeout: the pre-check's lease is 65 s, and only the heartbeat lets anyone take over sooner
    const cli = spawnCli(['run', '--template', 'reference-study', '--provider', 'openai', '--model', 'loopback-model', '--timeout-ms', '60000', '--no-worker'], {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: engine.server.openaiBaseUrl,
      TCLAB_LOG_LEVEL: 'warn',
    });
    spawned.push(cli);
    await firstSeen;
    const runId = /run (r_\w+)/.exec(cli.output())![1];
    // while the CLI lives (its request hangs), nobody takes its pre-checks over (asked in-process)
    const early = await controlRun(runId, 'resume');
    expect(early).toMatchObject({ ok: false, status: 'prechecking', message: expect.stringContaining('being sent by another process') });

    await cli.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await getRun(runId))!.status).toBe('prechecking');
    expect(await prechecks(runId)).toEqual([[1, 'sending', null, null]]);
    await waitFor('the killed CLI’s heartbeat to lapse', () => precheckHolderLapsed(runId), 10_000, 50);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
    const resumed = await runCli(['resume', runId]);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('pre-checks passed');
    expect(await prechecks(runId)).toEqual([
      [1, 'lost', 'lost', null],
      [2, 'ok', null, null],
      [3, 'ok', null, null],
    ]);
    expect((await getRun(runId))!.status).toBe('running');
    const worker = startWorker({ concurrency: 8 });
    try {
      expect((await waitForRunStatus(runId, ['completed', 'completed_with_unresolved', 'failed'])).status).toBe('completed');
    } finally {
      await worker.close();
    }
    expect(await engineViolations(runId)).toEqual([]);
  });
  it('a worker takes over the pre-checks of a CLI killed while sending them within 10 s of the kill, not after their lease', async () => {
    let seen!: () => void;
    const firstSeen = new Promise<void>((resolve) => (seen = resolve));
    let n = 0;
    engine.server.setScript((req) => {
      if (++n === 1) {
        seen();
        return { kind: 'hang' };
      }
      return echoScript(req);
    });
    const worker = startWorker({ concurrency: 8 });
    try {
      await worker.ready;
      const cli = spawnCli(['run', '--template', 'reference-study', '--provider', 'openai', '--model', 'loopback-model', '--timeout-ms', '60000', '--no-worker'], {
        OPENAI_API_KEY: KEY,
        OPENAI_BASE_URL: engine.server.openaiBaseUrl,
        TCLAB_LOG_LEVEL: 'warn',
      });
      spawned.push(cli);
      await firstSeen;
      const runId = /run (r_\w+)/.exec(cli.output())![1];
      await cli.kill('SIGKILL');
      const killedAt = Date.now();
      const started = await waitForRunStatus(runId, ['running', 'completed', 'completed_with_unresolved', 'failed'], 60_000);
      const resumedMs = Date.now() - killedAt;
      console.log(`a dead CLI's pre-checks taken over and passed ${resumedMs} ms after the kill`);
      expect(started.status).not.toBe('failed');
      expect(resumedMs).toBeLessThan(10_000);
      expect(await prechecks(runId)).toEqual([
        [1, 'lost', 'lost', null],
        [2, 'ok', null, null],
        [3, 'ok', null, null],
      ]);
      expect((await waitForRunStatus(runId, ['completed', 'completed_with_unresolved', 'failed'])).status).toBe('completed');
      expect(await engineViolations(runId)).toEqual([]);
    } finally {
      await worker.close();
    }
  });
});
