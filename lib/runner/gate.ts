import { randomBytes } from 'node:crypto';
import { Limiter, type Limits, type ReleaseOutcome } from '../queue/limiter';
import type { RunContext } from './context';

/** A held rate-limit slot; release it as soon as the request is answered. */
export interface Slot {
  release(outcome: ReleaseOutcome): Promise<void>;
}

/** Taken before a trial is claimed, so a paused or cancelled run leaves nothing claimed and waiting. */
export interface Gate {
  acquire(ctx: RunContext): Promise<Slot>;
}

/** The rate-limit scope: one per provider and model, shared by all runs and workers. */
export function scopeOf(ctx: RunContext): string {
  return `${ctx.settings.provider}:${ctx.settings.model}`;
}

export function limitsOf(ctx: RunContext, leaseMs: number): Limits {
  return { concurrency: ctx.settings.concurrency, requestsPerMinute: ctx.settings.requestsPerMinute, leaseMs };
}

/** Distributed concurrency slots and RPM tokens per provider and model; 429s feed AIMD. */
export function limiterGate(limiter: Limiter, leaseMsFor: (timeoutMs: number) => number): Gate {
  // holder ids: unique per gate (random prefix) and per acquire (counter)
  const prefix = randomBytes(6).toString('hex');
  let n = 0;
  return {
    async acquire(ctx) {
      const scope = scopeOf(ctx);
      const limits = limitsOf(ctx, leaseMsFor(ctx.settings.timeoutMs));
      const holder = `${prefix}-${(n++).toString(36)}`;
      await limiter.acquire(scope, holder, limits);
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
