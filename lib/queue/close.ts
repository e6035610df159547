import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RunJob, TrialJob } from './contracts';

// Closing the producer-side queues (connection.ts opens them) needs neither BullMQ nor ioredis loaded: a
// process that never opened them — `tclab export`, whose shutdown closes whatever was opened — loads
// neither (about 25 MB of RSS).
export type Queues = { trials: Queue<TrialJob>; takeovers: Queue<TrialJob>; runs: Queue<RunJob>; connection: Redis; key: string };
const globalForQueues = globalThis as unknown as { __tclabQueues?: Queues };

export async function closeQueues(): Promise<void> {
  const q = globalForQueues.__tclabQueues;
  globalForQueues.__tclabQueues = undefined;
  if (!q) return;
  await Promise.allSettled([q.trials.close(), q.takeovers.close(), q.runs.close()]);
  q.connection.disconnect();
}
