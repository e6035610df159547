import { randomBytes } from 'node:crypto';
import { Limiter, type AcquireOptions, type Limits, type ReleaseOutcome } from '../queue/limiter';
import type { RunContext } from './context';

/** A held rate-limit slot; release it as soon as the request is answered. */
export interface Slot {
  release(outcome: ReleaseOutcome): Promise<void>;
}

/**
 * Where a trial takes its rate-limit slot: taken after a trial is claimed and held only while its request is out, so claiming and recording overlap
 * other trials' requests. 'halted': the run was paused or stopped while the trial waited (halt key);
 * 'timeout': the deadline passed first.
 */
export interface Slots {
  acquire(ctx: RunContext, opts?: AcquireOptions): Promise<Slot | 'halted' | 'timeout'>;
}

/** The rate-limit scope: one per provider and model, shared by all runs and workers. */
export function scopeOf(ctx: RunContext): string {
  return `${ctx.settings.provider}:${ctx.settings.model}`;
}

export function limitsOf(ctx: RunContext, leaseMs: number): Limits {
  return { concurrency: ctx.settings.concurrency, requestsPerMinute: ctx.settings.requestsPerMinute, leaseMs };
}

/** Distributed concurrency slots and RPM tokens per provider and model; 429s feed AIMD. */
export function limiterSlots(limiter: Limiter, leaseMsFor: (timeoutMs: number) => number): Slots {
  // holder ids: unique per slot source (random prefix) and per acquire (counter)
  const prefix = randomBytes(6).toString('hex');
  let n = 0;
  return {
    async acquire(ctx, opts) {
      const scope = scopeOf(ctx);
      const limits = limitsOf(ctx, leaseMsFor(ctx.settings.timeoutMs));
      const got = await limiter.acquire(scope, `${prefix}-${(n++).toString(36)}`, limits, opts);
      if (typeof got === 'string') return got;
      const { holder } = got;
      let released = false;
      return {
        async release(outcome) {
          if (released) return;
          released = true;
          await limiter.release(scope, holder, outcome, limits).catch(() => {});
        },
      };
    },
  };
}
