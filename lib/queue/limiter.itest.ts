import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { FAR_POLL_MS, HANDOVER_MAX, HEAD_WAITERS, Limiter, waitPoll, type AcquireOptions, type Limits } from './limiter';
import { redisConnection } from './connection';

// The limiter against real Redis: limits hold across separate connections (as across worker processes).

const limiters = [new Limiter(redisConnection()), new Limiter(redisConnection())];
afterAll(() => limiters.forEach((l) => l.close()));
const scope = () => `test:${randomBytes(4).toString('hex')}`;

/** Acquire and return the holder id to release with (a slot handed over keeps its first holder's id). */
async function hold(l: Limiter, s: string, holder: string, limits: Limits, opts?: AcquireOptions): Promise<string> {
  const got = await l.acquire(s, holder, limits, opts);
  if (typeof got === 'string') throw new Error(`acquire ${holder}: ${got}`);
  return got.holder;
}

describe('Limiter', () => {
  it('never lets more than `concurrency` holders in at once, across connections', async () => {
    const s = scope();
    const limits = { concurrency: 3, requestsPerMinute: null, leaseMs: 10_000 };
    let inFlight = 0;
    let peak = 0;
    let full!: () => void;
    const filled = new Promise<void>((resolve) => (full = resolve));
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const l = limiters[i % 2];
        const holder = await hold(l, s, `h${i}`, limits);
        inFlight++;
        peak = Math.max(peak, inFlight);
        if (inFlight === limits.concurrency) full();
        await filled; // the first holders keep their slots until all three are taken
        await new Promise(setImmediate);
        inFlight--;
        await l.release(s, holder, 'ok', limits);
      }),
    );
    expect(peak).toBe(3);
    expect((await limiters[0].window(s)).inFlight).toBe(0); // every slot given back, handed over or not
  });

  it('tells each refused waiter its place in the queue: only those near the head ask again quickly', async () => {
    const s = scope();
    const l = limiters[0];
    const limits = { concurrency: 1, requestsPerMinute: null, leaseMs: 10_000 };
    const only = await hold(l, s, 'only', limits);
    const n = HEAD_WAITERS + 4;
    const seen: { ahead: number; napMs: number }[] = [];
    const waiting: Promise<string>[] = [];
    for (let i = 0; i < n; i++) {
      // one at a time, so that Redis queues them in this order (names padded: waiters that first asked in
      // the same millisecond are ordered by name)
      const name = `w${String(i).padStart(2, '0')}`;
      const first = l.nextWait(s, name);
      waiting.push(hold(l, s, name, limits));
      seen.push(await first);
    }
    expect(seen.map((x) => x.ahead)).toEqual(Array.from({ length: n }, (_, i) => i));
    seen.forEach((x, i) => {
      if (i < HEAD_WAITERS)
        expect(x.napMs).toBeLessThan(2 * 2 * 2); // first refusal near the head: 2 ms + jitter
      else {
        expect(x.napMs).toBeGreaterThanOrEqual(FAR_POLL_MS);
        expect(x.napMs).toBeLessThan(FAR_POLL_MS * 1.5);
      }
    });
    // the slot still goes down the queue in order, to every waiter, near or far
    let holder = only;
    for (let i = 0; i < n; i++) {
      await l.release(s, holder, 'error', limits); // no handover: each waiter takes the slot from Redis
      holder = await waiting[i];
    }
    await l.release(s, holder, 'ok', limits);
    expect((await l.window(s)).inFlight).toBe(0);
  });

  it('polls quickly near the head of the queue and at a steady far rate behind it', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((i) => waitPoll(i, 0).ms)).toEqual([2, 4, 8, 16, 32, 50, 50]);
    expect(waitPoll(0, HEAD_WAITERS - 1)).toEqual({ ms: 2, jitter: 2 });
    for (const attempt of [0, 3, 20]) expect(waitPoll(attempt, HEAD_WAITERS)).toEqual({ ms: FAR_POLL_MS, jitter: FAR_POLL_MS / 2 });
  });

  it('hands a clean slot straight to a waiter of the same process; Redis still counts one holder', async () => {
    const s = scope();
    const l = limiters[0];
    const limits = { concurrency: 2, requestsPerMinute: null, leaseMs: 10_000 };
    await l.release(s, await hold(l, s, 'first', limits), 'ok', limits); // learns the window is whole
    const a = await hold(l, s, 'a', limits);
    const b = await hold(l, s, 'b', limits);
    const waiting = hold(l, s, 'c', limits);
    await l.nextWait(s, 'c'); // c has asked Redis, been refused, and waits
    await l.release(s, a, 'ok', limits);
    const c = await waiting;
    expect(c).toBe(a); // the slot itself, not a new one
    expect((await l.window(s)).inFlight).toBe(2);
    await l.release(s, b, 'ok', limits);
    await l.release(s, c, 'ok', limits);
    expect((await l.window(s)).inFlight).toBe(0);
  });

  it('does not hand over a slot whose answer was a 429: the cut window applies first', async () => {
    const s = scope();
    const l = limiters[0];
    const limits = { concurrency: 2, requestsPerMinute: null, leaseMs: 10_000 };
    await l.release(s, await hold(l, s, 'first', limits), 'ok', limits);
    const a = await hold(l, s, 'a', limits);
    const b = await hold(l, s, 'b', limits);
    let c: string | undefined;
    const waiting = hold(l, s, 'c', limits).then((h) => (c = h));
    await l.nextWait(s, 'c');
    expect(await l.release(s, a, 'throttled', limits)).toBe(1); // window 2 → 1, with b still holding
    // refused twice more: the second of those asks left after the cut was in force
    await l.nextWait(s, 'c');
    await l.nextWait(s, 'c');
    expect(c).toBeUndefined();
    await l.release(s, b, 'ok', limits);
    await waiting;
    expect(c).toBe('c'); // granted by Redis under its own id
    await l.release(s, 'c', 'ok', limits);
  });

  it('refuses a waiter whose run was halted, and hands it nothing', async () => {
    const s = scope();
    const l = limiters[0];
    const haltKey = `${s}:halt-test`;
    const redis = redisConnection();
    try {
      const limits = { concurrency: 1, requestsPerMinute: null, leaseMs: 10_000 };
      await l.release(s, await hold(l, s, 'first', limits), 'ok', limits);
      const a = await hold(l, s, 'a', limits);
      const waiting = l.acquire(s, 'w', limits, { haltKey });
      await l.nextWait(s, 'w');
      await redis.set(haltKey, '1', 'PX', 10_000);
      expect(await waiting).toBe('halted'); // at its next poll of Redis, within about 100 ms
      await l.release(s, a, 'ok', limits);
      expect((await l.window(s)).inFlight).toBe(0);
      expect(await l.acquire(s, 'x', limits, { haltKey })).toBe('halted');
    } finally {
      await redis.del(haltKey);
      redis.disconnect();
    }
  });

  it('hands no slot to a waiter of a run another waiter of this process has just seen halted', async () => {
    // w1 and w2 wait for the one slot of a run, which is then halted. Once w1 has been told, the slot released
    // must not be handed to w2 on the strength of w2's last ask (fresh, but from before the halt). The case
    // that tells is w2 still napping when w1 is told; it comes up within a few rounds on a quiet machine, and
    // within some dozens on a loaded one (where the two often ask in the same call: both told at once), so the
    // rounds go on until it has come up three times (a round takes some milliseconds).
    const l = limiters[0];
    const redis = redisConnection();
    let told = 0;
    try {
      for (let round = 0; round < 500 && told < 3; round++) {
        const s = scope();
        const haltKey = `${s}:halt`;
        const limits = { concurrency: 1, requestsPerMinute: null, leaseMs: 10_000 };
        await l.release(s, await hold(l, s, 'first', limits), 'ok', limits); // learns the window is whole
        const a = await hold(l, s, 'a', limits);
        const asked = [l.nextWait(s, 'w1'), l.nextWait(s, 'w2')];
        let w2Done = false;
        const w1 = l.acquire(s, 'w1', limits, { haltKey });
        const w2 = l.acquire(s, 'w2', limits, { haltKey }).then((r) => ((w2Done = true), r));
        await Promise.all(asked);
        await redis.set(haltKey, '1', 'PX', 10_000);
        expect(await w1).toBe('halted');
        await new Promise(setImmediate); // an answer w2 got in the same call as w1 has been delivered by now
        if (!w2Done) told++;
        await l.release(s, a, 'ok', limits);
        expect(await w2).toBe('halted');
        expect((await l.window(s)).inFlight).toBe(0);
        await redis.del(haltKey);
      }
      expect(told).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });

  it('gives up at the deadline', async () => {
    const s = scope();
    const l = limiters[0];
    const limits = { concurrency: 1, requestsPerMinute: null, leaseMs: 10_000 };
    const a = await hold(l, s, 'a', limits);
    const t0 = Date.now();
    expect(await l.acquire(s, 'late', limits, { deadline: t0 + 200 })).toBe('timeout');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    await l.release(s, a, 'ok', limits);
  });

  it('hands over a limited number of times in a row, so another process gets its turn', async () => {
    const s = scope();
    const limits = { concurrency: 1, requestsPerMinute: null, leaseMs: 10_000 };
    const [busy, other] = limiters;
    await busy.release(s, await hold(busy, s, 'first', limits), 'ok', limits); // learns the window is whole
    const slot = await hold(busy, s, 'b0', limits);
    const others = hold(other, s, 'other', limits).then((h) => ['other', h] as const);
    await other.nextWait(s, 'other'); // queued in Redis before any of busy's next waiters
    let handovers = 0;
    let next: Promise<string> | undefined;
    let won: readonly ['busy' | 'other', string] | undefined;
    // each round: busy has a fresh waiter when it releases, so the slot could always stay in the process
    for (let i = 1; i <= HANDOVER_MAX + 1; i++) {
      next = hold(busy, s, `b${i}`, limits);
      await busy.nextWait(s, `b${i}`);
      await busy.release(s, slot, 'ok', limits);
      won = await Promise.race([next.then((h) => ['busy', h] as const), others]);
      if (won[0] === 'other') break;
      expect(won[1]).toBe(slot); // handed over: the slot itself
      handovers++;
    }
    expect(won?.[0]).toBe('other');
    expect(handovers).toBe(HANDOVER_MAX);
    await other.release(s, won![1], 'ok', limits);
    await busy.release(s, await next!, 'ok', limits);
    expect((await busy.window(s)).inFlight).toBe(0);
  });

  it('halves the window on a 429 (at most once a second) and climbs back on clean answers (AIMD)', async () => {
    const s = scope();
    const limits = { concurrency: 8, requestsPerMinute: null, leaseMs: 10_000 };
    const l = limiters[0];
    await l.acquire(s, 'a', limits);
    expect(await l.release(s, 'a', 'throttled', limits)).toBe(4);
    await l.acquire(s, 'b', limits);
    expect(await l.release(s, 'b', 'throttled', limits)).toBe(4); // a burst of 429s counts once
    let w = 4;
    for (let i = 0; i < 8; i++) {
      w = await l.release(s, await hold(l, s, `c${i}`, limits), 'ok', limits);
    }
    expect(w).toBeGreaterThan(5);
    expect(w).toBeLessThanOrEqual(8);
    const { cwnd } = await l.window(s);
    expect(cwnd).toBe(w);
  });

  it('keeps a window only while it recovers: a narrow run does not narrow the next, wider one', async () => {
    const s = scope();
    const l = limiters[0];
    const narrow = { concurrency: 2, requestsPerMinute: null, leaseMs: 10_000 };
    for (let i = 0; i < 4; i++) {
      await l.acquire(s, `n${i}`, narrow);
      expect(await l.release(s, `n${i}`, 'ok', narrow)).toBe(2);
    }
    const wide = { concurrency: 6, requestsPerMinute: null, leaseMs: 10_000 };
    await Promise.all(Array.from({ length: 6 }, (_, i) => l.acquire(s, `w${i}`, wide))); // all six at once
    expect((await l.window(s)).inFlight).toBe(6);
    expect(await l.release(s, 'w0', 'throttled', wide)).toBe(3);
    expect((await l.window(s)).cwnd).toBe(3);
    let w = 3;
    for (let i = 1; i < 6; i++) w = await l.release(s, `w${i}`, 'ok', wide);
    for (let i = 0; w < 6 && i < 20; i++) {
      await l.acquire(s, `r${i}`, wide);
      w = await l.release(s, `r${i}`, 'ok', wide);
    }
    expect(w).toBe(6); // recovered to where it was cut from: the window is dropped
    expect((await l.window(s)).cwnd).toBeNull();
  });

  it('holds requests per minute to the token bucket', async () => {
    const s = scope();
    const limits = { concurrency: 100, requestsPerMinute: 120, leaseMs: 10_000 }; // 2/s, burst 2
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) {
      await limiters[i % 2].acquire(s, `r${i}`, limits);
      await limiters[i % 2].release(s, `r${i}`, 'ok', limits);
    }
    // 2 at once, then one every 500 ms
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1300);
  });

  it("frees a dead holder's slot when its lease ends", async () => {
    const s = scope();
    const limits = { concurrency: 1, requestsPerMinute: null, leaseMs: 300 };
    await limiters[0].acquire(s, 'dies', limits); // never released
    const t0 = Date.now();
    await limiters[1].acquire(s, 'next', { ...limits, leaseMs: 10_000 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    await limiters[1].release(s, 'next', 'ok', limits);
  });
});
