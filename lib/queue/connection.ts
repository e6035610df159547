import { Redis, type RedisOptions } from 'ioredis';
import { Queue } from 'bullmq';
import { env } from '../env';
import { QUEUES, type RunJob, type TrialJob } from './contracts';
import type { Queues } from './close';

export { closeQueues } from './close';

// BullMQ needs `maxRetriesPerRequest: null` on connections used by workers (blocking commands).
export function redisConnection(extra: RedisOptions = {}): Redis {
  return new Redis(env().REDIS_URL, { maxRetriesPerRequest: null, enableReadyCheck: true, ...extra });
}

export function queuePrefix(): string {
  return env().TCLAB_QUEUE_PREFIX;
}

const globalForQueues = globalThis as unknown as { __tclabQueues?: Queues };

/** Producer-side queues, one shared connection per process. */
export function queues(): Queues {
  const key = `${env().REDIS_URL}|${queuePrefix()}`;
  const q = globalForQueues.__tclabQueues;
  if (q && q.key === key) return q;
  const connection = redisConnection();
  connection.on('error', () => {}); // reconnects by itself; callers see command errors
  const common = { connection, prefix: queuePrefix() };
  globalForQueues.__tclabQueues = {
    trials: new Queue<TrialJob>(QUEUES.trials, {
      ...common,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
    }),
    takeovers: new Queue<TrialJob>(QUEUES.takeovers, {
      ...common,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true, attempts: 1 },
    }),
    runs: new Queue<RunJob>(QUEUES.runs, {
      ...common,
      defaultJobOptions: { removeOnComplete: true, removeOnFail: 100, attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
    }),
    connection,
    key,
  };
  return globalForQueues.__tclabQueues;
}
