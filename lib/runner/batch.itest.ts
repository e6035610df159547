import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { resetEnvCache } from '../env';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues, queues } from '../queue/connection';
import { echoScript, isInterpretationBody, startLoopbackServer, wireToolNames, type LoopbackServer, type Script } from '../testing/loopback-server';
import { engineViolations, runCli, spawnWorker, waitFor, waitForRunStatus, type WorkerProcess } from '../testing/engine';
import { runBatches } from '../db/batches';
import { SpecError } from '../schema/common';
import type { WireId } from '../providers/types';
import { createRun, startRun } from './start';
import { savePriceTable } from './price-table';
import { batchStateLine, type RunBatchState } from '../runs/batch';
import { startWorker } from './worker';
import { controlRun } from './control';

// Batch mode end to end (docs/batch.md): runs of the reference study (152 single-turn trials) sent through each
// vendor's official SDK to the loopback server's batch endpoints, worked by real workers — one in this process,
// or `npm run worker` processes SIGKILLed while their batch is in progress. The server counts every submission
// and every item by custom id: no attempt goes out twice, and no trial is sent one by one.

const KEYS = { OPENAI_API_KEY: 'sk-test-batch-0000', ANTHROPIC_API_KEY: 'sk-ant-test-batch', GEMINI_API_KEY: 'gm-test-batch' };
const CASES: { provider: 'openai' | 'anthropic' | 'gemini'; wire: WireId }[] = [
  { provider: 'openai', wire: 'openai-chat' },
  { provider: 'anthropic', wire: 'anthropic-messages' },
  { provider: 'gemini', wire: 'gemini-generate-content' },
];

let server: LoopbackServer;
let lastRunId: string | undefined;
let experimentId: string;
const workers: WorkerProcess[] = [];
const workerEnv = () => ({
  ...KEYS,
  TCLAB_ALLOWED_BASE_URLS: server.url,
  TCLAB_BATCH_POLL_MS: '150',
  TCLAB_HEARTBEAT_MS: '200',
  TCLAB_HEARTBEAT_TTL_MS: '1000',
  TCLAB_RECONCILE_MS: '1000',
});

beforeAll(async () => {
  server = await startLoopbackServer({ script: echoScript });
  Object.assign(process.env, { ...KEYS, TCLAB_ALLOWED_BASE_URLS: server.url });
  resetEnvCache();
  experimentId = (await ensureTemplateExperiment('reference-study')).id;
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.kill()));
  server.setScript(echoScript);
  server.setBatchBehaviour({});
  server.resetBatchStats();
});
afterAll(async () => {
  await server?.close();
  await closeQueues();
  await closeDb();
});

const settings = (provider: string, wire: WireId, extra: Record<string, unknown> = {}) => ({
  provider,
  model: 'loopback-model',
  baseUrl: server.baseUrlFor(wire),
  retryBaseMs: 20,
  batch: true,
  ...extra,
});

