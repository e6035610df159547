import chisquareCdf from '@stdlib/stats-base-dists-chisquare-cdf';

// Corrections for many claims and the test that several estimates differ (docs/optimise.md).

/**
 * Holm's step-down adjusted p-values (same order as given): p_(k) adjusted = max over j ≤ k of
 * min(1, (m − j + 1)·p_(j)). A hypothesis is rejected at level α exactly when its adjusted p ≤ α, which is
 * what `holmRejected` (sequential.ts) decides. m counts every claim: each confirmed candidate at every look.
 */
export function holmAdjusted(ps: readonly number[]): number[] {
  for (const p of ps) if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjusted: a p-value must be in [0, 1] (got ${p})`);
  const m = ps.length;
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const out = ps.map(() => 1);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    out[i] = running;
  });
  return out;
}

export interface Heterogeneity {
  /** Cochran's Q = Σ w_i (d_i − d̄)², w_i = 1 / SE_i², d̄ the inverse-variance weighted mean. */
  q: number;
  /** k − 1: the degrees of freedom of Q's χ² reference. */
  df: number;
  /** P(χ²(k − 1) ≥ Q). */
  p: number;
  /** I² = max(0, (Q − df) / Q): the share of the spread beyond chance (0 when Q = 0). */
  i2: number;
  /** The inverse-variance weighted mean of the estimates (fixed effect). */
  pooled: number;
  /** Estimates used (a finite estimate with SE > 0). */
  k: number;
}

/**
 * Cochran's Q and I² over per-model estimates with their standard errors. Estimates without a positive,
 * finite SE carry no weight and are left out (`k` says how many counted); null when fewer than two count.
 */
export function cochranQ(estimates: readonly { estimate: number; se: number }[]): Heterogeneity | null {
  const used = estimates.filter((e) => Number.isFinite(e.estimate) && Number.isFinite(e.se) && e.se > 0);
  if (used.length < 2) return null;
  const w = used.map((e) => 1 / (e.se * e.se));
  const sw = w.reduce((a, b) => a + b, 0);
  const pooled = used.reduce((a, e, i) => a + w[i] * e.estimate, 0) / sw;
  const q = used.reduce((a, e, i) => a + w[i] * (e.estimate - pooled) ** 2, 0);
  const df = used.length - 1;
  return { q, df, p: 1 - chisquareCdf(q, df), i2: q > 0 ? Math.max(0, (q - df) / q) : 0, pooled, k: used.length };
}
