import { logGamma } from './t-dist';

/**
 * Anytime-valid inference for paired binary outcomes (docs/design.md#the-statistics-it-relies-on; docs/statistics.md "Stopping
 * when decided"). A pair contributes X = pass(treatment) − pass(baseline) ∈ {−1, 0, +1}; the discordant ones
 * (X ≠ 0) are the improved (+1) and regressed (−1) pairs.
 *
 * - The e-value on the discordant pairs: under H₀ ("improved and regressed are equally likely") each
 *   discordant pair is improved with probability ½. The Beta(a, a) mixture of Bernoulli likelihood ratios
 *   against p = ½,  E = B(a + b, a + c) / (B(a, a) · ½^(b + c)),  is a test martingale under H₀ (E₀ = 1,
 *   concordant pairs leave it unchanged). Ville's inequality: P(∃t: E_t ≥ 1/α) ≤ α, however often it is
 *   looked at — so 1 / max_{s ≤ t} E_s is an anytime-valid p-value.
 * - The confidence sequence for the paired difference δ = E[X]: X ∈ [−1, 1] is sub-Gaussian with σ = 1
 *   (Hoeffding), and the two-sided normal-mixture boundary (Robbins; Howard et al. 2021, eq. 14 family)
 *   |S_t − tδ| < √((t + ρ) · ln((t + ρ) / (ρ α²))) holds for every t at once with probability ≥ 1 − α.
 */

/** log of the Beta function B(x, y). */
function logBeta(x: number, y: number): number {
  return logGamma(x) + logGamma(y) - logGamma(x + y);
}

/** ln E of b improved and c regressed pairs under a Beta(a, a) mixture (a > 0; default 1, the uniform prior). */
export function logBetaMixtureEValue(improved: number, regressed: number, a = 1): number {
  for (const [name, v] of [
    ['improved', improved],
    ['regressed', regressed],
  ] as const)
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`betaMixtureEValue: ${name} must be a non-negative integer (got ${v})`);
  if (!(a > 0)) throw new RangeError(`betaMixtureEValue: a must be positive (got ${a})`);
  return logBeta(a + improved, a + regressed) - logBeta(a, a) + (improved + regressed) * Math.LN2;
}

/** E = B(a + b, a + c) / (B(a, a) · ½^(b + c)): the Beta-mixture likelihood ratio against p = ½. */
export function betaMixtureEValue(improved: number, regressed: number, a = 1): number {
  return Math.exp(logBetaMixtureEValue(improved, regressed, a));
}

/** The normal-mixture radius on the sum after t observations (σ = 1): √((t + ρ) · ln((t + ρ) / (ρ α²))). */
export function normalMixtureRadius(t: number, rho: number, alpha: number): number {
  if (!(rho > 0)) throw new RangeError(`normalMixtureRadius: rho must be positive (got ${rho})`);
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`normalMixtureRadius: alpha must be in (0, 1) (got ${alpha})`);
  if (!(t >= 0)) throw new RangeError(`normalMixtureRadius: t must be ≥ 0 (got ${t})`);
  return Math.sqrt((t + rho) * Math.log((t + rho) / (rho * alpha * alpha)));
}

/**
 * The ρ that makes the normal-mixture radius per observation smallest at t₀ observations (fixed before the run
 * from the planned pairs, so validity is untouched): the root of ln((t₀ + ρ)/(ρα²)) = t₀/ρ, by bisection.
 */
export function mixtureRhoFor(t0: number, alpha: number): number {
  if (!(t0 >= 1)) throw new RangeError(`mixtureRhoFor: t0 must be ≥ 1 (got ${t0})`);
  const g = (rho: number) => Math.log((t0 + rho) / (rho * alpha * alpha)) - t0 / rho; // increasing in ρ
  let lo = 1e-9 * t0;
  let hi = 1e3 * t0;
  for (let i = 0; i < 200; i++) {
    const mid = Math.sqrt(lo * hi);
    if (g(mid) < 0) lo = mid;
    else hi = mid;
  }
  return Math.sqrt(lo * hi);
}

