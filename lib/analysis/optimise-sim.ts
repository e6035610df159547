import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import type { PairCluster } from '../stats';
import { OPTIMISE_ALPHA, confirmReadings, rankCandidates, selectWinners, type SelectionRule } from './optimise';

// The null oracle (docs/optimise.md "What it guarantees"): the whole select → confirm loop, many times over,
// with K candidate rewrites that change nothing the model reads. Each case has its own pass rate; every
// trial of every condition (baseline, K candidates, the placebo) passes with that rate, independently — a
// model answering at a temperature, for which no rewrite makes any difference. The loop then does what the
// product does: ranks the candidates on the select split, picks by the stated rule, and confirms the winner
// on fresh trials of the sealed split (the winner and the placebo against the baseline, Holm over the claims).

export interface NullLoopOptions {
  runs: number;
  /** Candidate rewrites (the placebo comes on top). */
  candidates: number;
  /** Cases in the select and in the confirm split. */
  selectCases: number;
  confirmCases: number;
  /** Trials per case and condition (its candidate orders × replicates). */
  trialsPerCase: number;
  rule: SelectionRule;
  seed: number;
  alpha?: number;
}

export interface NullLoopFigures {
  runs: number;
  /** Runs whose select-split winner had an uncorrected exact McNemar p ≤ α with a positive difference. */
  selectLooksSignificant: number;
  /** Runs in which any winner was read *confirmed*. */
  confirmed: number;
  /** Runs with a winner (a candidate with a positive select difference). */
  withWinner: number;
  /** The mean select-split difference of the winners, and the mean confirm-split difference of the same winners. */
  meanSelectEstimate: number;
  meanConfirmEstimate: number;
}

const uniform = (rng: RandomGenerator) => unsafeUniformIntDistribution(0, 2 ** 30 - 1, rng) / 2 ** 30;

/** One condition's outcomes on the cases: trialsPerCase draws at each case's pass rate. */
function draw(rates: readonly number[], trials: number, rng: RandomGenerator): boolean[][] {
  return rates.map((p) => Array.from({ length: trials }, () => uniform(rng) < p));
}

/** Paired counts of `a` against `b`, one cluster per case (improved: a passed where b failed). */
export function pairClusters(a: readonly (readonly boolean[])[], b: readonly (readonly boolean[])[]): PairCluster[] {
  return a.map((trials, c) => {
    let improved = 0;
    let regressed = 0;
    trials.forEach((pass, t) => {
      if (pass && !b[c][t]) improved++;
      else if (!pass && b[c][t]) regressed++;
    });
    return { pairs: trials.length, improved, regressed };
  });
}

export function simulateNullLoop(o: NullLoopOptions): NullLoopFigures {
  const alpha = o.alpha ?? OPTIMISE_ALPHA;
  const rng = xoroshiro128plus(o.seed);
  let selectLooksSignificant = 0;
  let confirmed = 0;
  let withWinner = 0;
  let selectSum = 0;
  let confirmSum = 0;
  let winners = 0;
  for (let run = 0; run < o.runs; run++) {
    const selectRates = Array.from({ length: o.selectCases }, () => 0.1 + 0.8 * uniform(rng));
    const confirmRates = Array.from({ length: o.confirmCases }, () => 0.1 + 0.8 * uniform(rng));
    // select: baseline, K null candidates and the placebo, every trial drawn afresh
    const baseline = draw(selectRates, o.trialsPerCase, rng);
    const results = Array.from({ length: o.candidates + 1 }, (_, k) => ({
      candidate: k === o.candidates ? 'placebo' : `null-${k + 1}`,
      placebo: k === o.candidates,
      clusters: pairClusters(draw(selectRates, o.trialsPerCase, rng), baseline),
    }));
    const ranked = rankCandidates(results);
    const chosen = selectWinners(ranked, o.rule);
    if (chosen.length === 0) continue;
    withWinner++;
    if (chosen.some((w) => w.pExact <= alpha)) selectLooksSignificant++;
    // confirm: only now are trials of the sealed cases drawn
    const confirmBaseline = draw(confirmRates, o.trialsPerCase, rng);
    const placebo = draw(confirmRates, o.trialsPerCase, rng);
    const readings = confirmReadings(
      chosen.map((w) => {
        const trials = draw(confirmRates, o.trialsPerCase, rng);
        return {
          candidate: w.candidate,
          selectEstimate: w.difference.estimate,
          clusters: pairClusters(trials, confirmBaseline),
          vsPlacebo: pairClusters(trials, placebo),
        };
      }),
      [],
      alpha,
    );
    if (readings.some((r) => r.reading === 'confirmed')) confirmed++;
    for (const r of readings) {
      selectSum += r.selectEstimate ?? 0;
      confirmSum += r.difference.estimate ?? 0;
      winners++;
    }
  }
  return {
    runs: o.runs,
    selectLooksSignificant,
    confirmed,
    withWinner,
    meanSelectEstimate: winners ? selectSum / winners : 0,
    meanConfirmEstimate: winners ? confirmSum / winners : 0,
  };
}
