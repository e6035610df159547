import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DelayedError, Worker, type Job } from 'bullmq';
import { env } from '../env';
import { log } from '../log';
import { QUEUES, RunJob, TrialJob } from '../queue/contracts';
import { queuePrefix, redisConnection } from '../queue/connection';
import { completeRunIfDone } from '../db/runs';
import { leaseMsFor, processTrial, type TrialWorkerOptions } from './trial';
import { startRun } from './start';
import { reconcile } from './reconcile';
import { Limiter } from '../queue/limiter';
import { limiterGate } from './gate';

export interface WorkerHandle {
  id: string;
  close(): Promise<void>;
  /** Resolves after the first reconcile pass. */
  ready: Promise<void>;
}

export interface StartWorkerOptions {
  concurrency?: number;
  reconcileEveryMs?: number;
  /** BullMQ lock: how soon a job of a dead worker is delivered again. */
  lockDurationMs?: number;
  hooks?: Pick<TrialWorkerOptions, 'afterSend' | 'gate'>;
}

/**
 * One process's workers: the trials queue, the runs queue (pre-checks + enqueue), a reconcile loop that
 * rebuilds lost jobs from PostgreSQL, and a debounced "is the run done?" check per touched run.
 */
export function startWorker(opts: StartWorkerOptions = {}): WorkerHandle {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const concurrency = opts.concurrency ?? env().TCLAB_WORKER_CONCURRENCY;
  const lockDuration = opts.lockDurationMs ?? env().TCLAB_LOCK_MS;
  const touched = new Set<string>();
  const limiter = new Limiter();
  const hooks: Pick<TrialWorkerOptions, 'afterSend' | 'gate'> = { gate: limiterGate(limiter, leaseMsFor), ...opts.hooks };
  // BullMQ does not close a connection it was given: close() below does, or the process never exits
  const connections = [redisConnection(), redisConnection()];
  const common = { connection: connections[0], prefix: queuePrefix(), lockDuration, stalledInterval: Math.max(1000, Math.round(lockDuration / 2)), maxStalledCount: 1000 };

  const trials = new Worker<TrialJob>(
    QUEUES.trials,
    async (job: Job<TrialJob>, token?: string) => {
      const data = TrialJob.parse(job.data);
      const out = await processTrial(data, { owner: id, ...hooks });
      touched.add(data.runId);
      if (out.kind === 'retry') {
        // Keep the same job (same id) and deliver it again when the trial is due.
        await job.moveToDelayed(Math.max(out.atMs, Date.now() + 1), token);
        throw new DelayedError();
      }
      if (out.kind === 'dropped') log('debug', 'job dropped', { trialId: data.trialId, reason: out.reason });
      if (out.kind === 'stopped') log('warn', 'run stopped', { runId: data.runId, reason: out.reason });
      return out.kind;
    },
    { ...common, concurrency, removeOnComplete: { count: 0 }, removeOnFail: { count: 0 } },
  );
  const runs = new Worker<RunJob>(
    QUEUES.runs,
    async (job) => {
      const data = RunJob.parse(job.data);
      const r = await startRun(data.runId);
      if (!r.ok) log('warn', 'run did not start', { runId: data.runId, reason: r.reason });
      return r.ok;
    },
    { ...common, connection: connections[1], concurrency: 4 },
  );
  for (const w of [trials, runs]) {
    w.on('failed', (job, err) => {
      if (!(err instanceof DelayedError)) log('error', 'job failed', { queue: w.name, jobId: job?.id, err: err.message });
    });
    w.on('error', (err) => {
      // A job whose keys vanished (Redis lost its data) is not lost work: reconcile re-adds it from PostgreSQL.
      if (/Missing key for job/.test(err.message)) log('warn', 'job vanished from Redis; reconcile will re-add it', { queue: w.name, err: err.message });
      else log('error', 'worker error', { queue: w.name, err: err.message });
    });
  }

  const doneTimer = setInterval(() => {
    for (const runId of touched) {
      touched.delete(runId);
      completeRunIfDone(runId).catch((e: Error) => log('warn', 'completion check failed', { runId, err: e.message }));
    }
  }, 250);
  const pass = (force = false) =>
    reconcile({ force })
      .then((r) => (r.pending || r.completed ? log('debug', 'reconciled', r) : undefined))
      .catch((e: Error) => log('warn', 'reconcile failed', { err: e.message }));
  const ready = pass(true);
  const reconcileTimer = setInterval(() => pass(), opts.reconcileEveryMs ?? env().TCLAB_RECONCILE_MS);
  log('info', 'worker started', { id, concurrency });

  return {
    id,
    ready,
    async close() {
      clearInterval(doneTimer);
      clearInterval(reconcileTimer);
      await Promise.allSettled([trials.close(), runs.close()]);
      await Promise.allSettled([...touched].map((r) => completeRunIfDone(r)));
      limiter.close();
      for (const c of connections) c.disconnect();
    },
  };
}
