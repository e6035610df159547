import quantile from '@stdlib/stats-base-dists-normal-quantile';

// Power before spending (docs/design.md#the-statistics-it-relies-on; docs/statistics.md "Power, noise floor, cost"). A paired binary comparison is decided
// by its discordant pairs: with p₁₀ the share of pairs that improved (baseline failed, treatment passed)
// and p₀₁ the share that regressed, ψ = p₁₀ + p₀₁ is the discordant share and δ = p₁₀ − p₀₁ the difference.
// Connor (1987) gives the pairs a two-sided test at α needs to detect δ with power 1 − β:
//
//   n = [z₁₋α/₂·√ψ + z₁₋β·√(ψ − δ²)]² / δ²
//
// Pairs of one case (its orders and replicates) are correlated, so the n is multiplied by the design effect
// 1 + (m − 1)·ICC, m pairs per case and ICC the intraclass correlation of the pair differences within a case.
// The minimum detectable difference of a planned run is the inverse: the smallest δ whose n fits in it.

/** The standard normal quantile. */
export function zQuantile(p: number): number {
  return quantile(p, 0, 1);
}

export interface PowerTarget {
  /** The difference to detect, as a share (0.1 = 10 points). */
  delta: number;
  /** The discordant share ψ = p₁₀ + p₀₁. */
  psi: number;
  /** Two-sided significance level (default 0.05). */
  alpha?: number;
  /** Power 1 − β (default 0.8). */
  power?: number;
}

/** Why Connor's formula has no answer for these inputs (null when it has one). */
export function connorReason(t: PowerTarget): string | null {
  const { delta, psi, alpha = 0.05, power = 0.8 } = t;
  if (!(alpha > 0 && alpha < 1)) return `alpha must be in (0, 1), got ${alpha}`;
  if (!(power > 0 && power < 1)) return `power must be in (0, 1), got ${power}`;
  if (!(psi > 0 && psi <= 1)) return psi === 0 ? 'no discordant pairs: the discordant share ψ is 0' : `the discordant share ψ must be in (0, 1], got ${psi}`;
  if (!(delta > 0)) return `delta must be above 0, got ${delta}`;
  if (delta > psi) return `delta ${delta} cannot exceed the discordant share ψ = ${psi} (|p₁₀ − p₀₁| ≤ p₁₀ + p₀₁)`;
  return null;
}

/** Connor's n, unrounded (pairs without the design effect); throws RangeError naming the input when there is none. */
export function connorPairs(t: PowerTarget): number {
  const reason = connorReason(t);
  if (reason) throw new RangeError(reason);
  const { delta, psi, alpha = 0.05, power = 0.8 } = t;
  const za = zQuantile(1 - alpha / 2);
  const zb = zQuantile(power);
  return (za * Math.sqrt(psi) + zb * Math.sqrt(psi - delta * delta)) ** 2 / (delta * delta);
}

/** 1 + (m − 1)·ICC, with a negative ICC taken as 0 (the design effect of independent pairs is 1, never below). */
export function designEffect(pairsPerCluster: number, icc: number | null): number {
  if (icc === null || !(pairsPerCluster > 1)) return 1;
  return 1 + (pairsPerCluster - 1) * Math.max(0, icc);
}

/**
 * The one-way ANOVA estimator of the intraclass correlation of values grouped in clusters:
 * ICC = (MSB − MSW) / (MSB + (m₀ − 1)·MSW), m₀ = (N − Σn_g²/N) / (G − 1). Null with fewer than two clusters,
 * no replication within clusters, or no variance at all. Can be negative (less agreement within a cluster
 * than between clusters).
 */
export function anovaIcc(clusters: readonly (readonly number[])[]): number | null {
  const groups = clusters.filter((g) => g.length > 0);
  const G = groups.length;
  const N = groups.reduce((a, g) => a + g.length, 0);
  if (G < 2 || N - G < 1) return null;
  const mean = groups.reduce((a, g) => a + g.reduce((x, y) => x + y, 0), 0) / N;
  let ssb = 0;
  let ssw = 0;
  for (const g of groups) {
    const m = g.reduce((x, y) => x + y, 0) / g.length;
    ssb += g.length * (m - mean) ** 2;
    for (const y of g) ssw += (y - m) ** 2;
  }
  const msb = ssb / (G - 1);
  const msw = ssw / (N - G);
  const m0 = (N - groups.reduce((a, g) => a + g.length ** 2, 0) / N) / (G - 1);
  const denom = msb + (m0 - 1) * msw;
  if (!(denom > 0)) return null;
  return (msb - msw) / denom;
}

