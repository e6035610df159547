import { pairedDifference } from '../stats/clustered';
import { mcnemarExact } from '../stats/mcnemar';
import { formatP, plural, pts } from './format';
import { pilotPairs, type PairClusterCounts } from './power';
import { DEFAULT_ALPHA, DEFAULT_POWER, planPower } from './power-plan';

// A paired comparison read in words (docs/statistics.md, "Reading a comparison"): one function turns the
// numbers every comparison already has — b improved and c regressed pairs, the paired difference with its
// cluster-robust (CR1) interval, McNemar's exact p, pairs and clusters, the clustering of the pairs — into one
// of four readings, and says how many pairs a design like this one would need to detect the observed (or a
// chosen) difference, with the run itself as the pilot (Connor's formula times the design effect, as
// `tclab plan --pilot` computes it in ./power-plan.ts).

export type Verdict = 'improved' | 'worse' | 'not-shown' | 'too-few';

/** The vocabulary, as every page prints it. */
export const VERDICT_LABELS: Record<Verdict, string> = {
  improved: 'improved',
  worse: 'worse',
  'not-shown': 'not shown',
  'too-few': 'too few pairs to tell',
};

/** The numbers of one paired comparison (treatment against baseline, or one run against another). */
export interface PairedNumbers {
  /** Complete pairs (both sides decided). */
  pairs: number;
  /** b: the treatment passed where the baseline failed. */
  improved: number;
  /** c: the baseline passed where the treatment failed. */
  regressed: number;
  /** Clusters (cases) with at least one complete pair. */
  clusters: number;
  /** The paired difference treatment − baseline, (b − c) / pairs; null without pairs. */
  estimate: number | null;
  /** Its 95% CR1 interval over the clusters; null where there is nothing to estimate one from. */
  ci95: readonly [number, number] | null;
  /** McNemar's exact two-sided p on b and c; null when not computed (then the interval decides alone). */
  p: number | null;
  /** The intraclass correlation of the per-pair differences within a cluster; null or absent: unknown (design effect 1). */
  icc?: number | null;
}

export interface ReadingOptions {
  /** Two-sided significance level (default 0.05). */
  alpha?: number;
  /** Power of the pairs-needed figure (default 0.8). */
  power?: number;
  /** The difference to plan for, a share (0.05 = 5 points); default: the observed difference. */
  delta?: number | null;
  /** What a cluster is, singular (default "case"). */
  cluster?: string;
}

/** The pairs a design like this one needs, with the compared run as the pilot. */
export interface ReadingPower {
  /** The difference planned for (positive share), and whether it is the observed one or a chosen one. */
  delta: number | null;
  deltaSource: 'observed' | 'chosen';
  alpha: number;
  power: number;
  /** ψ = (b + c) / pairs, the pilot's discordant share. */
  psi: number | null;
  /** Mean pairs per cluster (m), the ICC and the design effect 1 + (m − 1)·ICC. */
  pairsPerCluster: number;
  icc: number | null;
  designEffect: number;
  /** ⌈Connor's n · design effect⌉; null when there is no answer (`reason`). */
  pairsNeeded: number | null;
  /** pairsNeeded − pairs when above 0, else 0; null with pairsNeeded. */
  morePairs: number | null;
  /** The smallest difference this many pairs detect at this power (design effect included); null when none. */
  minimumDetectable: number | null;
  /** Why pairsNeeded is null. */
  reason: string | null;
}

export interface Reading {
  verdict: Verdict;
  /** VERDICT_LABELS[verdict]. */
  label: string;
  /** Why, in one clause: "the interval includes zero", "1 case: …". */
  why: string;
  /** The numbers read, in one line: "+6.3 pts [−8.1 pts, +20.6 pts], McNemar p = 0.453, 48 pairs in 12 cases". */
  numbers: string;
  /** The pairs needed, in one clause ("about 412 pairs (364 more) would detect +6.3 pts at 80% power"), or why not. */
  pairsText: string;
  /** label — why; numbers; pairsText. */
  text: string;
  /** The sign test over clusters used when every cluster moved the same way and there is no interval; null otherwise. */
  clusterSignP: number | null;
  power: ReadingPower;
}

