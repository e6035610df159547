import { JOB_NAMES, RunJob, TrialJob, runJobId } from './contracts';
import { queues } from './connection';

const CHUNK = 1000;

/**
 * One job per trial, jobId = trial id: adding a trial that already has a job is ignored by BullMQ.
 * A job may carry its own delay (a trial waiting for its retry).
 */
export async function enqueueTrials(jobs: (TrialJob & { delayMs?: number })[]): Promise<void> {
  const { trials } = queues();
  for (let i = 0; i < jobs.length; i += CHUNK) {
    await trials.addBulk(
      jobs.slice(i, i + CHUNK).map(({ delayMs, ...data }) => ({
        name: JOB_NAMES.trial,
        data: TrialJob.parse(data),
        opts: { jobId: data.trialId, delay: delayMs && delayMs > 0 ? delayMs : undefined },
      })),
    );
  }
}

/** Jobs the trials queue holds that are not finished (waiting, delayed, active, prioritized). */
export async function openTrialJobs(): Promise<number> {
  const c = await queues().trials.getJobCounts('wait', 'delayed', 'active', 'prioritized');
  return Object.values(c).reduce((a, b) => a + b, 0);
}

export async function enqueueRunStart(runId: string): Promise<void> {
  const data: RunJob = RunJob.parse({ runId, action: 'start' });
  await queues().runs.add(JOB_NAMES.startRun, data, { jobId: runJobId(runId, 'start') });
}

/** Number of worker processes currently connected to the trials queue. */
export async function liveWorkerCount(): Promise<number> {
  return queues().trials.getWorkersCount();
}