export interface SequenceInterval {
  lo: number;
  hi: number;
}

/** The confidence sequence for δ after t pairs whose X sum to `sum`: (sum ± radius) / t, within [−1, 1]; t = 0 → [−1, 1]. */
export function confidenceSequence(sum: number, t: number, rho: number, alpha: number): SequenceInterval {
  if (t === 0) return { lo: -1, hi: 1 };
  const r = normalMixtureRadius(t, rho, alpha);
  return { lo: Math.max(-1, (sum - r) / t), hi: Math.min(1, (sum + r) / t) };
}

/** Holm's step-down at level α: which of these p-values are rejected (same order as given). */
export function holmRejected(ps: readonly number[], alpha: number): boolean[] {
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const out = ps.map(() => false);
  for (const [k, [p, i]] of order.entries()) {
    if (p > alpha / (ps.length - k)) break;
    out[i] = true;
  }
  return out;
}

/** The stopping rule of a run: its level, the precision (a width of the confidence sequence, as a difference in [−1, 1] units) and ρ. */
export interface StopRule {
  alpha: number;
  /** stop once the confidence sequence is narrower than this (null: only the e-value stops) */
  precision: number | null;
  rho: number;
}

/** One comparison's outcomes in the stored (random) order, as far as every pair is complete; null: no formal result on one side. */
export interface SequentialStream {
  key: string;
  outcomes: readonly (-1 | 0 | 1 | null)[];
}

export type StopReason = 'e-value' | 'precision';

export interface StreamDecision {
  reason: StopReason;
  /** complete pairs (in the stored order) when it was decided */
  afterPairs: number;
  improved: number;
  regressed: number;
  eValue: number;
  /** the largest E along the path (what crossed the threshold) */
  maxEValue: number;
  /** the Holm threshold the e-value crossed (k/α), or null for a precision stop */
  threshold: number | null;
  interval: SequenceInterval;
}

export interface StreamState {
  key: string;
  pairs: number;
  /** pairs with a formal result on both sides */
  used: number;
  improved: number;
  regressed: number;
  sum: number;
  eValue: number;
  /** max of E along the path: 1 / maxEValue is the anytime-valid p */
  maxEValue: number;
  interval: SequenceInterval;
}

/** Where a stream stands now (its path replayed from the start: the running maximum of E needs it). */
export function streamState(s: SequentialStream, rule: Pick<StopRule, 'alpha' | 'rho'>): StreamState {
  let improved = 0;
  let regressed = 0;
  let logE = 0;
  let maxLogE = 0;
  let used = 0;
  // E updated one discordant pair at a time (a = 1): an improved pair multiplies it by 2·(1 + b)/(2 + b + c),
  // a regressed one by 2·(1 + c)/(2 + b + c) — the predictive probability of that outcome against ½
  for (const x of s.outcomes) {
    if (x === null) continue;
    used++;
    if (x === 0) continue;
    logE += Math.log((2 * (1 + (x === 1 ? improved : regressed))) / (2 + improved + regressed));
    if (x === 1) improved++;
    else regressed++;
    if (logE > maxLogE) maxLogE = logE;
  }
  const sum = improved - regressed;
  return {
    key: s.key,
    pairs: s.outcomes.length,
    used,
    improved,
    regressed,
    sum,
    eValue: betaMixtureEValue(improved, regressed),
    maxEValue: Math.exp(maxLogE),
    interval: confidenceSequence(sum, used, rule.rho, rule.alpha),
  };
}

/** A stream's running counts after each of its first n outcomes, n = 0 … length (the path replayed once). */
interface StreamPath {
  improved: number[];
  regressed: number[];
  used: number[];
  maxLogE: number[];
}

