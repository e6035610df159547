import type { TrialUsage } from '../schema/outcomes';
import { pairClusters } from './outcomes';
import { connorReason, designEffect, minimumDetectableDifference, pairsNeeded, pilotPairs, type PilotPairs } from './power';

// The power planner (docs/statistics.md): pairs a paired comparison needs and what a planned run could detect,
// from assumed rates (the designer's preview) or from a pilot run's pairs (`tclab plan --pilot`). Beside the
// zero-failure planner (./planner.ts), which answers a different question (how many clean trials bound a rate).

export const DEFAULT_DELTA = 0.1;
export const DEFAULT_POWER = 0.8;
export const DEFAULT_ALPHA = 0.05;

export interface PowerAssumptions {
  /** Discordant share ψ = p₁₀ + p₀₁. */
  psi: number;
  /** Difference to detect δ = p₁₀ − p₀₁. */
  delta: number;
  alpha: number;
  power: number;
  /** ICC of the per-pair differences within a case (null: taken as 0). */
  icc: number | null;
  /** Pairs per case (m): candidate orders × replicates. */
  pairsPerCluster: number;
}

export interface PowerPlan {
  delta: number;
  alpha: number;
  power: number;
  psi: number;
  icc: number | null;
  pairsPerCluster: number;
  designEffect: number;
  /** Connor's n rounded up (independent pairs); null when there is no answer (`reason`). */
  pairsNeeded: number | null;
  /** ⌈n · design effect⌉. */
  pairsNeededWithDesignEffect: number | null;
  /** The planned run's pairs, and the smallest difference they could detect (design effect included). */
  plannedPairs: number;
  minimumDetectable: number | null;
  reason: string | null;
}

/** Pairs needed for δ and the minimum detectable difference of `plannedPairs`, under these assumptions. */
export function planPower(a: PowerAssumptions, plannedPairs: number): PowerPlan {
  const de = designEffect(a.pairsPerCluster, a.icc);
  const reason = connorReason(a);
  const need = reason ? null : pairsNeeded(a, a.pairsPerCluster, a.icc);
  const mdd = connorReason({ ...a, delta: a.psi }) ? null : minimumDetectableDifference(plannedPairs, a.psi, a);
  return {
    delta: a.delta,
    alpha: a.alpha,
    power: a.power,
    psi: a.psi,
    icc: a.icc,
    pairsPerCluster: a.pairsPerCluster,
    designEffect: de,
    pairsNeeded: need?.pairsNeeded ?? null,
    pairsNeededWithDesignEffect: need?.pairsNeededWithDesignEffect ?? null,
    plannedPairs,
    minimumDetectable: mdd,
    reason,
  };
}

export interface PilotComparison extends PowerPlan {
  study: string;
  baseline: string;
  treatment: string;
  /** What the pilot's complete pairs showed. */
  pilot: PilotPairs;
  /** The design's pairs per replicate of the experiment, and the replicates that give the pairs needed. */
  pairsPerReplicate: number;
  replicatesNeeded: number | null;
}

/**
 * Per study and treatment, the pairs the comparison needs, with ψ, m and the ICC from the pilot's pairs.
 * `plannedPairs`: the design's pairs of the study per replicate (the run as planned has `replicates` of them).
 */
export function pilotPowerPlan(
  studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[],
  trials: readonly TrialUsage[],
  target: { delta?: number; power?: number; alpha?: number },
  design: { replicates: number; pairsPerReplicate: (study: string) => number },
): PilotComparison[] {
  const delta = target.delta ?? DEFAULT_DELTA;
  const power = target.power ?? DEFAULT_POWER;
  const alpha = target.alpha ?? DEFAULT_ALPHA;
  return studies.flatMap((s) => {
    const baseline = s.conditions.find((c) => c.baseline)?.id ?? s.conditions[0].id;
    const mine = trials.filter((t) => t.study === s.id);
    return s.conditions
      .filter((c) => c.id !== baseline)
      .map((c) => {
        const pilot = pilotPairs(pairClusters(baseline, c.id, mine));
        const perReplicate = design.pairsPerReplicate(s.id);
        const plan = planPower({ psi: pilot.psi ?? 0, delta, alpha, power, icc: pilot.icc, pairsPerCluster: pilot.pairsPerCluster }, perReplicate * design.replicates);
        const n = plan.pairsNeededWithDesignEffect;
        return {
          study: s.id,
          baseline,
          treatment: c.id,
          pilot,
          ...plan,
          pairsPerReplicate: perReplicate,
          replicatesNeeded: n !== null && perReplicate > 0 ? Math.ceil(n / perReplicate) : null,
        };
      });
  });
}
