import { holmAdjusted, mcnemarExact, pairedDifference, type PairCluster, type PairedDifference } from '../stats';

// The select and confirm stages' numbers and readings (docs/optimise.md). Select ranks every candidate by its
// paired difference against the baseline on the select split and picks by a rule stated before the select
// runs; confirm tests the frozen winner(s) once more, on the sealed confirm split, with exact McNemar and
// Holm over every confirmed candidate at every look at that split.

export const OPTIMISE_ALPHA = 0.05;

/** The rule that picks the winner(s) from the select split, stored before the select stage runs. */
export type SelectionRule = { kind: 'best' } | { kind: 'top'; m: number };

export interface SelectResult {
  candidate: string;
  /** `placebo` is a control: ranked and shown, never a winner. */
  placebo: boolean;
  /** Paired counts against the baseline, one cluster per case (its orders and replicates). */
  clusters: readonly PairCluster[];
}

export interface RankedCandidate {
  candidate: string;
  placebo: boolean;
  rank: number;
  difference: PairedDifference;
  improved: number;
  regressed: number;
  /** Exact McNemar on the select split, uncorrected: what "looks significant" when the best of K is kept. */
  pExact: number;
  /** Whether its paired difference is above the placebo's on the select split (null without a placebo). */
  beatsPlacebo: boolean | null;
}

const sumOf = (clusters: readonly PairCluster[]) =>
  clusters.reduce((a, c) => ({ improved: a.improved + c.improved, regressed: a.regressed + c.regressed }), { improved: 0, regressed: 0 });

/** Every candidate ranked by its select-split paired difference (best first; ties in the order given). */
export function rankCandidates(results: readonly SelectResult[]): RankedCandidate[] {
  const scored = results.map((r, i) => {
    const difference = pairedDifference(r.clusters);
    const { improved, regressed } = sumOf(r.clusters);
    return { r, i, difference, improved, regressed, pExact: mcnemarExact(improved, regressed) };
  });
  const placebo = scored.find((s) => s.r.placebo);
  scored.sort((a, b) => (b.difference.estimate ?? -Infinity) - (a.difference.estimate ?? -Infinity) || a.i - b.i);
  return scored.map((s, k) => ({
    candidate: s.r.candidate,
    placebo: s.r.placebo,
    rank: k + 1,
    difference: s.difference,
    improved: s.improved,
    regressed: s.regressed,
    pExact: s.pExact,
    beatsPlacebo: placebo && !s.r.placebo ? (s.difference.estimate ?? -Infinity) > (placebo.difference.estimate ?? -Infinity) : null,
  }));
}

/** The winners under the rule: the best (or top m) non-placebo candidates whose select difference is above 0. */
export function selectWinners(ranked: readonly RankedCandidate[], rule: SelectionRule): RankedCandidate[] {
  const m = rule.kind === 'best' ? 1 : rule.m;
  if (!Number.isInteger(m) || m < 1) throw new RangeError(`rule.m: the number of winners must be a positive integer (got ${m})`);
  return ranked.filter((r) => !r.placebo && (r.difference.estimate ?? 0) > 0).slice(0, m);
}

export type ConfirmReading = 'confirmed' | 'not-confirmed' | 'no-better-than-placebo';

export interface ConfirmInput {
  candidate: string;
  /** The select-split difference, shown beside the confirm one (the winner's curse made visible). */
  selectEstimate: number | null;
  /** Candidate vs baseline on the confirm split. */
  clusters: readonly PairCluster[];
  /** Candidate vs the placebo on the confirm split (improved: the candidate passed where the placebo failed); null when no placebo ran. */
  vsPlacebo: readonly PairCluster[] | null;
}

export interface ConfirmResult {
  candidate: string;
  selectEstimate: number | null;
  difference: PairedDifference;
  improved: number;
  regressed: number;
  pExact: number;
  /** Holm-adjusted over every candidate of this look and every earlier look's p at the same confirm split. */
  pHolm: number;
  /** How many claims the correction counted (m confirmed × looks). */
  claims: number;
  vsPlacebo: { difference: PairedDifference; pExact: number } | null;
  reading: ConfirmReading;
}

/**
 * The confirm stage's readings. *confirmed*: the Holm-adjusted exact McNemar p ≤ α, the difference is
 * positive and its clustered interval lies above 0, and it also beats the placebo (exact McNemar ≤ α,
 * positive) when the placebo ran; *no better than the placebo*: it beat the baseline but not the placebo;
 * *not confirmed*: otherwise. `earlierLooks` are the p-values of every earlier confirmation at this split.
 */
export function confirmReadings(inputs: readonly ConfirmInput[], earlierLooks: readonly number[] = [], alpha = OPTIMISE_ALPHA): ConfirmResult[] {
  const raw = inputs.map((c) => {
    const { improved, regressed } = sumOf(c.clusters);
    return { c, improved, regressed, difference: pairedDifference(c.clusters), pExact: mcnemarExact(improved, regressed) };
  });
  const adjusted = holmAdjusted([...raw.map((r) => r.pExact), ...earlierLooks]);
  return raw.map((r, i) => {
    const beatsBaseline = adjusted[i] <= alpha && (r.difference.estimate ?? 0) > 0 && r.difference.ci95 !== null && r.difference.ci95[0] > 0;
    let vsPlacebo: ConfirmResult['vsPlacebo'] = null;
    let beatsPlacebo = true;
    if (r.c.vsPlacebo) {
      const s = sumOf(r.c.vsPlacebo);
      vsPlacebo = { difference: pairedDifference(r.c.vsPlacebo), pExact: mcnemarExact(s.improved, s.regressed) };
      beatsPlacebo = vsPlacebo.pExact <= alpha && (vsPlacebo.difference.estimate ?? 0) > 0;
    }
    return {
      candidate: r.c.candidate,
      selectEstimate: r.c.selectEstimate,
      difference: r.difference,
      improved: r.improved,
      regressed: r.regressed,
      pExact: r.pExact,
      pHolm: adjusted[i],
      claims: adjusted.length,
      vsPlacebo,
      reading: !beatsBaseline ? 'not-confirmed' : beatsPlacebo ? 'confirmed' : 'no-better-than-placebo',
    };
  });
}

/** The reading in words, with the select and confirm numbers side by side where the gain was not reproduced. */
export function confirmSentence(r: ConfirmResult): string {
  const pct = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)} pp`);
  switch (r.reading) {
    case 'confirmed':
      return `confirmed: ${pct(r.difference.estimate)} on the sealed split (Holm-adjusted p = ${r.pHolm.toPrecision(2)} over ${r.claims} claim${r.claims === 1 ? '' : 's'})`;
    case 'no-better-than-placebo':
      return `no better than the placebo: ${pct(r.difference.estimate)} over the baseline, ${pct(r.vsPlacebo?.difference.estimate ?? null)} over the placebo`;
    default:
      // a gain with no clustered interval (too few confirm cases, or all at one rate) is not "not reproduced"
      if (r.difference.ci95 === null && (r.difference.estimate ?? 0) > 0)
        return `not confirmed: the sealed split gives no interval (${r.difference.ciReason ?? 'no interval'}; select ${pct(r.selectEstimate)}, confirm ${pct(r.difference.estimate)} over ${r.difference.clusters} case${r.difference.clusters === 1 ? '' : 's'})`;
      return `not confirmed: the select-split gain was not reproduced (select ${pct(r.selectEstimate)}, confirm ${pct(r.difference.estimate)})`;
  }
}