/** Formal attempts per trial, by outcome. */
async function attemptsOf(runId: string): Promise<{ trials: number; attempts: number; byOutcome: Record<string, number> }> {
  const r = await pool().query<{ outcome: string; n: number }>(
    `SELECT outcome, count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal' GROUP BY outcome`,
    [runId],
  );
  const t = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1`, [runId]);
  const byOutcome = Object.fromEntries(r.rows.map((x) => [x.outcome, x.n]));
  return { trials: t.rows[0].n, attempts: Object.values(byOutcome).reduce((a, b) => a + b, 0), byOutcome };
}

describe('batch mode', () => {
  it.each(CASES)('a batch run over the $provider SDK completes with one result per trial, every attempt submitted once', async ({ provider, wire }) => {
    server.setBatchBehaviour({ acceptedPolls: 1, inProgressPolls: 1 });
    const run = await createRun(experimentId, settings(provider, wire));
    expect(run.settings.batch).toBe(true);
    expect((await startRun(run.id)).ok).toBe(true);
    const oneByOne = server.count; // the pre-checks: the only requests sent alone
    const worker = startWorker({ concurrency: 8, reconcileEveryMs: 500, batchPollMs: 100 });
    try {
      await worker.ready;
      const final = await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed', 'cancelled'], 120_000);
      expect(final.status).toBe('completed');
    } finally {
      await worker.close();
    }
    expect(await engineViolations(run.id)).toEqual([]);
    const { trials, attempts, byOutcome } = await attemptsOf(run.id);
    expect(trials).toBe(152);
    expect(byOutcome).toEqual({ ok: 152 });
    expect(attempts).toBe(152);
    const stats = server.batchStats();
    expect(stats.submissions).toBe(1);
    expect(stats.items).toBe(152);
    expect([...stats.byCustomId.values()].every((n) => n === 1)).toBe(true);
    expect(server.count).toBe(oneByOne); // nothing went one by one
    // no trial job of the run was left in the queue
    const open = await queues().trials.getJobs(['wait', 'active', 'delayed', 'prioritized']);
    expect(open.filter((j) => j?.data.runId === run.id)).toEqual([]);
    const [b] = await runBatches(run.id);
    expect(b).toMatchObject({ provider, state: 'recorded', itemCount: 152, succeeded: 152, failed: 0 });
    expect(b.submittedAt).not.toBeNull();
    if (provider === 'openai') lastRunId = run.id;
  });

  it('tclab status shows the batch state and the estimated saving at the price table’s batch prices', async () => {
    expect(lastRunId).toBeDefined();
    await savePriceTable({ currency: 'USD', prices: [{ provider: 'openai', model: 'loopback-model', inputPerMTok: 2, outputPerMTok: 8 }] });
    const r = await runCli(['status', lastRunId!]);
    expect(r.code).toBe(0);
    const status = JSON.parse(r.stdout) as { batch: RunBatchState };
    expect(status.batch).toMatchObject({ submitted: 1, inProgress: 0, items: 152, succeeded: 152, failed: 0 });
    expect(status.batch.batches[0]).toMatchObject({ state: 'recorded', itemCount: 152 });
    // no batch prices in the row: half of it
    const s = status.batch.saving!;
    expect(s.currency).toBe('USD');
    expect(s.batch).toBeCloseTo(s.single / 2, 10);
    expect(s.saving).toBeGreaterThan(0);
    expect(batchStateLine(status.batch)).toMatch(
      /^batch mode: 1 batch submitted, 0 in progress; 152 items, 152 answered, 0 failed; estimated saving USD \d+\.\d\d of \d+\.\d\d one by one$/,
    );
  });

  it('a worker SIGKILLed while its batch is in progress: a new worker resumes the same batch; nothing is submitted twice', async () => {
    server.setBatchBehaviour({ acceptedPolls: 1, inProgressPolls: 8 });
    const run = await createRun(experimentId, settings('openai', 'openai-chat'));
    expect((await startRun(run.id)).ok).toBe(true);
    const first = spawnWorker(workerEnv());
    workers.push(first);
    await waitFor('the batch in progress', async () => (await runBatches(run.id)).some((b) => b.state === 'in_progress'), 60_000, 20);
    await first.kill('SIGKILL');
    const before = await runBatches(run.id);
    expect(before).toHaveLength(1);
    expect(before[0].state).toBe('in_progress');
    const second = spawnWorker(workerEnv());
    workers.push(second);
    const final = await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed', 'cancelled'], 120_000);
    expect(final.status).toBe('completed');
    expect(await engineViolations(run.id)).toEqual([]);
    const after = await runBatches(run.id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: before[0].id, providerBatchId: before[0].providerBatchId, state: 'recorded' });
    // taken over: the fence was bumped by the new holder's claim
    const fence = await pool().query<{ fence: number }>(`SELECT fence FROM provider_batches WHERE id = $1`, [before[0].id]);
    expect(fence.rows[0].fence).toBeGreaterThan(1);
    const stats = server.batchStats();
    expect(stats.submissions).toBe(1);
    expect(stats.items).toBe(152);
    expect([...stats.byCustomId.values()].every((n) => n === 1)).toBe(true);
    expect((await attemptsOf(run.id)).byOutcome).toEqual({ ok: 152 });
  });

  it('items the server marks failed are retried in the next batch, or unresolved once the run’s attempts are spent', async () => {
    let failing = false;
    // interpretation items always fail; the invoice selection items fail in the first batch only
    const script: Script = (req) => {
      if (failing && isInterpretationBody(req.wire, req.body)) return { kind: 'http', status: 500 };
      if (failing && server.batchStats().submissions === 1 && wireToolNames(req.wire, req.body).includes('get_payment_status')) return { kind: 'http', status: 503 };
      return echoScript(req);
    };
    server.setScript(script);
    const run = await createRun(experimentId, settings('openai', 'openai-chat', { maxAttempts: 2 }));
    expect((await startRun(run.id)).ok).toBe(true);
    failing = true; // the pre-checks went through
    const worker = startWorker({ concurrency: 8, reconcileEveryMs: 500, batchPollMs: 100 });
    try {
      await worker.ready;
      const final = await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed', 'cancelled'], 120_000);
      expect(final.status).toBe('completed_with_unresolved');
    } finally {
      await worker.close();
    }
    expect(await engineViolations(run.id)).toEqual([]);
    const byKind = await pool().query<{ study: string; status: string; attempts: number; n: number }>(
      `SELECT study, status, attempt_count AS attempts, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [run.id],
    );
    const rows = byKind.rows;
    // every interpretation trial: two attempts, both failed in a batch, unresolved
    expect(rows.filter((r) => r.study === 'interpretation').every((r) => r.status === 'unresolved' && r.attempts === 2)).toBe(true);
    // selection: the invoice trials answered at their second attempt, the rest at their first; none unresolved
    const selection = rows.filter((r) => r.study === 'selection');
    expect(selection.some((r) => r.status === 'unresolved')).toBe(false);
    expect(selection.filter((r) => r.attempts === 2).reduce((a, r) => a + r.n, 0)).toBeGreaterThan(0);
    expect(selection.filter((r) => r.attempts === 1).reduce((a, r) => a + r.n, 0)).toBeGreaterThan(0);
    const failed = await pool().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal' AND outcome = 'transport_error' AND error_kind = 'http_5xx'`,
      [run.id],
    );
    const stats = server.batchStats();
    expect(stats.submissions).toBeGreaterThanOrEqual(2);
    expect(stats.items).toBe(152 + failed.rows[0].n - (await countStudy(run.id, 'interpretation')));
    expect([...stats.byCustomId.values()].every((n) => n === 1)).toBe(true);
  });

  it('cancelling the run cancels its batch at the provider: what it answered is recorded, the rest cancelled', async () => {
    // the batch would stay in progress for 1,000 polls; half its items are answered when it is cancelled
    server.setBatchBehaviour({ acceptedPolls: 0, inProgressPolls: 1000, answeredBeforeEnd: 76 });
    const run = await createRun(experimentId, settings('openai', 'openai-chat'));
    expect((await startRun(run.id)).ok).toBe(true);
    const worker = startWorker({ concurrency: 8, reconcileEveryMs: 500, batchPollMs: 100 });
    try {
      await worker.ready;
      await waitFor('the batch in progress', async () => (await runBatches(run.id)).some((b) => b.state === 'in_progress'), 60_000, 20);
      expect((await controlRun(run.id, 'cancel')).ok).toBe(true);
      await waitFor('the batch recorded', async () => (await runBatches(run.id)).every((b) => b.state === 'recorded'), 60_000, 20);
    } finally {
      await worker.close();
    }
    const [ours] = await runBatches(run.id);
    const batch = server.batches.get(ours.providerBatchId!)!; // the server keeps the earlier tests' batches too
    expect(batch.cancelRequested).toBe(true);
    expect(batch.polls).toBeLessThan(1000);
    expect(server.batchStats().submissions).toBe(1);
    expect(await engineViolations(run.id)).toEqual([]);
    const byStatus = await pool().query<{ status: string; n: number }>(
      `SELECT CASE WHEN status = 'cancelled' THEN 'cancelled' ELSE 'scored' END AS status, count(*)::int AS n FROM trials WHERE run_id = $1 GROUP BY 1 ORDER BY 1`,
      [run.id],
    );
    expect(byStatus.rows).toEqual([
      { status: 'cancelled', n: 76 },
      { status: 'scored', n: 76 },
    ]);
  });

  it('tclab run --batch: the saving said at the start, the batches in the progress line, one submission; refused for the simulator', async () => {
    await savePriceTable({ currency: 'USD', prices: [{ provider: 'openai', model: 'loopback-model', inputPerMTok: 2, outputPerMTok: 8 }] });
    const args = ['run', '--template', 'reference-study', '--provider', 'openai', '--model', 'loopback-model', '--base-url', server.openaiBaseUrl, '--batch', '--yes'];
    const r = await runCli(args, { TCLAB_BATCH_POLL_MS: '150' });
    expect(r.stderr).toMatch(/run r_\w+: batch mode, answers within 24 h; estimated saving USD \d+\.\d\d of \d+\.\d\d one by one/);
    expect(r.stderr).toMatch(/batch mode: 1 batch submitted, 0 in progress; 152 items, 152 answered, 0 failed/);
    expect(r.code).toBe(0);
    expect(server.batchStats()).toMatchObject({ submissions: 1, items: 152 });
    const refused = await runCli(['run', '--template', 'reference-study', '--batch']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('batch: provider simulated has no batch API');
  });

  it('refused, naming the field, for a provider without a batch API', async () => {
    const err = await createRun(experimentId, { provider: 'simulated', batch: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).message).toMatch(/^batch: provider simulated has no batch API \(batch mode: openai, gemini, anthropic\)/);
    expect((err as SpecError).issues[0].path).toBe('batch');
  });

  it('refused, naming the field, for a study of several turns', async () => {
    const task = await ensureTemplateExperiment('task-completion');
    const err = await createRun(task.id, settings('openai', 'openai-chat')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).message).toMatch(/^batch: study \S+ \(studies\.0\) takes up to \d+ turns: batch mode takes single-turn studies only/);
  });
});

async function countStudy(runId: string, study: string): Promise<number> {
  const r = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND study = $2`, [runId, study]);
  return r.rows[0].n;
}