export interface PairsNeeded {
  /** Connor's n rounded up: pairs if every pair were independent. */
  pairsNeeded: number;
  /** The design effect 1 + (m − 1)·ICC applied. */
  designEffect: number;
  /** ⌈n · design effect⌉: the pairs to send. */
  pairsNeededWithDesignEffect: number;
}

/** Pairs needed, before and after the design effect. */
export function pairsNeeded(t: PowerTarget, pairsPerCluster = 1, icc: number | null = null): PairsNeeded {
  const n = connorPairs(t);
  const de = designEffect(pairsPerCluster, icc);
  // rounded to 9 places before the ceiling, so 233.0000000001 from floating point is not 234
  const up = (x: number) => Math.ceil(Math.round(x * 1e9) / 1e9);
  return { pairsNeeded: up(n), designEffect: de, pairsNeededWithDesignEffect: up(n * de) };
}

/**
 * The minimum detectable difference of a run of `pairs` pairs: the smallest δ in (0, ψ] whose Connor n times the
 * design effect is at most `pairs` (bisection; n falls as δ grows). Null when even δ = ψ needs more pairs.
 */
export function minimumDetectableDifference(
  pairs: number,
  psi: number,
  opts: { alpha?: number; power?: number; pairsPerCluster?: number; icc?: number | null } = {},
): number | null {
  const { alpha = 0.05, power = 0.8, pairsPerCluster = 1, icc = null } = opts;
  if (!(pairs > 0) || !(psi > 0 && psi <= 1)) return null;
  const effective = pairs / designEffect(pairsPerCluster, icc);
  const need = (delta: number) => connorPairs({ delta, psi, alpha, power });
  if (need(psi) > effective) return null;
  let lo = 0;
  let hi = psi;
  for (let i = 0; i < 100 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (mid > 0 && need(mid) <= effective) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** What a pilot's pairs tell the planner: its discordant share, its difference and the clustering of its pairs. */
export interface PilotPairs {
  /** Complete pairs. */
  pairs: number;
  improved: number;
  regressed: number;
  /** Clusters (cases) with at least one complete pair. */
  clusters: number;
  /** Mean complete pairs per cluster (m). */
  pairsPerCluster: number;
  /** ICC of the per-pair differences (−1, 0, +1) within a case; null when it cannot be estimated. */
  icc: number | null;
  /** ψ = (improved + regressed) / pairs; null without pairs. */
  psi: number | null;
  /** δ = (improved − regressed) / pairs; null without pairs. */
  delta: number | null;
}

/** One cluster's complete pairs, by outcome. */
export interface PairClusterCounts {
  improved: number;
  regressed: number;
  same: number;
}

/** A pilot's ψ, δ, m and ICC from its pairs counted per cluster. */
export function pilotPairs(clusters: readonly PairClusterCounts[]): PilotPairs {
  const used = clusters.filter((c) => c.improved + c.regressed + c.same > 0);
  const improved = used.reduce((a, c) => a + c.improved, 0);
  const regressed = used.reduce((a, c) => a + c.regressed, 0);
  const pairs = used.reduce((a, c) => a + c.improved + c.regressed + c.same, 0);
  const values = used.map((c) => [...Array<number>(c.improved).fill(1), ...Array<number>(c.regressed).fill(-1), ...Array<number>(c.same).fill(0)]);
  return {
    pairs,
    improved,
    regressed,
    clusters: used.length,
    pairsPerCluster: used.length > 0 ? pairs / used.length : 0,
    icc: anovaIcc(values),
    psi: pairs > 0 ? (improved + regressed) / pairs : null,
    delta: pairs > 0 ? (improved - regressed) / pairs : null,
  };
}
