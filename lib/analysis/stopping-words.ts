import type { ComparisonStop, StudyStop } from '../schema/stopping';
import { plural } from './format';
import { readComparison, type Reading } from './reading';

// The stop-when-decided panel in words that agree with its numbers (docs/statistics.md, "Stop when decided"):
// the pairs the decision was made on and the pairs its interval is over are both named; the e-value threshold
// is explained in one sentence; and the reading is the one reading function's (./reading.ts), never a second
// vocabulary — read on the anytime-valid interval, so "improved" is never printed beside an interval that
// includes zero.

export interface StopWords {
  /** "decided after 13 pairs; the interval is over 15 (the 2 in flight at the decision included)" */
  pairsText: string;
  /** Why the e-value had to reach this threshold, in one sentence; null for a precision stop or no decision. */
  thresholdText: string | null;
  /** readComparison on the anytime-valid interval over `c.pairs` (each pair a unit, as the sequence treats them). */
  reading: Reading;
}

export function thresholdSentence(threshold: number, alpha: number, comparisons: number): string {
  const k = Math.round(threshold * alpha);
  const t = threshold.toFixed(0);
  if (comparisons <= 1 || k <= 1)
    return `threshold ${t} = 1/α: an e-value reaches it by chance with probability at most α = ${alpha}${comparisons > 1 ? ' (the last comparison still standing, Holm)' : ''}.`;
  return `threshold ${t} = ${k}/α: ${k} of the run's ${comparisons} comparisons were still undecided, so Holm asks ${k} times 1/α to keep the chance of any false stop at α = ${alpha}.`;
}

export function stopWords(c: ComparisonStop, alpha: number, comparisons: number): StopWords {
  const d = c.decision;
  let pairsText: string;
  if (!d) pairsText = `not decided; the interval is over all ${plural(c.pairs, 'complete pair')}`;
  else if (d.afterPairs === c.pairs) pairsText = `decided after ${plural(d.afterPairs, 'pair')}; the interval is over the same ${plural(c.pairs, 'pair')}`;
  else
    pairsText = `decided after ${plural(d.afterPairs, 'pair')}; the interval is over ${plural(c.pairs, 'pair')} (${c.pairs > d.afterPairs ? `the ${c.pairs - d.afterPairs} in flight at the decision included` : 'the complete ones at the end of the run'})`;
  const est = c.pairs > 0 ? (c.improved - c.regressed) / c.pairs : null;
  const reading = readComparison(
    {
      pairs: c.pairs,
      improved: c.improved,
      regressed: c.regressed,
      clusters: c.pairs,
      estimate: est,
      ci95: c.pairs > 0 ? [c.anytimeValid.interval.lo, c.anytimeValid.interval.hi] : null,
      p: null,
    },
    { alpha, cluster: 'pair' },
  );
  const thresholdText = d && d.reason === 'e-value' && d.threshold !== null ? thresholdSentence(d.threshold, alpha, comparisons) : null;
  return { pairsText, thresholdText, reading };
}

/** How many comparisons a run's stopping rule counted (Holm's m). */
export function comparisonCount(studies: readonly StudyStop[]): number {
  return studies.reduce((s, x) => s + x.comparisons.length, 0);
}
