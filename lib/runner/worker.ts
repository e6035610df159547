import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { DelayedError, Worker, type Job, type WorkerOptions } from 'bullmq';
import { env } from '../env';
import { log } from '../log/logger';
import { JOB_NAMES, OptimisationJob, QUEUES, RunJob, TRIALS_PER_JOB, TrialJob } from '../queue/contracts';
import { queuePrefix, redisConnection } from '../queue/connection';
import { completeRunIfDone } from './run-events';
import { isDatabaseUnavailable } from '../db/client';
import { stillPending, warmUpTrialStatements } from '../db/trials';
import { processTrial, type TrialOutcome, type TrialWorkerOptions } from './trial';
import { startRun } from './start';
import { reconcile, sweepLapsedHolders } from './reconcile';
import { heartbeat, type Heartbeat } from './heartbeat';
import { Limiter } from '../queue/limiter';
import { limiterSlots } from './slot';
import { runContext } from './context';
import { lookAfterPair } from './stopping';
import { startBatchLoop } from './batch';

const FETCH_LOOPS = 8;
/** Takeover jobs (a dead holder's batches) one worker works on at once, beside its own batches. */
const TAKEOVER_JOBS = 2;
const WARM_CONNECTIONS = 3;
/** How soon a run's start comes back when this process cannot send to the run's base URL (docs/runs.md). */
const UNSENT_START_RETRY_MS = 2000;

export interface WorkerHandle {
  id: string;
  close(): Promise<void>;
  /** Resolves after the first reconcile pass and the warm-up. */
  ready: Promise<void>;
}

export interface StartWorkerOptions {
  /** Trials in hand at once (in jobs of TRIALS_PER_JOB). */
  concurrency?: number;
  reconcileEveryMs?: number;
  /** BullMQ lock: how soon a job of a dead worker is delivered again. */
  lockDurationMs?: number;
  hooks?: Pick<TrialWorkerOptions, 'afterSend' | 'beforeSend' | 'slots'>;
  /** Batch mode: how often provider batches are polled (default TCLAB_BATCH_POLL_MS). */
  batchPollMs?: number;
  /**
   * Called once for each run this worker completes (not awaited by the job; close() waits for it): the doors
   * pass lib/runs/warm.ts warmRunResults, which stores what a large run's pages read.
   */
  onRunCompleted?: (runId: string) => Promise<unknown>;
  /**
   * Continues an improve-descriptions record (the advance-optimisation job): the doors pass
   * lib/optimise/loop.ts advanceOptimisation. A worker without it hands the job back for one that has it.
   */
  advanceOptimisation?: (optimisationId: string) => Promise<unknown>;
}

type TrialHooks = Pick<TrialWorkerOptions, 'afterSend' | 'beforeSend' | 'slots' | 'alive'>;
type Common = Pick<WorkerOptions, 'connection' | 'prefix' | 'lockDuration' | 'stalledInterval' | 'maxStalledCount'>;

/**
 * One process's workers: the trials queue, the runs queue (pre-checks + enqueue), a reconcile loop that
 * rebuilds lost jobs from PostgreSQL, and a debounced "is the run done?" check per touched run. The steps
 * below, in the order they start: the heartbeat and the trial hooks, the queue workers, the watch on runs
 * (completion, stop-when-decided looks), the warm-up, the sweep of lapsed holders, the batch loop, the timers.
 */
