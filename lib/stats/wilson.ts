/** A binomial proportion with its confidence interval; all three values lie in [0, 1]. */
export interface Interval {
  low: number;
  high: number;
  /** The point estimate k/n. */
  estimate: number;
}

/** z for a two-sided 95% interval (docs/design.md#the-statistics-it-relies-on). */
export const Z_95 = 1.96;

/**
 * Wilson score interval for k successes in n trials (docs/design.md#the-statistics-it-relies-on: every `k/n` is shown with one).
 *
 * n = 0 returns `null`: with no trials there is no estimate, and the UI shows "—" rather than a
 * made-up [0, 1]. Throws a RangeError unless 0 ≤ k ≤ n are integers and z > 0.
 */
export function wilson(k: number, n: number, z: number = Z_95): Interval | null {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`wilson: n must be a non-negative integer (got ${n})`);
  if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`wilson: k must be an integer in [0, n] (got ${k}/${n})`);
  if (!(z > 0) || !Number.isFinite(z)) throw new RangeError(`wilson: z must be a positive number (got ${z})`);
  if (n === 0) return null;
  const p = k / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return {
    // The bounds are exactly 0 and 1 at the edges; rounding would otherwise give ±1e-17.
    low: k === 0 ? 0 : clamp01(center - half),
    high: k === n ? 1 : clamp01(center + half),
    estimate: p,
  };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
