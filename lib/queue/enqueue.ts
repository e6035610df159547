import { JOB_NAMES, RunJob, TrialJob, runJobId } from './contracts';
import { queues } from './connection';

const CHUNK = 1000;

/** One job per trial, jobId = trial id: adding a trial that already has a job is ignored by BullMQ. */
export async function enqueueTrials(jobs: TrialJob[], opts: { delayMs?: number } = {}): Promise<void> {
  const { trials } = queues();
  for (let i = 0; i < jobs.length; i += CHUNK) {
    await trials.addBulk(
      jobs.slice(i, i + CHUNK).map((data) => ({
        name: JOB_NAMES.trial,
        data: TrialJob.parse(data),
        opts: { jobId: data.trialId, delay: opts.delayMs },
      })),
    );
  }
}

export async function enqueueRunStart(runId: string): Promise<void> {
  const data: RunJob = RunJob.parse({ runId, action: 'start' });
  await queues().runs.add(JOB_NAMES.startRun, data, { jobId: runJobId(runId, 'start') });
}

/** Number of worker processes currently connected to the trials queue. */
export async function liveWorkerCount(): Promise<number> {
  return queues().trials.getWorkersCount();
}
