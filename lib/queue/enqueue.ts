import { JOB_NAMES, OptimisationJob, RunJob, TrialJob, batchOfJobId, optimisationJobId, runJobId, trialJobId } from './contracts';
import { queues } from './connection';

// addBulk is one MULTI: its jobs become visible together when it ends, and Redis does nothing else while it
// runs. A BullMQ worker fetches its jobs one round trip at a time and starts them only once it has fetched
// as many as its concurrency allows (or found the queue empty), so fetches stuck behind a long series of
// big MULTIs hold back the start of a run by the whole time it takes to add them. Hence: a first chunk,
// then (when asked: afterFirst) a short wait until workers have taken it and sent its requests, then the
// rest in chunks that keep each MULTI short.
const CHUNK = 250;
const PICKUP_POLL_MS = 5;
/** The most a start waits for its first chunk to be taken (and again to be sent) before adding the rest. */
export const FIRST_CHUNK_WAIT_MS = 150;

export interface EnqueueOptions {
  /** Size of the first chunk, in jobs (default CHUNK): about what the workers can start at once. */
  first?: number;
  /** Awaited after the first chunk is added and before the rest (only when there is a rest). */
  afterFirst?: (jobs: TrialJob[]) => Promise<void>;
}

/**
 * One job per batch of trials, jobId = trialJobId: adding a batch that already has an open job is ignored by
 * BullMQ. A job may carry its own delay (a batch whose pending trials all wait for their retries).
 */
export async function enqueueTrials(jobs: (TrialJob & { delayMs?: number })[], opts: EnqueueOptions = {}): Promise<void> {
  const { trials } = queues();
  const first = Math.max(1, opts.first ?? CHUNK);
  for (let i = 0, size = first; i < jobs.length; i += size, size = CHUNK) {
    const chunk = jobs.slice(i, i + size);
    await trials.addBulk(
      chunk.map(({ delayMs, ...data }) => ({
        name: JOB_NAMES.trial,
        data: TrialJob.parse(data),
        opts: { jobId: trialJobId(data.runId, data.batch), delay: delayMs && delayMs > 0 ? delayMs : undefined },
      })),
    );
    if (i === 0 && opts.afterFirst && jobs.length > size) await opts.afterFirst(chunk.map(({ delayMs: _, ...job }) => job));
  }
}

/**
 * A dead holder's batches, each under its takeover's job id (takeoverJobId: two workers that notice the same
 * death add one job), on the takeovers queue, which every worker serves beside its batches.
 */
export async function enqueueTakeovers(jobs: (TrialJob & { jobId: string })[]): Promise<void> {
  if (jobs.length === 0) return;
  await queues().takeovers.addBulk(jobs.map(({ jobId, ...data }) => ({ name: JOB_NAMES.trial, data: TrialJob.parse(data), opts: { jobId } })));
}

/**
 * Until the job is no longer waiting (jobs are taken in order, so the ones before it are taken too), at most
 * until `untilMs`.
 */
export async function pickedUp(job: TrialJob, untilMs = Date.now() + FIRST_CHUNK_WAIT_MS): Promise<void> {
  const jobId = trialJobId(job.runId, job.batch);
  while (Date.now() < untilMs) {
    const state = await queues().trials.getJobState(jobId);
    if (state !== 'waiting' && state !== 'prioritized') return;
    await new Promise((r) => setTimeout(r, PICKUP_POLL_MS));
  }
}

/**
 * The batches, per run, that have a job not finished (waiting, delayed, active, prioritized) on the trials or
 * the takeovers queue: the job ids only (one LRANGE / ZRANGE per state), read from the ids (batchOfJobId).
 */
export async function openTrialBatches(): Promise<Map<string, Set<number>>> {
  const q = queues();
  const ids = await Promise.all([q.trials, q.takeovers].map((queue) => queue.getRanges(['wait', 'delayed', 'active', 'prioritized'], 0, -1)));
  const open = new Map<string, Set<number>>();
  for (const id of ids.flat()) {
    const b = batchOfJobId(id);
    if (!b) continue;
    const batches = open.get(b.runId) ?? new Set<number>();
    batches.add(b.batch);
    open.set(b.runId, batches);
  }
  return open;
}

export async function enqueueRunStart(runId: string): Promise<void> {
  const data: RunJob = RunJob.parse({ runId, action: 'start' });
  await queues().runs.add(JOB_NAMES.startRun, data, { jobId: runJobId(runId, 'start') });
}

/** The advance of an improve-descriptions record, for a worker (the runs queue). */
export async function enqueueOptimisation(optimisationId: string): Promise<void> {
  const data: OptimisationJob = OptimisationJob.parse({ optimisationId });
  await queues().runs.add(JOB_NAMES.advanceOptimisation, data as unknown as RunJob, { jobId: optimisationJobId(optimisationId), attempts: 1 });
}

/** Number of worker processes currently connected to the trials queue. */
export async function liveWorkerCount(): Promise<number> {
  return queues().trials.getWorkersCount();
}
