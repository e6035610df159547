import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Limiter } from './limiter';
import { redisConnection } from './connection';

// The limiter against real Redis: limits hold across separate connections (as across worker processes).

const limiters = [new Limiter(redisConnection()), new Limiter(redisConnection())];
afterAll(() => limiters.forEach((l) => l.close()));
const scope = () => `test:${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('Limiter', () => {
  it('never lets more than `concurrency` holders in at once, across connections', async () => {
    const s = scope();
    const limits = { concurrency: 3, requestsPerMinute: null, leaseMs: 10_000 };
    let inFlight = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const l = limiters[i % 2];
        const holder = `h${i}`;
        await l.acquire(s, holder, limits);
        inFlight++;
        peak = Math.max(peak, inFlight);
        await sleep(20);
        inFlight--;
        await l.release(s, holder, 'ok', limits);
      }),
    );
    expect(peak).toBe(3);
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
      await l.acquire(s, `c${i}`, limits);
      w = await l.release(s, `c${i}`, 'ok', limits);
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
