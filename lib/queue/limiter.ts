import type { Redis } from 'ioredis';
import { queuePrefix, redisConnection } from './connection';

// Rate limits per provider and model, shared by every worker process through Redis:
//  - concurrency: holders in a sorted set scored by lease expiry (a dead holder's slot frees itself);
//  - requests per minute: a token bucket with a one-second burst;
//  - AIMD (as Inspect does): a 429 halves the window (at most once a second), each clean answer adds
//    1/window, so the window climbs back by about one slot per window of clean answers.
// Times come from Redis (TIME), so workers on several machines agree.

const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local maxc = tonumber(ARGV[2])
local cwnd = tonumber(redis.call('HGET', KEYS[2], 'cwnd') or maxc)
if cwnd > maxc then cwnd = maxc end
local limit = math.max(1, math.floor(cwnd))
if redis.call('ZCARD', KEYS[1]) >= limit then return {0, 0} end
local rpm = tonumber(ARGV[4])
if rpm > 0 then
  local cap = math.max(1, rpm / 60)
  local tokens = tonumber(redis.call('HGET', KEYS[2], 'tokens') or cap)
  local ts = tonumber(redis.call('HGET', KEYS[2], 'ts') or now)
  tokens = math.min(cap, tokens + (now - ts) * rpm / 60000)
  if tokens < 1 then
    redis.call('HSET', KEYS[2], 'tokens', tostring(tokens), 'ts', now)
    return {0, math.ceil((1 - tokens) * 60000 / rpm)}
  end
  redis.call('HSET', KEYS[2], 'tokens', tostring(tokens - 1), 'ts', now)
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], 86400000)
redis.call('PEXPIRE', KEYS[2], 86400000)
return {1, 0}`;

const RELEASE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREM', KEYS[1], ARGV[1])
local maxc = tonumber(ARGV[3])
local cwnd = tonumber(redis.call('HGET', KEYS[2], 'cwnd') or maxc)
if cwnd > maxc then cwnd = maxc end
if ARGV[2] == 'throttled' then
  local cut = tonumber(redis.call('HGET', KEYS[2], 'cut') or 0)
  if now - cut >= 1000 then
    cwnd = math.max(1, cwnd / 2)
    redis.call('HSET', KEYS[2], 'cut', now)
  end
elseif ARGV[2] == 'ok' then
  cwnd = math.min(maxc, cwnd + 1 / math.max(1, cwnd))
end
redis.call('HSET', KEYS[2], 'cwnd', tostring(cwnd))
return tostring(cwnd)`;

type LimiterRedis = Redis & {
  tclabAcquire(holders: string, state: string, holder: string, maxc: number, leaseMs: number, rpm: number): Promise<[number, number]>;
  tclabRelease(holders: string, state: string, holder: string, outcome: string, maxc: number): Promise<string>;
};

export interface Limits {
  /** Maximum requests in flight for this provider and model. */
  concurrency: number;
  requestsPerMinute: number | null;
  /** A holder that never releases (killed) frees its slot after this. */
  leaseMs: number;
}

export type ReleaseOutcome = 'ok' | 'throttled' | 'error';

export class Limiter {
  private readonly redis: LimiterRedis;
  private readonly prefix: string;

  constructor(redis: Redis = redisConnection(), prefix = queuePrefix()) {
    redis.defineCommand('tclabAcquire', { numberOfKeys: 2, lua: ACQUIRE });
    redis.defineCommand('tclabRelease', { numberOfKeys: 2, lua: RELEASE });
    this.redis = redis as LimiterRedis;
    this.prefix = prefix;
  }

  private keys(scope: string): [string, string] {
    return [`${this.prefix}:limit:${scope}:holders`, `${this.prefix}:limit:${scope}:state`];
  }

  /** Wait for a slot (and a token), polling with a growing interval; returns the holder id to release. */
  async acquire(scope: string, holder: string, limits: Limits, signal?: AbortSignal): Promise<void> {
    const [h, s] = this.keys(scope);
    for (let i = 0; ; i++) {
      const [ok, waitMs] = await this.redis.tclabAcquire(h, s, holder, limits.concurrency, limits.leaseMs, limits.requestsPerMinute ?? 0);
      if (ok === 1) return;
      if (signal?.aborted) throw new Error('aborted while waiting for a rate-limit slot');
      const poll = Math.min(50, 2 * 2 ** Math.min(i, 5));
      await sleep(Math.max(waitMs, poll) + Math.random() * poll);
    }
  }

  /** Free the slot and feed the outcome to AIMD; returns the new window. */
  async release(scope: string, holder: string, outcome: ReleaseOutcome, limits: Limits): Promise<number> {
    const [h, s] = this.keys(scope);
    return Number(await this.redis.tclabRelease(h, s, holder, outcome, limits.concurrency));
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