function pathOf(s: SequentialStream): StreamPath {
  const p: StreamPath = { improved: [0], regressed: [0], used: [0], maxLogE: [0] };
  let [improved, regressed, used, logE, maxLogE] = [0, 0, 0, 0, 0];
  for (const x of s.outcomes) {
    if (x !== null) {
      used++;
      if (x !== 0) {
        logE += Math.log((2 * (1 + (x === 1 ? improved : regressed))) / (2 + improved + regressed));
        if (x === 1) improved++;
        else regressed++;
        if (logE > maxLogE) maxLogE = logE;
      }
    }
    p.improved.push(improved);
    p.regressed.push(regressed);
    p.used.push(used);
    p.maxLogE.push(maxLogE);
  }
  return p;
}

/**
 * One look: the decisions so far (frozen once made) and the streams as they stand → the decisions after this
 * look. The look is replayed along the stored order as if one had been taken after every pair: a stream is
 * decided at the first pair n at which it would have been, so a decision is a function of the stored order
 * alone, never of when the looks happened or which answers came back first (docs/statistics.md). At pair n,
 * Holm runs over every stream of the run on the anytime-valid p-values 1 / max E of their first n pairs (a
 * shorter stream counts with all it has); a stream newly rejected is decided by its e-value, an undecided one
 * whose confidence sequence is narrower than the precision by precision. Looking after every pair keeps the
 * family-wise error ≤ α. Max E only grows with n, so Holm's rejections only grow: the first n of each is
 * found by bisection.
 */
export function stopCheck(decided: Readonly<Record<string, StreamDecision>>, streams: readonly SequentialStream[], rule: StopRule): Record<string, StreamDecision> {
  const out: Record<string, StreamDecision> = { ...decided };
  if (streams.every((s) => out[s.key])) return out;
  const paths = streams.map(pathOf);
  const len = streams.map((s) => s.outcomes.length);
  const longest = Math.max(0, ...len);
  const psAt = (n: number) => paths.map((p, i) => Math.min(1, Math.exp(-p.maxLogE[Math.min(n, len[i])])));
  const rejectedAt = (n: number) => holmRejected(psAt(n), rule.alpha);
  const stateAt = (i: number, n: number) => {
    const m = Math.min(n, len[i]);
    const p = paths[i];
    const [improved, regressed, used] = [p.improved[m], p.regressed[m], p.used[m]];
    return {
      afterPairs: m,
      improved,
      regressed,
      eValue: betaMixtureEValue(improved, regressed),
      maxEValue: Math.exp(p.maxLogE[m]),
      interval: confidenceSequence(improved - regressed, used, rule.rho, rule.alpha),
    };
  };
  const atEnd = rejectedAt(longest);
  for (const [i, s] of streams.entries()) {
    if (out[s.key]) continue;
    // the first pair at which Holm rejects it (rejections only grow with n)
    let byE: number | null = null;
    if (atEnd[i]) {
      let [lo, hi] = [1, longest];
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (rejectedAt(mid)[i]) hi = mid;
        else lo = mid + 1;
      }
      byE = lo;
    }
    // the first pair at which its confidence sequence is narrower than the precision (before any e-value stop)
    let byPrecision: number | null = null;
    if (rule.precision !== null)
      for (let n = 1; n <= Math.min(len[i], byE === null ? len[i] : byE - 1); n++) {
        const used = paths[i].used[n];
        if (used === 0) continue;
        const ci = confidenceSequence(paths[i].improved[n] - paths[i].regressed[n], used, rule.rho, rule.alpha);
        if (ci.hi - ci.lo < rule.precision) {
          byPrecision = n;
          break;
        }
      }
    if (byPrecision !== null) out[s.key] = { reason: 'precision', threshold: null, ...stateAt(i, byPrecision) };
    else if (byE !== null) {
      // the Holm threshold it met at that pair: k/α where k is the number of hypotheses still standing at its step
      const order = psAt(byE)
        .map((p, j) => [p, j] as const)
        .sort((x, y) => x[0] - y[0]);
      const k = order.findIndex(([, j]) => j === i);
      out[s.key] = { reason: 'e-value', threshold: (streams.length - k) / rule.alpha, ...stateAt(i, byE) };
    }
  }
  return out;
}
