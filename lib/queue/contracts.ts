import { z } from 'zod';

// The one owner of queue contracts: names, job names and payloads. Producers and consumers import
// these; nobody else invents a queue name. The queue only delivers — PostgreSQL holds every status.

export const QUEUES = {
  /** One job per trial; jobId = trial id, so re-adding an existing trial is a no-op. */
  trials: 'trials',
  /** Run lifecycle: pre-checks, then enqueueing the trials. jobId = `start-<runId>`. */
  runs: 'runs',
} as const;

export const TrialJob = z.object({ trialId: z.string().min(1), runId: z.string().min(1) });
export type TrialJob = z.infer<typeof TrialJob>;

export const RunJob = z.object({ runId: z.string().min(1), action: z.enum(['start']) });
export type RunJob = z.infer<typeof RunJob>;

export const JOB_NAMES = { trial: 'trial', startRun: 'start-run' } as const;

export function runJobId(runId: string, action: RunJob['action']): string {
  return `${action}-${runId}`;
}
