import { randomBytes } from 'node:crypto';
import type { ProviderResult } from '../providers/types';
import { Limiter, type Limits } from '../queue/limiter';
import { leaseMsFor } from './trial';
import type { RunContext } from './context';

/** The rate-limit scope: one per provider and model, shared by all runs and workers. */
export function scopeOf(ctx: RunContext): string {
  return `${ctx.settings.provider}:${ctx.settings.model}`;
}

export function limitsOf(ctx: RunContext): Limits {
  return { concurrency: ctx.settings.concurrency, requestsPerMinute: ctx.settings.requestsPerMinute, leaseMs: leaseMsFor(ctx.settings.timeoutMs) };
}

/** Wraps each provider call in a distributed concurrency slot and RPM token, feeding 429s to AIMD. */
export function limiterGate(limiter: Limiter) {
  return async function gate(ctx: RunContext, fn: () => Promise<ProviderResult>): Promise<ProviderResult> {
    const scope = scopeOf(ctx);
    const limits = limitsOf(ctx);
    const holder = randomBytes(8).toString('hex');
    await limiter.acquire(scope, holder, limits);
    let outcome: 'ok' | 'throttled' | 'error' = 'error';
    try {
      const r = await fn();
      outcome = r.outcome === 'ok' ? 'ok' : r.error?.kind === 'http_429' ? 'throttled' : 'error';
      return r;
    } finally {
      await limiter.release(scope, holder, outcome, limits).catch(() => {});
    }
  };
}