export function startWorker(opts: StartWorkerOptions = {}): WorkerHandle {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const concurrency = opts.concurrency ?? env().TCLAB_WORKER_CONCURRENCY;
  const lockDuration = opts.lockDurationMs ?? env().TCLAB_LOCK_MS;
  const limiter = new Limiter();
  // the worker's heartbeat: while it lives its claims are its own; once it lapses they are taken over
  const hb = heartbeat();
  const holding = hb.hold(id);
  const hooks = trialHooks(limiter, hb, opts.hooks);
  // BullMQ does not close a connection it was given: close() below does, or the process never exits
  const connections = [redisConnection(), redisConnection(), redisConnection()];
  const common: Common = {
    connection: connections[0],
    prefix: queuePrefix(),
    lockDuration,
    stalledInterval: Math.max(1000, Math.round(lockDuration / 2)),
    maxStalledCount: 1000,
  };
  const watch = watchRuns(opts.onRunCompleted);
  const processTrialJob = trialJobProcessor(id, hooks, watch);
  const { trialWorkers, takeovers, runs } = queueWorkers(common, connections, processTrialJob, concurrency, opts.advanceOptimisation);
  logJobFailures([...trialWorkers, takeovers, runs]);

  const doneTimer = setInterval(() => watch.checkTouched(), 250);
  // connections, prepared statements and the limiter's script ready before the first trial needs them
  const warm = Promise.all([warmUpTrialStatements(WARM_CONNECTIONS), limiter.warmUp()]).catch((e: Error) => log('warn', 'warm-up failed', { err: e.message }));
  const sweep = lapsedHolderSweep(hb);
  // batch mode (docs/batch.md): a run's trials in provider batches, beside the trials queue, under this heartbeat
  const batches = holding.then(() => startBatchLoop({ owner: id, alive: () => hb.alive(), touched: (runId) => watch.touched.add(runId), everyMs: opts.batchPollMs }));
  const ready = Promise.all([holding.then(sweep), reconcilePass(true), warm]).then(() => undefined);
  const sweepTimer = setInterval(() => {
    limiter.renewHeld();
    void sweep();
  }, env().TCLAB_HEARTBEAT_MS);
  const reconcileTimer = setInterval(() => reconcilePass(), opts.reconcileEveryMs ?? env().TCLAB_RECONCILE_MS);
  log('info', 'worker started', { id, concurrency });

  return {
    id,
    ready,
    async close() {
      clearInterval(doneTimer);
      clearInterval(reconcileTimer);
      clearInterval(sweepTimer);
      await Promise.allSettled([...trialWorkers.map((w) => w.close()), takeovers.close(), runs.close(), batches.then((b) => b.close())]);
      (await holding)();
      await watch.settle();
      limiter.close();
      for (const c of connections) c.disconnect();
    },
  };
}

/** What every trial this worker sends goes through: the limiter's slots under its heartbeat, and the caller's hooks. */
function trialHooks(limiter: Limiter, hb: Heartbeat, extra: StartWorkerOptions['hooks']): TrialHooks {
  return {
    // a slot's lease is two heartbeat TTLs, renewed with the heartbeat (startWorker): a dead worker's slots free
    // themselves within seconds, and a busy event loop has some seconds' grace before its slots are handed on
    slots: limiterSlots(limiter, () => 2 * env().TCLAB_HEARTBEAT_TTL_MS),
    alive: () => hb.alive(),
    ...extra,
  };
}

/** The runs this worker has touched: whether each is done, the looks of stop-when-decided runs, what completing one stores. */
interface RunWatch {
  touched: Set<string>;
  /** Jobs of each run in hand; when a run's count drops to zero its completion is checked at once. */
  active: Map<string, number>;
  checkDone(runId: string): void;
  /** Check every touched run once (the debounced check), and forget it until it is touched again. */
  checkTouched(): void;
  lookWhenDecided(runId: string): void;
  /** Wait for the looks, a last completion check of the touched runs, and what completed runs store. */
  settle(): Promise<void>;
}

