import type { Redis } from 'ioredis';
import { queuePrefix, redisConnection } from './connection';

// Rate limits per provider and model, shared by every worker process through Redis:
//  - concurrency: holders in a sorted set scored by lease expiry (a dead holder's slot frees itself);
//  - requests per minute: a token bucket with a one-second burst;
//  - AIMD (as Inspect does): a 429 halves the window (at most once a second), each clean answer adds
//    1/window, so the window climbs back by about one slot per window of clean answers. A window is kept
//    only while it is recovering from a cut: once back where it was cut from it is dropped, so each run
//    then gets its own full concurrency (a stored window clamped to one run's concurrency would otherwise
//    start the next, wider run of the same model at the narrower run's width).
// Times come from Redis (TIME), so workers on several machines agree.

// One script serves every call of a batch (see Limiter): releases first (they free slots for the acquires of
// the same batch), then acquires. ARGV: nRelease, (holder, outcome, maxc)×nRelease, nAcquire,
// (holder, maxc, leaseMs, rpm)×nAcquire. Returns the window after each release, then (granted, waitMs) per
// acquire.
const SYNC = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
local i = 1
local nrel = tonumber(ARGV[i]); i = i + 1
for _ = 1, nrel do
  local holder, outcome, maxc = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]); i = i + 3
  redis.call('ZREM', KEYS[1], holder)
  local stored = tonumber(redis.call('HGET', KEYS[2], 'cwnd'))
  local cwnd = math.min(stored or maxc, maxc)
  if outcome == 'throttled' then
    local cut = tonumber(redis.call('HGET', KEYS[2], 'cut') or 0)
    if now - cut >= 1000 then
      local hi = math.max(tonumber(redis.call('HGET', KEYS[2], 'hi') or 0), cwnd)
      cwnd = math.max(1, cwnd / 2)
      redis.call('HSET', KEYS[2], 'cut', now, 'hi', tostring(hi), 'cwnd', tostring(cwnd))
    end
  elseif outcome == 'ok' and stored then
    stored = stored + 1 / math.max(1, stored)
    if stored >= tonumber(redis.call('HGET', KEYS[2], 'hi') or 0) then
      redis.call('HDEL', KEYS[2], 'cwnd', 'hi')
    else
      redis.call('HSET', KEYS[2], 'cwnd', tostring(stored))
    end
    cwnd = math.min(stored, maxc)
  end
  out[#out + 1] = tostring(cwnd)
end
local nacq = tonumber(ARGV[i]); i = i + 1
if nacq > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now) end
local granted = false
for _ = 1, nacq do
  local holder, maxc, leaseMs, rpm = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]); i = i + 4
  local cwnd = tonumber(redis.call('HGET', KEYS[2], 'cwnd') or maxc)
  if cwnd > maxc then cwnd = maxc end
  local limit = math.max(1, math.floor(cwnd))
  local ok, wait = 1, 0
  if redis.call('ZCARD', KEYS[1]) >= limit then
    ok = 0
  elseif rpm > 0 then
    local cap = math.max(1, rpm / 60)
    local tokens = tonumber(redis.call('HGET', KEYS[2], 'tokens') or cap)
    local ts = tonumber(redis.call('HGET', KEYS[2], 'ts') or now)
    tokens = math.min(cap, tokens + (now - ts) * rpm / 60000)
    if tokens < 1 then
      ok, wait = 0, math.ceil((1 - tokens) * 60000 / rpm)
      redis.call('HSET', KEYS[2], 'tokens', tostring(tokens), 'ts', now)
    else
      redis.call('HSET', KEYS[2], 'tokens', tostring(tokens - 1), 'ts', now)
    end
  end
  if ok == 1 then
    redis.call('ZADD', KEYS[1], now + leaseMs, holder)
    granted = true
  end
  out[#out + 1] = ok
  out[#out + 1] = wait
end
if granted then
  redis.call('PEXPIRE', KEYS[1], 86400000)
  redis.call('PEXPIRE', KEYS[2], 86400000)
end
return out`;

type LimiterRedis = Redis & {
  tclabLimiterSync(holders: string, state: string, ...args: (string | number)[]): Promise<(string | number)[]>;
};

export interface Limits {
  /** Maximum requests in flight for this provider and model. */
  concurrency: number;
  requestsPerMinute: number | null;
  /** A holder that never releases (killed) frees its slot after this. */
  leaseMs: number;
}

export type ReleaseOutcome = 'ok' | 'throttled' | 'error';

type Op =
  | { kind: 'acquire'; holder: string; limits: Limits; done(r: { ok: boolean; waitMs: number }): void; fail(e: unknown): void }
  | { kind: 'release'; holder: string; outcome: ReleaseOutcome; limits: Limits; done(cwnd: number): void; fail(e: unknown): void };

/**
 * Calls for one scope are batched: while a script call is in flight, further acquires and releases queue
 * and go together in the next call (one round trip for many trials). With nothing in flight a call goes
 * out at the end of the current turn of the event loop. The limits themselves live in Redis only, so
 * they stay shared by every worker process.
 */
class ScopeBatch {
  private ops: Op[] = [];
  private busy = false;
  private scheduled = false;

  constructor(
    private readonly redis: LimiterRedis,
    private readonly keys: [string, string],
  ) {}

  push(op: Op): void {
    this.ops.push(op);
    this.schedule();
  }

  private schedule(): void {
    if (this.busy || this.scheduled || this.ops.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.busy || this.ops.length === 0) return;
    this.busy = true;
    const ops = this.ops.splice(0, MAX_BATCH);
    const releases = ops.filter((o): o is Extract<Op, { kind: 'release' }> => o.kind === 'release');
    const acquires = ops.filter((o): o is Extract<Op, { kind: 'acquire' }> => o.kind === 'acquire');
    const args: (string | number)[] = [releases.length];
    for (const r of releases) args.push(r.holder, r.outcome, r.limits.concurrency);
    args.push(acquires.length);
    for (const a of acquires) args.push(a.holder, a.limits.concurrency, a.limits.leaseMs, a.limits.requestsPerMinute ?? 0);
    try {
      const out = await this.redis.tclabLimiterSync(this.keys[0], this.keys[1], ...args);
      releases.forEach((r, i) => r.done(Number(out[i])));
      acquires.forEach((a, i) => a.done({ ok: Number(out[releases.length + 2 * i]) === 1, waitMs: Number(out[releases.length + 2 * i + 1]) }));
    } catch (e) {
      for (const o of ops) o.fail(e);
    } finally {
      this.busy = false;
      this.schedule();
    }
  }
}

/** Redis runs one script at a time: a bounded batch keeps each call short. */
const MAX_BATCH = 256;

export class Limiter {
  private readonly redis: LimiterRedis;
  private readonly prefix: string;
  private readonly batches = new Map<string, ScopeBatch>();
  /** Acquirers of this process waiting for a slot, per scope, oldest first: a local release wakes one. */
  private readonly waiting = new Map<string, Set<() => void>>();

  constructor(redis: Redis = redisConnection(), prefix = queuePrefix()) {
    redis.defineCommand('tclabLimiterSync', { numberOfKeys: 2, lua: SYNC });
    this.redis = redis as LimiterRedis;
    this.prefix = prefix;
  }

  private keys(scope: string): [string, string] {
    return [`${this.prefix}:limit:${scope}:holders`, `${this.prefix}:limit:${scope}:state`];
  }

  private batch(scope: string): ScopeBatch {
    let b = this.batches.get(scope);
    if (!b) {
      b = new ScopeBatch(this.redis, this.keys(scope));
      this.batches.set(scope, b);
    }
    return b;
  }

  private tryAcquire(scope: string, holder: string, limits: Limits): Promise<{ ok: boolean; waitMs: number }> {
    return new Promise((done, fail) => this.batch(scope).push({ kind: 'acquire', holder, limits, done, fail }));
  }

  /** Wait for a slot (and a token), polling with a growing interval. */
  async acquire(scope: string, holder: string, limits: Limits, signal?: AbortSignal): Promise<void> {
    for (let i = 0; ; i++) {
      const { ok, waitMs } = await this.tryAcquire(scope, holder, limits);
      if (ok) return;
      if (signal?.aborted) throw new Error('aborted while waiting for a rate-limit slot');
      const poll = Math.min(50, 2 * 2 ** Math.min(i, 5));
      if (waitMs > 0) await sleep(Math.max(waitMs, poll) + Math.random() * poll); // out of RPM tokens: a release does not help
      else await this.nap(scope, poll + Math.random() * poll);
    }
  }

  /** Sleep until the timeout or until this process releases a slot of the scope, whichever comes first. */
  private nap(scope: string, ms: number): Promise<void> {
    let set = this.waiting.get(scope);
    if (!set) {
      set = new Set();
      this.waiting.set(scope, set);
    }
    const waiters = set;
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      waiters.add(wake);
    });
  }

  /** Free the slot and feed the outcome to AIMD; returns the new window. */
  release(scope: string, holder: string, outcome: ReleaseOutcome, limits: Limits): Promise<number> {
    const done = new Promise<number>((done, fail) => this.batch(scope).push({ kind: 'release', holder, outcome, limits, done, fail }));
    // the oldest local waiter retries now; its acquire runs after this release (same batch or a later one)
    const next = this.waiting.get(scope)?.values().next();
    if (next && !next.done) next.value();
    return done;
  }

  async window(scope: string): Promise<{ cwnd: number | null; inFlight: number }> {
    const [h, s] = this.keys(scope);
    const [cwnd, inFlight] = await Promise.all([this.redis.hget(s, 'cwnd'), this.redis.zcard(h)]);
    return { cwnd: cwnd === null ? null : Number(cwnd), inFlight };
  }

  async reset(scope: string): Promise<void> {
    await this.redis.del(...this.keys(scope));
  }

  close(): void {
    this.redis.disconnect();
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
