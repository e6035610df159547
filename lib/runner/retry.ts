/**
 * Exponential backoff with jitter ("equal jitter": half fixed, half random), never shorter than the
 * server's Retry-After. Pure, so tests can pin the random source.
 */
export function retryDelayMs(attemptN: number, retryAfterMs: number | null | undefined, baseMs: number, capMs = 60_000, random = Math.random): number {
  const expo = Math.min(capMs, baseMs * 2 ** Math.max(0, attemptN - 1));
  const jittered = expo / 2 + (expo / 2) * random();
  return Math.round(Math.max(retryAfterMs ?? 0, jittered));
}
