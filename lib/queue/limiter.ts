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

/** A waiter that has not asked for this long has given up (or died) and loses its place in the queue. */
const WAITER_TTL_MS = 2000;

// One script serves every call of a batch (see Limiter): releases first (they free slots for the acquires of
// the same batch), then renewals (a slot handed over inside a process gets a fresh lease), then leaves (a
// waiter that stopped waiting), then acquires. Waiters queue in Redis in the order they first asked
// (KEYS[3], with their last ask in KEYS[4]; one that stops asking drops out after WAITER_TTL_MS): a free slot
// goes to the oldest waiter, whichever process it is in, so a process whose own jobs keep asking cannot
// starve another.
// ARGV: nRelease, (holder, outcome, maxc)×nRelease, nRenew, (holder, leaseMs, maxc)×nRenew,
// nLeave, holder×nLeave, nAcquire, (holder, maxc, leaseMs, rpm, haltKey)×nAcquire. Returns the window after
// each release and renewal, then (granted, waitMs, ahead) per acquire; granted is -1 when the acquire's halt
// key exists (its run was paused or stopped: checked here, atomically with the grant, so no slot goes to a
// halted run's trial); ahead is, for a refused waiter, how many waiters (of any process) are before it.
const SYNC = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {}
local i = 1
local function leave(holder)
  redis.call('ZREM', KEYS[3], holder)
  redis.call('ZREM', KEYS[4], holder)
