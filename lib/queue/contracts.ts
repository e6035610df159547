import { z } from 'zod';

// The one owner of queue contracts: names, job names and payloads. Producers and consumers import
// these; nobody else invents a queue name. The queue only delivers — PostgreSQL holds every status.

export const QUEUES = {
  /** One job per batch of a run's trials (trials.batch); jobId = trialJobId, so re-adding an open batch is a no-op. */
  trials: 'trials',
  /** Run lifecycle: pre-checks, then enqueueing the trials. jobId = `start-<runId>`. */
  runs: 'runs',
  /**
   * The batches of a dead holder's trials (takeoverJobId), apart from the trials queue: every worker keeps a
   * place free for them, so a takeover does not wait until a worker finishes one of the batches in its hands.
   */
  takeovers: 'takeovers',
} as const;

/**
 * Trials per job. A run's trials are numbered into batches of this many when they are written (trials.batch,
 * fixed for good); one job delivers a batch — the ids of its trials that were pending when the job was added —
 * and the worker handles whichever of those are still pending when it arrives.
 * A queue round trip (fetch, finish, their events) then serves many trials: per trial it cost about as much
 * CPU in Redis and in the worker as recording the result in PostgreSQL.
 */
export const TRIALS_PER_JOB = 16;

export const TrialJob = z.object({
  runId: z.string().min(1),
  batch: z.number().int().min(0),
  trialIds: z.array(z.string().min(1)).min(1).max(TRIALS_PER_JOB),
});
export type TrialJob = z.infer<typeof TrialJob>;

/** The job of a batch: one per (run, batch), so adding it again while it is open changes nothing. */
export function trialJobId(runId: string, batch: number): string {
  return `${runId}-b${batch}`;
}

/**
 * A batch's job added when the holder of some of its trials is found dead (lib/runner/reconcile.ts
 * sweepLapsedHolders): the batch's own job may still be active under the dead worker's lock. `token` is the
 * highest lease token of the dead claims, so each takeover adds one job however many workers notice it.
 */
export function takeoverJobId(runId: string, batch: number, token: number): string {
  return `${runId}-b${batch}-t${token}`;
}

/** The run and batch a trials or takeovers job delivers, read from its id (trialJobId, takeoverJobId); null for another id. */
export function batchOfJobId(jobId: string): { runId: string; batch: number } | null {
  const m = /^(.+)-b(\d+)(?:-t\d+)?$/.exec(jobId);
  return m ? { runId: m[1], batch: Number(m[2]) } : null;
}

export const RunJob = z.object({ runId: z.string().min(1), action: z.enum(['start']) });
export type RunJob = z.infer<typeof RunJob>;

/**
 * Continue an improve-descriptions record (lib/optimise/loop.ts advanceOptimisation), on the runs queue.
 * jobId = optimisationJobId; a redelivery continues from what PostgreSQL holds (docs/optimise.md).
 */
export const OptimisationJob = z.object({ optimisationId: z.string().min(1) });
export type OptimisationJob = z.infer<typeof OptimisationJob>;

export function optimisationJobId(optimisationId: string): string {
  return `advance-${optimisationId}`;
}

export const JOB_NAMES = { trial: 'trial', startRun: 'start-run', advanceOptimisation: 'advance-optimisation' } as const;

export function runJobId(runId: string, action: RunJob['action']): string {
  return `${action}-${runId}`;
}