function watchRuns(onRunCompleted: StartWorkerOptions['onRunCompleted']): RunWatch {
  const touched = new Set<string>();
  const active = new Map<string, number>();
  // what a large run's pages read is computed as it completes, so its first view reads it (close waits for it)
  const warming = new Set<Promise<unknown>>();
  const checkDone = (runId: string) => {
    completeRunIfDone(runId)
      .then((done) => {
        if (!done || !onRunCompleted) return;
        const w = onRunCompleted(runId)
          .catch((e: Error) => log('warn', 'aggregating a completed run failed', { runId, err: e.message }))
          .finally(() => warming.delete(w));
        warming.add(w);
      })
      .catch((e: Error) => log('warn', 'completion check failed', { runId, err: e.message }));
  };
  // stop-when-decided runs: a look after each recorded pair (not awaited: the job's slot goes on); a look that
  // cancelled the rest of the run may have left nothing pending, so the run's completion is checked after it
  const looking = new Set<Promise<unknown>>();
  const lookWhenDecided = (runId: string) => {
    const l = runContext(runId)
      .then(async (ctx) => {
        if (await lookAfterPair(ctx)) checkDone(runId);
      })
      .catch((e: Error) => log('warn', 'stop-when-decided look failed', { runId, err: e.message }))
      .finally(() => looking.delete(l));
    looking.add(l);
  };
  return {
    touched,
    active,
    checkDone,
    checkTouched() {
      for (const runId of touched) {
        touched.delete(runId);
        checkDone(runId);
      }
    },
    lookWhenDecided,
    async settle() {
      await Promise.allSettled([...looking]);
      await Promise.allSettled([...touched].map((r) => completeRunIfDone(r)));
      await Promise.allSettled([...warming]);
    },
  };
}

/**
 * A job delivers a batch of a run's trials: whichever of them are pending now go through processTrial side by
 * side (each claimed, gated and recorded as it would be alone). If any of them is to be retried, the job comes
 * back when the earliest is due (same job id) and takes what is pending then.
 */
function trialJobProcessor(owner: string, hooks: TrialHooks, watch: RunWatch) {
  const { active, touched } = watch;
  return async (job: Job<TrialJob>, token?: string) => {
    const { runId, trialIds: carried } = TrialJob.parse(job.data);
    const trialIds = await stillPending(carried);
    active.set(runId, (active.get(runId) ?? 0) + 1);
    const outs = await Promise.allSettled(trialIds.map((trialId) => processTrial({ trialId, runId }, { owner, ...hooks })));
    const left = (active.get(runId) ?? 1) - 1;
    if (left > 0) active.set(runId, left);
    else {
      // this worker has nothing more of the run in hand: it may have just recorded the run's last trial
      active.delete(runId);
      watch.checkDone(runId);
    }
    touched.add(runId);
    if (outs.some((o) => o.status === 'fulfilled' && o.value.kind === 'done')) watch.lookWhenDecided(runId);
    const kinds: Partial<Record<TrialOutcome['kind'], number>> = {};
    let retryAt = Infinity;
    for (const [i, o] of outs.entries()) {
      if (o.status === 'rejected') continue;
      const out = o.value;
      kinds[out.kind] = (kinds[out.kind] ?? 0) + 1;
      if (out.kind === 'retry') retryAt = Math.min(retryAt, out.atMs);
      if (out.kind === 'dropped') log('debug', 'trial dropped', { trialId: trialIds[i], reason: out.reason });
      if (out.kind === 'stopped') log('warn', 'run stopped', { runId, reason: out.reason });
    }
    // a trial that threw (PostgreSQL down, say) fails the job: reconcile gives its batch a job again
    const failed = outs.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
    if (retryAt < Infinity) {
      await job.moveToDelayed(Math.max(retryAt, Date.now() + 1), token);
      throw new DelayedError();
    }
    return kinds;
  };
}

