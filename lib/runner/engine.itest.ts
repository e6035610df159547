import { afterAll, describe, expect, it } from 'vitest';
import { deleteRedisPrefix } from '../testing/cleanup';
import { echoScript, type Reply, type ScriptRequest } from '../testing/loopback-server';
import { loopbackEngine } from '../testing/loopback-engine';
import { engineViolations, doneCount, runCli, runSettled, waitFor, waitForRunStatus } from '../testing/engine';
import { env } from '../env';
import { pool } from '../db/client';
import { getExperiment } from '../db/experiments';
import { loadRunSummary } from '../runs/summary';
import { createRun, startRun } from './start';
import { controlRun } from './control';
import { startWorker, type WorkerHandle } from './worker';
import { TEMPLATES } from '../templates';
import { FINAL_RUN_STATUSES } from '../schema/run-status';

// The run engine against a loopback OpenAI-wire server through the real SDK, with real PostgreSQL and
// Redis: injected faults, a Redis that loses every key mid-run, and pause / resume / cancel via the CLI.

const KEY = 'sk-test-engine-0000';
let worker: WorkerHandle | undefined;
const engine = loopbackEngine({
  key: KEY,
  env: (server) => ({ TCLAB_ALLOWED_BASE_URLS: server.url }), // the runs name the loopback server as their base URL
  settings: { maxAttempts: 5, timeoutMs: 3000, concurrency: 16 },
});
const settings = engine.settings;

/** A task that always fails in transport: its trials must end unresolved, outside the denominators. */
const reference = TEMPLATES['reference-study'].build();
const doomedTask = reference.studies[0].cases.find((c) => !reference.prechecks.some((p) => p.caseId === c.id))!.task;

function userText(req: ScriptRequest): string {
  const body = req.body as { messages?: { role: string; content: unknown }[] };
  return JSON.stringify(body.messages?.filter((m) => m.role === 'user') ?? []);
}

afterAll(async () => {
  await worker?.close();
});