function check(n: PairedNumbers): void {
  const ints: [string, number][] = [
    ['pairs', n.pairs],
    ['improved', n.improved],
    ['regressed', n.regressed],
    ['clusters', n.clusters],
  ];
  for (const [k, v] of ints) if (!Number.isInteger(v) || v < 0) throw new RangeError(`reading: ${k} must be a non-negative integer (got ${v})`);
  if (n.improved + n.regressed > n.pairs) throw new RangeError(`reading: improved + regressed (${n.improved} + ${n.regressed}) exceeds pairs (${n.pairs})`);
  if (n.clusters > n.pairs) throw new RangeError(`reading: clusters (${n.clusters}) exceeds pairs (${n.pairs})`);
  if (n.p !== null && !(n.p >= 0 && n.p <= 1)) throw new RangeError(`reading: p must be in [0, 1] (got ${n.p})`);
  if (n.ci95 && !(n.ci95[0] <= n.ci95[1])) throw new RangeError(`reading: ci95 must be [low, high] with low ≤ high (got [${n.ci95[0]}, ${n.ci95[1]}])`);
}

function powerOf(n: PairedNumbers, alpha: number, power: number, chosen: number | null | undefined): ReadingPower {
  const psi = n.pairs > 0 ? (n.improved + n.regressed) / n.pairs : null;
  const pairsPerCluster = n.clusters > 0 ? n.pairs / n.clusters : 0;
  const icc = n.icc ?? null;
  const observed = n.pairs > 0 ? Math.abs(n.improved - n.regressed) / n.pairs : null;
  const chosenDelta = chosen !== null && chosen !== undefined ? Math.abs(chosen) : null;
  const delta = chosenDelta ?? observed;
  const deltaSource = chosenDelta !== null ? 'chosen' : 'observed';
  const base = { delta, deltaSource, alpha, power, psi, pairsPerCluster, icc } as const;
  if (psi === null) return { ...base, designEffect: 1, pairsNeeded: null, morePairs: null, minimumDetectable: null, reason: 'no complete pairs: nothing to plan from' };
  const plan = planPower({ psi, delta: delta ?? 0, alpha, power, icc, pairsPerCluster }, n.pairs);
  let reason = plan.reason;
  if (psi === 0) reason = 'no pair changed in this run: its discordant share is 0, nothing to plan from';
  else if (delta === 0) reason = 'no difference observed: choose a difference to plan for';
  else if (reason && delta !== null && delta > psi)
    reason = `${pts(delta)} is more than this run's discordant share (${(100 * psi).toFixed(1)}% of pairs changed): no number of such pairs detects it`;
  const need = plan.pairsNeededWithDesignEffect;
  return {
    ...base,
    designEffect: plan.designEffect,
    pairsNeeded: need,
    morePairs: need === null ? null : Math.max(0, need - n.pairs),
    minimumDetectable: plan.minimumDetectable,
    reason: need === null ? reason : null,
  };
}

function pairsSentence(p: ReadingPower, pairs: number): string {
  if (p.pairsNeeded === null || p.delta === null) return `pairs needed: — (${p.reason ?? 'no answer'})`;
  const more = p.morePairs && p.morePairs > 0 ? ` (${p.morePairs} more than these ${pairs})` : ` (these ${pairs} are enough)`;
  const de = p.designEffect > 1 ? `, design effect ${p.designEffect.toFixed(2)}` : '';
  return `about ${plural(p.pairsNeeded, 'pair')}${more} would detect a difference of ${(100 * p.delta).toFixed(1)} pts at ${Math.round(100 * p.power)}% power (this run as the pilot${de})`;
}

/**
 * The reading of a paired comparison. The rule (docs/statistics.md, "Reading a comparison"):
 * - no pairs, or one cluster: *too few pairs to tell* (a clustered interval needs two or more clusters);
 * - an interval: *improved* / *worse* when it excludes zero on that side and McNemar's p (when given) is below α;
 *   otherwise *not shown* — the interval includes zero, or McNemar's p is not below α;
 * - no interval because every cluster has the same mean: no pair changed, or as many improved as regressed
 *   in each → *not shown*; every cluster moved the same way → the exact sign test over the G clusters
 *   (p = 2·½^G) stands in for the interval: *improved* / *worse* when it and McNemar's p are below α,
 *   else *too few pairs to tell*.
 */