end
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
local nren = tonumber(ARGV[i]); i = i + 1
for _ = 1, nren do
  local holder, leaseMs, maxc = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]); i = i + 3
  redis.call('ZADD', KEYS[1], 'XX', now + leaseMs, holder)
  out[#out + 1] = tostring(math.min(tonumber(redis.call('HGET', KEYS[2], 'cwnd')) or maxc, maxc))
end
local nleave = tonumber(ARGV[i]); i = i + 1
for _ = 1, nleave do
  leave(ARGV[i]); i = i + 1
end
local nacq = tonumber(ARGV[i]); i = i + 1
if nacq > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
  local gone = redis.call('ZRANGEBYSCORE', KEYS[4], '-inf', now - ${WAITER_TTL_MS}, 'LIMIT', 0, 1000)
  for _, holder in ipairs(gone) do leave(holder) end
end
local touched = false
for _ = 1, nacq do
  local holder, maxc, leaseMs, rpm, halt = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3]), ARGV[i + 4]; i = i + 5
  local cwnd = tonumber(redis.call('HGET', KEYS[2], 'cwnd') or maxc)
  if cwnd > maxc then cwnd = maxc end
  local limit = math.max(1, math.floor(cwnd))
  local ok, wait, ahead = 1, 0, 0
  local free = limit - redis.call('ZCARD', KEYS[1])
  if halt ~= '' and redis.call('EXISTS', halt) == 1 then
    ok = -1
  elseif free <= 0 or (redis.call('ZRANK', KEYS[3], holder) or redis.call('ZCARD', KEYS[3])) >= free then
    ok = 0 -- no slot free, or every free one is due to an older waiter
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
    leave(holder)
  elseif ok == 0 then
    redis.call('ZADD', KEYS[3], 'NX', now, holder)
    redis.call('ZADD', KEYS[4], now, holder)
    ahead = redis.call('ZRANK', KEYS[3], holder)
  else
    leave(holder)
  end
  touched = true
  out[#out + 1] = ok
  out[#out + 1] = wait
  out[#out + 1] = ahead
end
if touched then
  for k = 1, 4 do redis.call('PEXPIRE', KEYS[k], 86400000) end
end
return out`;

type LimiterRedis = Redis & {
  tclabLimiterSync(holders: string, state: string, waiters: string, asked: string, ...args: (string | number)[]): Promise<(string | number)[]>;
};

export interface Limits {
  /** Maximum requests in flight for this provider and model. */
  concurrency: number;
  requestsPerMinute: number | null;
  /** A holder that never releases (killed) frees its slot after this. */
  leaseMs: number;
}

export type ReleaseOutcome = 'ok' | 'throttled' | 'error';

/**
 * What an acquire came to: a slot (held under `holder`: the acquirer's own id, or the id of the slot a
 * holder of this process handed over), a halted run (see halt.ts), or its deadline passed first.
 */
export type AcquireResult = { granted: true; holder: string } | 'halted' | 'timeout';

export interface AcquireOptions {
  /** Refuse the slot while this key exists (a halted run). */
  haltKey?: string;
  /** Give up waiting at this time (epoch ms). */
  deadline?: number;
}

/** holders (by lease expiry), state (window, tokens), waiters (by first ask), asked (waiters by last ask) */
type ScopeKeys = [string, string, string, string];

/** An acquire's answer: granted (1), refused (0) or halted (-1); a refused waiter's RPM wait and place in the queue. */
type AcquireReply = { ok: number; waitMs: number; ahead: number };
type AcquireOp = { kind: 'acquire'; holder: string; limits: Limits; haltKey: string; done(r: AcquireReply): void; fail(e: unknown): void };
type WindowOp = { kind: 'release' | 'renew'; holder: string; outcome: ReleaseOutcome; limits: Limits; done(cwnd: number): void; fail(e: unknown): void };
type LeaveOp = { kind: 'leave'; holder: string; done(): void; fail(e: unknown): void };
type Op = AcquireOp | WindowOp | LeaveOp;

/**
 * Calls for one scope are batched: the acquires and releases of one turn of the event loop go together in
 * one script call (one round trip for many trials), sent at the end of that turn. Up to MAX_IN_FLIGHT calls
 * are pipelined on the connection, which Redis runs in the order sent, so a release still frees its slot
 * before any later acquire; waiting for the previous call to return would add its round trip to every
 * handoff of a slot. The limits themselves live in Redis only, so they stay shared by every worker process.
 */
class ScopeBatch {
  private ops: Op[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly redis: LimiterRedis,
    private readonly keys: ScopeKeys,
  ) {}

  push(op: Op): void {
    this.ops.push(op);
    this.schedule();
  }

  private schedule(): void {
    if (this.inFlight >= MAX_IN_FLIGHT || this.scheduled || this.ops.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.inFlight >= MAX_IN_FLIGHT || this.ops.length === 0) return;
    this.inFlight++;
    const ops = this.ops.splice(0, MAX_BATCH);
    const releases = ops.filter((o): o is WindowOp => o.kind === 'release');
    const renewals = ops.filter((o): o is WindowOp => o.kind === 'renew');
    const leaves = ops.filter((o): o is LeaveOp => o.kind === 'leave');
    const acquires = ops.filter((o): o is AcquireOp => o.kind === 'acquire');
    const args: (string | number)[] = [releases.length];
    for (const r of releases) args.push(r.holder, r.outcome, r.limits.concurrency);
    args.push(renewals.length);
    for (const r of renewals) args.push(r.holder, r.limits.leaseMs, r.limits.concurrency);
    args.push(leaves.length, ...leaves.map((l) => l.holder));
    args.push(acquires.length);
    for (const a of acquires) args.push(a.holder, a.limits.concurrency, a.limits.leaseMs, a.limits.requestsPerMinute ?? 0, a.haltKey);
    try {
      const out = await this.redis.tclabLimiterSync(...this.keys, ...args);
      const windows = releases.length + renewals.length;
      [...releases, ...renewals].forEach((r, i) => r.done(Number(out[i])));
      for (const l of leaves) l.done();
      acquires.forEach((a, i) => a.done({ ok: Number(out[windows + 3 * i]), waitMs: Number(out[windows + 3 * i + 1]), ahead: Number(out[windows + 3 * i + 2]) }));
    } catch (e) {
      for (const o of ops) o.fail(e);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}

/** What nextWait reports of a waiter that was refused and naps. */
export interface WaitSeen {
  ahead: number;
  napMs: number;
}

interface Waiter {
  holder: string;
  limits: Limits;
  haltKey: string;
  /** When this acquire was first refused: its place in the queue. */
  firstAskedAt: number;
  /** When Redis last refused this waiter a slot (and so found its run not halted). */
  checkedAt: number;
  /** How many waiters (of any process) Redis had before it then. */
  ahead: number;
  /** Resolves the nap: with the holder id of a slot handed over, or with nothing (try Redis now). */
  wake(handed?: string): void;
}

const HANDOVER_FRESH_MS = 100;
/** Waiters this close to the head of the queue poll quickly (see acquire). */
export const HEAD_WAITERS = 8;
/** A waiter further back asks every FAR_POLL_MS + up to FAR_POLL_MS / 2: always fresh for a handover. */
export const FAR_POLL_MS = 50;

/**
 * How long a refused waiter waits before asking again (its `attempt`-th refusal, `ahead` waiters before it):
 * `ms` plus a random share of `jitter`. Near the head: 2, 4, 8 … 50 ms, so a slot freed in another process
 * is taken soon. Further back: FAR_POLL_MS to 1.5 × FAR_POLL_MS — it cannot be served before the waiters
 * ahead of it, and a local release hands its slot over without any ask, so asking more often only costs
 * Redis calls (at C = 64 with 2 C jobs: 6.5 asks per trial before, 2.1 after).
 */
export function waitPoll(attempt: number, ahead: number): { ms: number; jitter: number } {
  if (ahead >= HEAD_WAITERS) return { ms: FAR_POLL_MS, jitter: FAR_POLL_MS / 2 };
  const ms = Math.min(50, 2 * 2 ** Math.min(attempt, 5));
  return { ms, jitter: ms };
}
/** A slot is handed over inside one process at most this many times in a row. */
export const HANDOVER_MAX = 16;

function oldest(waiters: Set<Waiter> | undefined, eligible: (w: Waiter) => boolean): Waiter | undefined {
  let best: Waiter | undefined;
  for (const w of waiters ?? []) if (eligible(w) && (!best || w.firstAskedAt < best.firstAskedAt)) best = w;
  return best;
}

function sameLimits(a: Limits, b: Limits): boolean {
  return a.concurrency === b.concurrency && a.requestsPerMinute === b.requestsPerMinute && a.leaseMs === b.leaseMs;
}

/** Redis runs one script at a time: a bounded batch keeps each call short. */
const MAX_BATCH = 256;
const MAX_IN_FLIGHT = 4;

export class Limiter {
  private readonly redis: LimiterRedis;
  private readonly prefix: string;
  private readonly batches = new Map<string, ScopeBatch>();
  /** Acquirers of this process waiting for a slot, per scope: a local release hands its slot to, or wakes, the oldest. */
  private readonly waiting = new Map<string, Set<Waiter>>();
  /** Per scope: whether the last window Redis reported was the whole concurrency (no AIMD cut in force). */
  private readonly fullWindow = new Map<string, boolean>();
  /** Slots held in this process (by holder id): handovers in a row (bounded, so other processes get their
   * turn) and when the lease in Redis was last set. */
  private readonly held = new Map<string, { handovers: number; leasedAt: number; scope: string; limits: Limits }>();
  /** When an acquire of this process was last refused because its halt key was set, per halt key (see release). */
  private readonly haltSeen = new Map<string, number>();
  /** nextWait() callers, per scope. */
  private readonly watchers = new Map<string, Set<{ holder: string; resolve(seen: WaitSeen): void }>>();

  constructor(redis: Redis = redisConnection(), prefix = queuePrefix()) {
    redis.defineCommand('tclabLimiterSync', { numberOfKeys: 4, lua: SYNC });
    this.redis = redis as LimiterRedis;
    this.prefix = prefix;
  }

  private keys(scope: string): ScopeKeys {
    const k = `${this.prefix}:limit:${scope}`;
    return [`${k}:holders`, `${k}:state`, `${k}:waiters`, `${k}:asked`];
  }

  private batch(scope: string): ScopeBatch {
    let b = this.batches.get(scope);
    if (!b) {
      b = new ScopeBatch(this.redis, this.keys(scope));
      this.batches.set(scope, b);
    }
    return b;
  }

  private tryAcquire(scope: string, holder: string, limits: Limits, haltKey: string): Promise<AcquireReply> {
    return new Promise((done, fail) => this.batch(scope).push({ kind: 'acquire', holder, limits, haltKey, done, fail }));
  }

  /**
   * Wait for a slot (and a token), polling (see waitPoll: quickly near the head of the queue, seldom further
   * back); a local release wakes a waiter at once.
   */
  async acquire(scope: string, holder: string, limits: Limits, opts: AcquireOptions = {}): Promise<AcquireResult> {
    const haltKey = opts.haltKey ?? '';
    let firstAskedAt = 0;
    for (let i = 0; ; i++) {
      const { ok, waitMs, ahead } = await this.tryAcquire(scope, holder, limits, haltKey);
      if (ok === 1) {
        this.held.set(holder, { handovers: 0, leasedAt: Date.now(), scope, limits });
        return { granted: true, holder };
      }
      if (ok === -1) {
        this.sawHalt(scope, haltKey);
        return 'halted';
      }
      const checkedAt = Date.now();
      firstAskedAt ||= checkedAt;
      const left = (opts.deadline ?? Infinity) - checkedAt;
      if (left <= 0) {
        this.leave(scope, holder);
        return 'timeout';
      }
      const { ms: poll, jitter } = waitPoll(i, ahead);
      if (waitMs > 0) {
        await sleep(Math.min(left, Math.max(waitMs, poll) + Math.random() * jitter)); // out of RPM tokens: a release does not help
        continue;
      }
      const handed = await this.nap(scope, { holder, limits, haltKey, checkedAt, firstAskedAt, ahead }, Math.min(left, poll + Math.random() * jitter));
      if (handed) {
        this.leave(scope, holder); // its own place in the queue is no longer needed
        return { granted: true, holder: handed };
      }
    }
  }

  /**
   * A halt seen by one waiter holds for all of this process: no slot is handed over to a waiter of that run
   * that last asked before it, and those napping ask Redis now (and so give their claims back at once).
   */
  private sawHalt(scope: string, haltKey: string): void {
    if (!haltKey) return;
    const now = Date.now();
    for (const [k, at] of this.haltSeen) if (now - at > HANDOVER_FRESH_MS) this.haltSeen.delete(k); // no waiter that old is handed a slot
    this.haltSeen.set(haltKey, now);
    for (const w of [...(this.waiting.get(scope) ?? [])]) if (w.haltKey === haltKey) w.wake();
  }

  /**
   * Sleep until the timeout or until a holder of this process releases a slot of the scope: then either the
   * slot itself is handed over (resolves with its holder id) or the waiter retries at once.
   */
  private nap(scope: string, w: Omit<Waiter, 'wake'>, ms: number): Promise<string | undefined> {
    let set = this.waiting.get(scope);
    if (!set) {
      set = new Set();
      this.waiting.set(scope, set);
    }
    const waiters = set;
    return new Promise((resolve) => {
      const waiter: Waiter = {
        ...w,
        wake(handed) {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(handed);
        },
      };
      const timer = setTimeout(() => waiter.wake(), ms);
      waiters.add(waiter);
      this.notifyWaiting(scope, w.holder, { ahead: w.ahead, napMs: ms });
    });
  }

  /**
   * Resolves the next time `holder` has been refused a slot of `scope` by Redis and starts waiting in this
   * process: the event a test needs before it releases a slot to that waiter, instead of a sleep. The
   * caller's continuation runs before the waiter's timer can fire, so the waiter is still waiting then.
   * Resolves with the waiter's place (waiters before it) and how long it naps before asking again.
   */
  nextWait(scope: string, holder: string): Promise<WaitSeen> {
    return new Promise((resolve) => {
      let set = this.watchers.get(scope);
      if (!set) {
        set = new Set();
        this.watchers.set(scope, set);
      }
      set.add({ holder, resolve });
    });
  }

  private notifyWaiting(scope: string, holder: string, seen: WaitSeen): void {
    const set = this.watchers.get(scope);
    if (!set) return;
    for (const w of set) {
      if (w.holder !== holder) continue;
      set.delete(w);
      w.resolve(seen);
    }
    if (set.size === 0) this.watchers.delete(scope);
  }

  /**
   * Free the slot and feed the outcome to AIMD; returns the new window.
   *
   * A clean answer hands the slot straight to a waiter of this process with the same limits, skipping the
   * round trip to Redis (and the event-loop turns around it) that otherwise lies between one request and the
   * next: the slot's holder entry in Redis stays, its lease renewed. Only while no AIMD cut is in force and
   * without a requests-per-minute budget (a handover would spend no token), only to a waiter that found its
   * run not halted within HANDOVER_FRESH_MS (the halt check happens in Redis) and after any halt of its run
   * another waiter of this process has seen since (sawHalt), and at most HANDOVER_MAX
   * times in a row, so that waiters of other processes get their turn.
   */
  release(scope: string, holder: string, outcome: ReleaseOutcome, limits: Limits): Promise<number> {
    const slot = this.held.get(holder);
    this.held.delete(holder);
    const waiters = this.waiting.get(scope);
    if (slot && outcome === 'ok' && limits.requestsPerMinute === null && this.fullWindow.get(scope) && slot.handovers < HANDOVER_MAX) {
      const now = Date.now();
      const w = oldest(
        waiters,
        (x) => now - x.checkedAt <= HANDOVER_FRESH_MS && x.checkedAt > (this.haltSeen.get(x.haltKey) ?? -Infinity) && sameLimits(x.limits, limits),
      );
      if (w) {
        // the lease is renewed (a Redis call, off the waiter's path) once half of it has gone
        const renew = now - slot.leasedAt > w.limits.leaseMs / 2;
        this.held.set(holder, { handovers: slot.handovers + 1, leasedAt: renew ? now : slot.leasedAt, scope, limits: w.limits });
        w.wake(holder);
        return renew ? this.push(scope, 'renew', holder, outcome, w.limits) : Promise.resolve(limits.concurrency);
      }
    }
    const done = this.push(scope, 'release', holder, outcome, limits);
    // The oldest local waiter asks now, after this release (same batch or a later one); it gets the slot
    // unless a waiter of another process asked before it (Redis keeps them in order).
    oldest(waiters, () => true)?.wake();
    return done;
  }

  /** Drop out of the queue of waiters (off the caller's path: nobody waits for it). */
  private leave(scope: string, holder: string): void {
    this.batch(scope).push({ kind: 'leave', holder, done: () => {}, fail: () => {} });
  }

  private push(scope: string, kind: 'release' | 'renew', holder: string, outcome: ReleaseOutcome, limits: Limits): Promise<number> {
    return new Promise<number>((done, fail) =>
      this.batch(scope).push({
        kind,
        holder,
        outcome,
        limits,
        done: (cwnd) => {
          this.fullWindow.set(scope, cwnd >= limits.concurrency);
          done(cwnd);
        },
        fail,
      }),
    );
  }

  /**
   * Renew the lease of every slot this process holds. A worker calls it from its heartbeat's timer with slot
   * leases of one heartbeat TTL: the slots of a process that died (or whose event loop is stuck) free
   * themselves within seconds instead of after a request's timeout.
   */
  renewHeld(): void {
    const now = Date.now();
    for (const [holder, slot] of this.held) {
      slot.leasedAt = now;
      void this.push(slot.scope, 'renew', holder, 'ok', slot.limits).catch(() => {});
    }
  }

  /** Load the script into Redis (a call with no operations), so that the first real call does not miss. */
  async warmUp(): Promise<void> {
    await this.redis.tclabLimiterSync(...this.keys('warm-up'), 0, 0, 0, 0);
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