describe('run engine under faults', () => {
  it('resolves every trial once, stores every attempt and keeps transport errors out of Table 1', async () => {
    let n = 0;
    const faults: Reply[] = [{ kind: 'http', status: 500 }, { kind: 'http', status: 429, headers: { 'retry-after': '1' } }, { kind: 'reset' }, { kind: 'nonJson' }];
    engine.server.clearRequests();
    engine.server.setScript((req) => {
      if (userText(req).includes(JSON.stringify(doomedTask).slice(1, -1))) return { kind: 'http', status: 503 };
      n++;
      return n % 5 === 0 ? faults[(n / 5) % faults.length] : echoScript(req);
    });
    const run = await createRun(engine.experimentId, settings());
    expect((await startRun(run.id)).ok).toBe(true);
    worker = startWorker({ concurrency: 16 });
    const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES], 120_000);
    // not a plain success: the run says that some trials ended unresolved, and how many
    expect(final.status).toBe('completed_with_unresolved');
    expect(final.statusReason).toBe('4 of 152 trials unresolved (every attempt failed in transport)');
    expect(await engineViolations(run.id)).toEqual([]);

    const attempts = await pool().query<{ kind: string; outcome: string; error_kind: string | null; retry_after_ms: number | null }>(
      'SELECT kind, outcome, error_kind, retry_after_ms FROM attempts WHERE run_id = $1',
      [run.id],
    );
    // every HTTP exchange the server answered (or reset) is one stored attempt, pre-checks apart
    expect(attempts.rowCount).toBe(engine.server.count);
    expect(attempts.rows.filter((a) => a.kind === 'precheck')).toHaveLength(2);
    const errors = attempts.rows.filter((a) => a.outcome === 'transport_error');
    expect(new Set(errors.map((e) => e.error_kind))).toEqual(new Set(['http_5xx', 'http_429', 'reset', 'malformed_body']));
    for (const e of errors.filter((x) => x.error_kind === 'http_429')) expect(e.retry_after_ms).toBe(1000);

    const unresolved = await pool().query<{ id: string; attempts: number }>(
      `SELECT t.id, (SELECT count(*)::int FROM attempts a WHERE a.trial_id = t.id AND a.outcome = 'transport_error') AS attempts
         FROM trials t WHERE t.run_id = $1 AND t.status = 'unresolved'`,
      [run.id],
    );
    expect(unresolved.rowCount).toBe(4); // one case × 2 conditions × 2 candidate orders
    for (const u of unresolved.rows) expect(u.attempts).toBe(5);

    const exp = await getExperiment(engine.experimentId);
    const summary = await loadRunSummary(run.id, exp!.spec);
    const selection = summary.studies.find((s) => s.kind === 'selection')!;
    expect(selection.total.baseline.n + selection.total.treatment.n).toBe(96 - 4);
    expect(selection.total.baseline.unresolved + selection.total.treatment.unresolved).toBe(4);
    expect(selection.pairs.incomplete).toBe(2);
    await worker.close();
    worker = undefined;
  });

  it('stops the run on a 4xx configuration error instead of burning the matrix, and resumes once fixed', async () => {
    let n = 0;
    engine.server.setScript(async (req) => (++n > 2 ? { kind: 'http', status: 403 } : echoScript(req))); // pre-checks pass, then the key is revoked
    const run = await createRun(engine.experimentId, settings({ concurrency: 4 }));
    expect((await startRun(run.id)).ok).toBe(true);
    worker = startWorker({ concurrency: 4 });
    const stopped = await waitForRunStatus(run.id, ['failed']);
    expect(stopped.statusReason).toMatch(/^stopped: .*(key|permission|forbidden|403)/i);
    const sent = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [run.id]);
    expect(sent.rows[0].n).toBeLessThanOrEqual(4 + 4); // what was in flight, not the matrix
    const unresolved = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND status = 'unresolved'`, [run.id]);
    expect(unresolved.rows[0].n).toBe(0); // a configuration error is not the trials' fault
    // every request of the stopped run has come back and been recorded: a 403 still on its way after the resume
    // would stop the resumed run again (it is a real answer of the provider), and under load it can arrive late
    await waitFor('the stopped run to settle', () => runSettled(run.id), 60_000, 50);
    engine.server.setScript(echoScript);
    expect((await controlRun(run.id, 'resume')).ok).toBe(true);
    expect((await waitForRunStatus(run.id, ['completed'])).status).toBe('completed');
    expect(await engineViolations(run.id)).toEqual([]);
    await worker.close();
    worker = undefined;
  });

  it('completes after Redis loses every key of the queue mid-run (reconcile rebuilds it from PostgreSQL)', async () => {
    engine.server.setScript(async (req) => ({ kind: 'delay', ms: 30, then: await echoScript(req) }));
    const run = await createRun(engine.experimentId, settings({ concurrency: 4 }));
    expect((await startRun(run.id)).ok).toBe(true);
    // A job that was active when its keys went is written back by BullMQ's own scripts as a hash without its data:
    // its id stays open (reconcile's re-add of that batch is ignored) until the stall check hands it back, fails it
    // and it is removed — about 1.5 locks later. A short lock keeps each such cycle to seconds (with the default
    // 30 s the test once ran out of its two minutes, a job failing for want of its data 44 s after the keys went).
    worker = startWorker({ concurrency: 4, reconcileEveryMs: 500, lockDurationMs: 4000 });
    await waitFor('some progress', async () => (await doneCount(run.id)) >= 20);
    const deleted = await deleteRedisPrefix(env().REDIS_URL, `${env().TCLAB_QUEUE_PREFIX}:`);
    expect(deleted).toBeGreaterThan(0);
    expect(await doneCount(run.id)).toBeLessThan(152);
    const final = await waitForRunStatus(run.id, ['completed'], 120_000);
    expect(final.status).toBe('completed');
    expect(await engineViolations(run.id)).toEqual([]);
    await worker.close();
    worker = undefined;
  });

  it('pauses, resumes and cancels through the CLI; cancel sends nothing more and undoes nothing', async () => {
    // While `holding`, the server keeps each request until release(): the run cannot finish while a CLI
    // command is on its way, however slow the machine.
    let holding = false;
    const held: (() => void)[] = [];
    const release = () => {
      holding = false;
      for (const answer of held.splice(0)) answer();
    };
    engine.server.setScript(async (req) => {
      if (holding) await new Promise<void>((answer) => held.push(answer));
      return echoScript(req);
    });
    const run = await createRun(engine.experimentId, settings({ concurrency: 2, timeoutMs: 120_000 }));
    expect((await startRun(run.id)).ok).toBe(true);
    worker = startWorker({ concurrency: 4 });
    await waitFor('progress', async () => (await doneCount(run.id)) >= 4, 60_000, 20);
    holding = true;

    const paused = await runCli(['pause', run.id]);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('paused');
    release();
    // in-flight requests land; trials claimed and waiting for a slot are given back, not left claimed;
    // every other job of the run is delivered to the worker and dropped unsent
    await waitFor('the pause to settle', () => runSettled(run.id), 60_000, 50);
    const atPause = await doneCount(run.id);
    const sentAtPause = engine.server.count;
    expect(atPause).toBeLessThan(152); // the rest stay queued in PostgreSQL, with no job left to send them

    expect(engine.server.count).toBe(sentAtPause); // nothing was sent while paused
    expect((await runCli(['resume', run.id])).code).toBe(0);
    await waitFor('progress after resume', async () => (await doneCount(run.id)) >= atPause + 4, 60_000, 20);
    holding = true;

    const cancelled = await runCli(['cancel', run.id]);
    expect(cancelled.code, cancelled.stdout + cancelled.stderr).toBe(0);
    const final = await waitForRunStatus(run.id, ['cancelled']);
    const sentAtCancel = engine.server.count;
    release(); // what was in flight at the cancel is answered and recorded
    await waitFor('the cancel to settle', () => runSettled(run.id), 60_000, 50);
    // at most the trials that had a slot when the halt was set (concurrency 2) were still on their way out
    expect(engine.server.count - sentAtCancel).toBeLessThanOrEqual(2);
    const counts = await pool().query<{ status: string; n: number }>('SELECT status, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY status', [run.id]);
    const by = Object.fromEntries(counts.rows.map((r) => [r.status, r.n]));
    expect(by.cancelled).toBeGreaterThan(0);
    expect((by.passed ?? 0) + (by.failed ?? 0) + (by.untested ?? 0)).toBeGreaterThanOrEqual(atPause);
    const cancelledWithAttempts = await pool().query(`SELECT 1 FROM trials t JOIN attempts a ON a.trial_id = t.id WHERE t.run_id = $1 AND t.status = 'cancelled'`, [
      run.id,
    ]);
    expect(cancelledWithAttempts.rowCount).toBe(0);
    expect(final.status).toBe('cancelled');
    expect((await runCli(['resume', run.id])).code).toBe(1); // a cancelled run stays cancelled
  });
});
