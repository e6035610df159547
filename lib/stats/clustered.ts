import { t95 } from './t-dist';

/**
 * Cluster-robust statistics (docs/design.md#the-statistics-it-relies-on; Miller, "Adding Error Bars to Evals", 2024). Trials of one cluster
 * — by default one case's candidate orders and replicates — are not independent draws, so their standard
 * error is the CR1 sandwich:
 *
 *   SE = sqrt( G/(G−1) · Σ_g (Σ_{i∈g} (y_i − ȳ))² ) / n
 *
 * with G clusters and n observations, and the 95% interval is ȳ ± t_{0.975, G−1} · SE. Everything needs
 * only per-cluster sums and sizes (Σ_{i∈g} (y_i − ȳ) = s_g − n_g ȳ), which is what the SQL aggregation
 * returns: never the trials themselves.
 */

/** One cluster's observations, summed: `sum` = Σ y_i, `n` = how many. */
export interface ClusterSum {
  sum: number;
  n: number;
}

export interface ClusteredEstimate {
  /** ȳ; null without observations. */
  estimate: number | null;
  /** CR1 standard error; null with fewer than two clusters (G − 1 = 0: nothing to estimate it from). */
  se: number | null;
  /**
   * ȳ ± t_{0.975, G−1} · SE, clipped to the range the quantity can take; null where there is nothing to
   * estimate an interval from (no observations, one cluster, or no variance between clusters: SE 0 would
   * give a zero-width interval that claims certainty the data do not have). `ciReason` says which.
   */
  ci95: [number, number] | null;
  /** Why `ci95` is null (docs/design.md#the-statistics-it-relies-on: "—" and the reason); null when there is an interval. */
  ciReason: string | null;
  /** Clusters with at least one observation (G). */
  clusters: number;
  /** Degrees of freedom of the t interval: G − 1 (0 with one cluster). */
  df: number;
  /** Observations (n). */
  n: number;
}

export interface ClusteredProportion extends ClusteredEstimate {
  /**
   * The design effect: the CR1 variance over the variance of n independent draws, SE² / (p(1 − p)/n).
   * About 1 when clusters do not matter, larger when trials of a cluster agree with each other; null when
   * either variance is 0 or unknown (one cluster, p = 0 or 1).
   */
  designEffect: number | null;
}

/** Below this a CR1 SE is 0 up to rounding: every cluster has the same mean. */
const NO_VARIANCE = 1e-12;

/**
 * Why a clustered interval cannot be estimated from these numbers, or null when it can: the single rule
 * (docs/design.md#the-statistics-it-relies-on: ≥ 2 clusters with variance) that the statistics apply and the pages explain with.
 */
export function clusteredIntervalReason(e: { n: number; clusters: number; se: number | null }): string | null {
  if (e.n === 0) return 'no observations';
  if (e.clusters < 2) return `${e.clusters} cluster: a cluster-robust interval needs two or more`;
  if (e.se === null || e.se < NO_VARIANCE) return 'no variance between clusters (every cluster has the same rate): nothing to estimate an interval from';
  return null;
}

function check(clusters: readonly ClusterSum[]): void {
  for (const c of clusters) {
    if (!Number.isInteger(c.n) || c.n < 0) throw new RangeError(`cluster size must be a non-negative integer (got ${c.n})`);
    if (!Number.isFinite(c.sum)) throw new RangeError(`cluster sum must be finite (got ${c.sum})`);
  }
}

/** The CR1 mean and interval of clustered observations; the interval is clipped to [lo, hi]. */
export function clusteredMean(clusters: readonly ClusterSum[], range: readonly [number, number] = [-Infinity, Infinity]): ClusteredEstimate {
  check(clusters);
  const used = clusters.filter((c) => c.n > 0);
  const G = used.length;
  let n = 0;
  let total = 0;
  for (const c of used) {
    n += c.n;
    total += c.sum;
  }
  const df = Math.max(0, G - 1);
  if (n === 0) return { estimate: null, se: null, ci95: null, ciReason: clusteredIntervalReason({ n, clusters: 0, se: null }), clusters: 0, df: 0, n: 0 };
  const mean = total / n;
  if (G < 2) return { estimate: mean, se: null, ci95: null, ciReason: clusteredIntervalReason({ n, clusters: G, se: null }), clusters: G, df, n };
  let ss = 0;
  for (const c of used) {
    const r = c.sum - c.n * mean;
    ss += r * r;
  }
  const se = Math.sqrt((G / (G - 1)) * ss) / n;
  const ciReason = clusteredIntervalReason({ n, clusters: G, se });
  if (ciReason) return { estimate: mean, se, ci95: null, ciReason, clusters: G, df, n };
  const half = t95(df) * se;
  const clip = (x: number) => Math.min(range[1], Math.max(range[0], x));
  return { estimate: mean, se, ci95: [clip(mean - half), clip(mean + half)], ciReason: null, clusters: G, df, n };
}

/**
 * A pass rate with its CR1 standard error, t interval on G − 1 df (clipped to [0, 1]) and design effect.
 * `clusters[g]` = {sum: passed trials, n: decided trials} of cluster g.
 */
export function clusteredProportion(clusters: readonly ClusterSum[]): ClusteredProportion {
  for (const c of clusters)
    if (!Number.isInteger(c.sum) || c.sum < 0 || c.sum > c.n) throw new RangeError(`clusteredProportion: passed must be an integer in [0, n] (got ${c.sum}/${c.n})`);
  const e = clusteredMean(clusters, [0, 1]);
  let designEffect: number | null = null;
  if (e.se !== null && e.estimate !== null) {
    const iid = (e.estimate * (1 - e.estimate)) / e.n;
    if (iid > 0) designEffect = (e.se * e.se) / iid;
  }
  return { ...e, designEffect };
}

/** One cluster's complete pairs: how many, and how many improved (fail → pass) and regressed (pass → fail). */
export interface PairCluster {
  pairs: number;
  improved: number;
  regressed: number;
}

export interface PairedDifference {
  /** Treatment − baseline pass rate over complete pairs: (improved − regressed) / pairs; null without pairs. */
  estimate: number | null;
  se: number | null;
  ci95: [number, number] | null;
  /** Why `ci95` is null (see ClusteredEstimate); null when there is an interval. */
  ciReason: string | null;
  pairs: number;
  clusters: number;
  df: number;
}

/**
 * The paired difference treatment − baseline with its cluster-robust SE: the CR1 formula applied to the
 * per-pair differences d = y_treatment − y_baseline ∈ {−1, 0, 1}; a cluster's Σ d is improved − regressed.
 * The interval is clipped to [−1, 1].
 */
export function pairedDifference(clusters: readonly PairCluster[]): PairedDifference {
  for (const c of clusters)
    if (![c.pairs, c.improved, c.regressed].every((x) => Number.isInteger(x) && x >= 0) || c.improved + c.regressed > c.pairs)
      throw new RangeError(`pairedDifference: need integers with improved + regressed ≤ pairs (got ${c.improved} + ${c.regressed} of ${c.pairs})`);
  const e = clusteredMean(
    clusters.map((c) => ({ sum: c.improved - c.regressed, n: c.pairs })),
    [-1, 1],
  );
  return { estimate: e.estimate, se: e.se, ci95: e.ci95, ciReason: e.ciReason, pairs: e.n, clusters: e.clusters, df: e.df };
}
