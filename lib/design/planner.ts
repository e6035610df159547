import { ALPHA_95, trialsForBound, zeroFailureUpperBound } from '../stats/bounds';
import type { MatrixCount } from './matrix';

/** One condition of one study: what its trials can claim now, and what a target claim needs (docs/design.md#the-statistics-it-relies-on). */
export interface PlanRow {
  study: string;
  condition: string;
  baseline: boolean;
  /** Trials of this condition per replicate of the experiment. */
  perReplicate: number;
  /** Trials of this condition at the experiment's replicates. */
  trials: number;
  /** The one-sided upper bound on the failure rate if all of them pass. */
  boundIfAllPass: number;
  /** Trials with zero failures needed for the target bound. */
  trialsNeeded: number;
  /** Replicates of the whole experiment that give this condition that many trials. */
  replicatesNeeded: number;
}

/**
 * The trial-count planner: with zero failures in n trials the failure rate is below 1 − alpha^(1/n) with
 * confidence 1 − alpha, so a target bound needs a number of clean trials; replicating the experiment is how a
 * condition gets them. `targetRate` in (0, 1).
 */
export function planTrials(matrix: MatrixCount, replicates: number, targetRate: number, alpha: number = ALPHA_95): PlanRow[] {
  const needed = trialsForBound(targetRate, alpha);
  return matrix.studies.flatMap((s) =>
    s.conditions.map((c) => {
      const perReplicate = c.trials / Math.max(1, replicates);
      return {
        study: s.study,
        condition: c.condition,
        baseline: c.baseline,
        perReplicate,
        trials: c.trials,
        boundIfAllPass: zeroFailureUpperBound(c.trials, alpha),
        trialsNeeded: needed,
        replicatesNeeded: perReplicate > 0 ? Math.ceil(needed / perReplicate) : Infinity,
      };
    }),
  );
}