/** The BullMQ workers of the trials, takeovers and runs queues (they start fetching as they are made). */
function queueWorkers(
  common: Common,
  connections: Common['connection'][],
  processTrialJob: ReturnType<typeof trialJobProcessor>,
  concurrency: number,
  advanceOptimisation: StartWorkerOptions['advanceOptimisation'],
) {
  // A BullMQ worker fetches its jobs one round trip at a time and starts them only when it has fetched as
  // many as it may run (or found the queue empty): several fetch loops fill a wide worker several times
  // faster, e.g. when a run starts.
  const jobs = Math.max(1, Math.ceil(concurrency / TRIALS_PER_JOB));
  const loops = Math.max(1, Math.min(FETCH_LOOPS, Math.floor(jobs / 16)));
  const trialWorkers = Array.from(
    { length: loops },
    (_, i) =>
      new Worker<TrialJob>(QUEUES.trials, processTrialJob, {
        ...common,
        concurrency: Math.floor(jobs / loops) + (i < jobs % loops ? 1 : 0),
        removeOnComplete: { count: 0 },
        removeOnFail: { count: 0 },
      }),
  );
  // a dead holder's batches: two places in every worker, beside (not among) the batches it works through
  const takeovers = new Worker<TrialJob>(QUEUES.takeovers, processTrialJob, {
    ...common,
    connection: connections[2],
    concurrency: TAKEOVER_JOBS,
    removeOnComplete: { count: 0 },
    removeOnFail: { count: 0 },
  });
  const runs = new Worker<RunJob>(
    QUEUES.runs,
    async (job, token) => {
      if (job.name === JOB_NAMES.advanceOptimisation) {
        const { optimisationId } = OptimisationJob.parse(job.data);
        if (!advanceOptimisation) {
          await job.moveToDelayed(Date.now() + UNSENT_START_RETRY_MS, token);
          throw new DelayedError();
        }
        // the loop waits for its runs here (minutes); the record, not the job, says how far it got
        await advanceOptimisation(optimisationId).catch((e: Error) => log('warn', 'optimisation stopped', { optimisationId, err: e.message }));
        return true;
      }
      const data = RunJob.parse(job.data);
      const r = await startRun(data.runId);
      if (!r.ok && r.waiting) {
        // this process cannot send to the run's base URL: the start comes back for a worker that can
        await job.moveToDelayed(Date.now() + UNSENT_START_RETRY_MS, token);
        throw new DelayedError();
      }
      if (!r.ok) log('warn', 'run did not start', { runId: data.runId, reason: r.reason });
      return r.ok;
    },
    { ...common, connection: connections[1], concurrency: 4 },
  );
  return { trialWorkers, takeovers, runs };
}

/**
 * While PostgreSQL restarts every job fails: one warning per 5 s, not one error per job. Nothing is lost — the
 * trials are still in PostgreSQL, and reconcile gives them jobs again once it answers.
 */
function logJobFailures(workers: Worker[]): void {
  let dbDownLoggedAt = 0;
  for (const w of workers) {
    w.on('failed', (job, err) => {
      if (err instanceof DelayedError) return;
      if (isDatabaseUnavailable(err)) {
        if (Date.now() - dbDownLoggedAt > 5000)
          log('warn', 'database unavailable: jobs fail until it is back; reconcile re-adds them', { queue: w.name, err: err.message });
        dbDownLoggedAt = Date.now();
        return;
      }
      log('error', 'job failed', { queue: w.name, jobId: job?.id, err: err.message });
    });
    w.on('error', (err) => {
      // A job whose keys vanished (Redis lost its data) is not lost work: reconcile re-adds it from PostgreSQL.
      if (/Missing key for job/.test(err.message)) log('warn', 'job vanished from Redis; reconcile will re-add it', { queue: w.name, err: err.message });
      else log('error', 'worker error', { queue: w.name, err: err.message });
    });
  }
}

/** One reconcile pass (docs/faults.md): lost jobs rebuilt from the trial rows; a failure is logged, not thrown. */
function reconcilePass(force = false): Promise<void> {
  return reconcile({ force })
    .then((r) => (r.pending || r.completed || r.prechecks ? log('debug', 'reconciled', r) : undefined))
    .catch((e: Error) => log('warn', 'reconcile failed', { err: e.message }));
}

/** Holders whose heartbeat lapsed: their claims get jobs at once (not while this process cannot renew its own). One sweep at a time. */
function lapsedHolderSweep(hb: Heartbeat): () => Promise<void> {
  let sweeping = false;
  return async () => {
    if (sweeping || !hb.alive()) return;
    sweeping = true;
    try {
      const r = await sweepLapsedHolders(hb.ids());
      if (r.holders) log('debug', 'swept lapsed holders', r);
    } catch (e) {
      log('warn', 'sweeping lapsed holders failed', { err: (e as Error).message });
    } finally {
      sweeping = false;
    }
  };
}