export function readComparison(n: PairedNumbers, opts: ReadingOptions = {}): Reading {
  check(n);
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const powerLevel = opts.power ?? DEFAULT_POWER;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`reading: alpha must be in (0, 1) (got ${alpha})`);
  if (!(powerLevel > 0 && powerLevel < 1)) throw new RangeError(`reading: power must be in (0, 1) (got ${powerLevel})`);
  if (opts.delta !== null && opts.delta !== undefined && !(Math.abs(opts.delta) > 0 && Math.abs(opts.delta) <= 1))
    throw new RangeError(`reading: delta must be a share in (0, 1] (got ${opts.delta})`);
  const power = powerOf(n, alpha, powerLevel, opts.delta);
  const pText = n.p === null ? null : `McNemar p = ${formatP(n.p)}`;
  const est = n.estimate;
  const unit = opts.cluster ?? 'case';
  const numbers = [
    est === null ? 'no difference' : `${pts(est)} ${n.ci95 ? `[${pts(n.ci95[0])}, ${pts(n.ci95[1])}]` : '(no interval)'}`,
    pText,
    `${plural(n.pairs, 'pair')} in ${plural(n.clusters, unit)}`,
    `${n.improved} improved, ${n.regressed} regressed`,
  ]
    .filter(Boolean)
    .join(', ');

  const { verdict, why, clusterSignP } = readVerdict(n, { alpha, cluster: unit });
  const label = VERDICT_LABELS[verdict];
  const pairsText = pairsSentence(power, n.pairs);
  return { verdict, label, why, numbers, pairsText, text: `${label} — ${why}; ${numbers}; ${pairsText}`, clusterSignP, power };
}

/** The verdict alone (no pairs needed): what readComparison says, and why — for callers that read many numbers. */
export function readVerdict(n: PairedNumbers, opts: { alpha?: number; cluster?: string } = {}): { verdict: Verdict; why: string; clusterSignP: number | null } {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const unit = opts.cluster ?? 'case';
  const pSig = n.p === null || n.p < alpha;
  const est = n.estimate;
  let verdict: Verdict;
  let why: string;
  let clusterSignP: number | null = null;
  if (n.pairs === 0 || est === null) {
    verdict = 'too-few';
    why = 'no complete pairs';
  } else if (n.clusters < 2) {
    verdict = 'too-few';
    why = `${plural(n.clusters, unit)}: a clustered interval needs two or more`;
  } else if (n.ci95) {
    const [lo, hi] = n.ci95;
    if (lo > 0 && est > 0 && pSig) {
      verdict = 'improved';
      why = 'the interval is above zero';
    } else if (hi < 0 && est < 0 && pSig) {
      verdict = 'worse';
      why = 'the interval is below zero';
    } else if (lo <= 0 && hi >= 0) {
      verdict = 'not-shown';
      why =
        n.p !== null && n.p < alpha
          ? `the interval includes zero (McNemar's p counts the ${n.pairs} pairs as independent; the clustered interval does not)`
          : 'the interval includes zero';
    } else {
      verdict = 'not-shown';
      why = pSig ? 'the difference and its interval point different ways' : `McNemar's p = ${formatP(n.p)} is not below ${alpha}`;
    }
  } else if (n.improved + n.regressed === 0) {
    verdict = 'not-shown';
    why = 'no pair changed';
  } else if (n.improved === n.regressed) {
    verdict = 'not-shown';
    why = 'as many pairs improved as regressed';
  } else {
    // No interval although pairs changed: every cluster has the same mean, so every cluster moved the same way.
    clusterSignP = mcnemarExact(n.clusters, 0);
    const direction = est > 0 ? 'improved' : 'worse';
    const moved = `every one of the ${plural(n.clusters, unit)} moved the same way (sign test over ${unit}s p = ${formatP(clusterSignP)})`;
    if (clusterSignP < alpha && pSig) {
      verdict = direction;
      why = moved;
    } else {
      verdict = 'too-few';
      why = clusterSignP < alpha ? `${moved}, but McNemar's p = ${formatP(n.p)} is not below ${alpha}` : `${moved}: too few ${unit}s to show it`;
    }
  }
  return { verdict, why, clusterSignP };
}

/** The numbers of a paired comparison from its pairs counted per cluster (CR1 difference, McNemar exact p, ICC). */
export function pairedNumbers(clusters: readonly PairClusterCounts[]): PairedNumbers {
  const pilot = pilotPairs(clusters);
  const d = pairedDifference(clusters.map((c) => ({ pairs: c.improved + c.regressed + c.same, improved: c.improved, regressed: c.regressed })));
  return {
    pairs: pilot.pairs,
    improved: pilot.improved,
    regressed: pilot.regressed,
    clusters: pilot.clusters,
    estimate: d.estimate,
    ci95: d.ci95,
    p: pilot.pairs > 0 ? mcnemarExact(pilot.improved, pilot.regressed) : null,
    icc: pilot.icc,
  };
}
