import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pool } from '../db/client';
import { getRun, type RunRow } from '../db/runs';
import { ensureTemplateExperiment } from '../experiments/templates';
import { createRun, startRun } from '../runner/start';
import { queues } from '../queue/connection';
import { startWorker, type StartWorkerOptions, type WorkerHandle } from '../runner/worker';
import { FINAL_RUN_STATUSES, SCORED_TRIAL_STATUSES } from '../schema/run-status';

// Helpers for run-engine integration tests: worker processes, waiting on PostgreSQL, invariants.

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The CLI as users run it: cli/tclab.mjs runs the compiled bundle (rebuilt first when a source is newer). */
const TCLAB = path.join(ROOT, 'cli/tclab.mjs');

export interface WorkerProcess {
  proc: ChildProcess;
  output: () => string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * `npm run worker` as a real child process (its own process group, so SIGKILL takes all of it).
 * `ready`: resolves once the worker has loaded, connected and warmed up (workers/trials.ts tells it over an
 * IPC channel opened only for this; rejects if the process exits first).
 */
export function spawnWorker(
  env: Record<string, string | undefined> = {},
  nodeArgs: string[] = [],
  opts: { ready?: boolean } = {},
): WorkerProcess & { ready?: Promise<void> } {
  // `node --import tsx`: one process (the tsx CLI would fork a second), so its pid is the worker's own.
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, 'workers/trials.ts')], {
    cwd: ROOT,
    env: { ...process.env, TCLAB_LOG_LEVEL: 'warn', ...env },
    detached: true,
    stdio: opts.ready ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  const ready = opts.ready
    ? new Promise<void>((resolve, reject) => {
        proc.once('message', () => {
          proc.disconnect(); // nothing more comes over it, and an open channel would keep this process alive
          resolve();
        });
        proc.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready`)));
      })
    : undefined;
  // A test that never awaits `ready` (it kills the worker first, or waits on the run instead) must not see an
  // unhandled rejection when the worker is killed before it was ready; one that awaits it still gets the error.
  ready?.catch(() => undefined);
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  return {
    proc,
    ready,
    output: () => out,
    kill: (signal = 'SIGKILL') =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.once('exit', () => resolve());
        try {
          process.kill(-proc.pid!, signal);
        } catch {
          resolve();
        }
      }),
  };
}

/** A `tclab` CLI command as one process in its own group (the `bin`, cli/tclab.mjs), to be killed mid-way. */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): WorkerProcess & { exited: Promise<number | null> } {
  const proc = spawn(process.execPath, [TCLAB, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    exited,
    output: () => out,
    kill: async (signal = 'SIGKILL') => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      try {
        process.kill(-proc.pid!, signal);
      } catch {
        return;
      }
      await exited;
    },
  };
}

/** Run a `tclab` CLI command to completion. */
export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [TCLAB, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    proc.on('exit', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function waitForRunStatus(runId: string, statuses: string[], timeoutMs = 120_000): Promise<RunRow> {
  return waitFor(
    `run ${runId} to be ${statuses.join('|')}`,
    async () => {
      const r = await getRun(runId);
      return r && statuses.includes(r.status) ? r : null;
    },
    timeoutMs,
    200,
  );
}

/**
 * Nothing of the run is in hand any more: no trial claimed, and neither the trials nor the takeovers queue holds an open job of the
 * run (a paused or cancelled run's jobs have all been delivered and dropped). The event a test of pause or
 * cancel waits for before it counts what was sent.
 */
export async function runSettled(runId: string): Promise<boolean> {
  const claimed = await pool().query(`SELECT 1 FROM trials WHERE run_id = $1 AND status = 'running' LIMIT 1`, [runId]);
  if (claimed.rowCount) return false;
  const q = queues();
  const open = (await Promise.all([q.trials, q.takeovers].map((queue) => queue.getJobs(['wait', 'active', 'delayed', 'prioritized'])))).flat();
  return !open.some((job) => job?.data.runId === runId);
}

export async function doneCount(runId: string): Promise<number> {
  const r = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND status NOT IN ('queued', 'running')`, [runId]);
  return r.rows[0].n;
}

/**
 * The engine's invariant: every trial final; a trial scored (passed/failed/untested) has exactly one
 * observation and one verdict per check, from an attempt of its own that ended ok; an unresolved or
 * cancelled trial has none; every attempt the trial counted is recorded (attempts are written when their
 * answer is in; one whose holder died is recorded `lost` by the next claim), numbered 1..attempt_count.
 */
export async function engineViolations(runId: string): Promise<string[]> {
  const r = await pool().query<{ id: string; status: string; obs: number; ok_attempt: boolean; verdicts: number; counted: number; recorded: number; numbered: boolean }>(
    `SELECT t.id, t.status, t.attempt_count AS counted,
            (SELECT count(*)::int FROM observations o WHERE o.trial_id = t.id) AS obs,
            EXISTS (SELECT 1 FROM observations o JOIN attempts a ON a.id = o.attempt_id WHERE o.trial_id = t.id AND a.trial_id = t.id AND a.outcome = 'ok') AS ok_attempt,
            (SELECT count(*)::int FROM verdicts v WHERE v.trial_id = t.id) AS verdicts,
            (SELECT count(*)::int FROM attempts a WHERE a.trial_id = t.id AND a.kind = 'formal') AS recorded,
            NOT EXISTS (SELECT 1 FROM attempts a WHERE a.trial_id = t.id AND a.kind = 'formal'
                          AND (a.n NOT BETWEEN 1 AND t.attempt_count OR a.outcome NOT IN ('ok', 'transport_error', 'lost'))) AS numbered
       FROM trials t WHERE t.run_id = $1`,
    [runId],
  );
  const problems: string[] = [];
  for (const t of r.rows) {
    if (t.status === 'queued' || t.status === 'running') problems.push(`${t.id}: not final (${t.status})`);
    const scored = (SCORED_TRIAL_STATUSES as readonly string[]).includes(t.status);
    if (scored && (t.obs !== 1 || !t.ok_attempt || t.verdicts < 1)) problems.push(`${t.id}: ${t.status} with ${t.obs} observations, ${t.verdicts} verdicts`);
    if (!scored && (t.obs !== 0 || t.verdicts !== 0)) problems.push(`${t.id}: ${t.status} but has a result`);
    if (t.recorded !== t.counted || !t.numbered)
      problems.push(`${t.id}: ${t.counted} attempts counted, ${t.recorded} recorded${t.numbered ? '' : ' (some out of range or unfinished)'}`);
  }
  return problems;
}

/** A completed run of the reference study with the simulated provider (152 trials); close the worker after. */
/**
 * A run of `experimentId` created with `settings`, started and worked to `completed` by an in-process worker
 * (closed afterwards); throws when it does not start or ends otherwise. Returns the run id.
 */
export async function runToCompletion(
  experimentId: string,
  settings: Parameters<typeof createRun>[1],
  workerConcurrency = 8,
  workerOptions: StartWorkerOptions = {},
): Promise<string> {
  const run = await createRun(experimentId, settings);
  const started = await startRun(run.id);
  if (!started.ok) throw new Error(started.reason);
  const worker = startWorker({ concurrency: workerConcurrency, reconcileEveryMs: 500, ...workerOptions });
  try {
    await worker.ready;
    const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES], 120_000);
    if (final.status !== 'completed') throw new Error(`run ended ${final.status}`);
  } finally {
    await worker.close();
  }
  return run.id;
}

export async function completedReferenceRun(): Promise<{ runId: string; worker: WorkerHandle }> {
  const exp = await ensureTemplateExperiment('reference-study');
  const run = await createRun(exp.id, { provider: 'simulated', model: 'heuristic' });
  const started = await startRun(run.id);
  if (!started.ok) throw new Error(started.reason);
  const worker = startWorker({ concurrency: 16 });
  const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES]);
  if (final.status !== 'completed') throw new Error(`run ended ${final.status}`);
  return { runId: run.id, worker };
}
