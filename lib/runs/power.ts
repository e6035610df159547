import { countMatrix } from '../design/matrix';
import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { trialUsage } from '../db/usage';
import { DEFAULT_ALPHA, DEFAULT_DELTA, DEFAULT_POWER, pilotPowerPlan, type PilotComparison } from '../analysis/power-plan';
import { SpecError } from '../schema/common';

export interface PilotPlan {
  pilot: { runId: string; experimentId: string; replicates: number };
  delta: number;
  power: number;
  alpha: number;
  studies: PilotComparison[];
}

function shareIn(field: string, v: number | undefined, lo: number, hi: number): void {
  if (v === undefined) return;
  if (!Number.isFinite(v) || !(v > lo && v < hi))
    throw new SpecError(`${field}: must be a share between ${lo} and ${hi} (exclusive), got ${v}`, [{ path: field, message: 'out of range' }]);
}

/**
 * `tclab plan --pilot RUN_ID`: per study and treatment of the pilot's experiment, the pairs a paired comparison
 * needs to detect `delta` with `power` at `alpha`, before and after the design effect, with ψ and the ICC read
 * from the pilot run's pairs; and what the experiment as designed could detect.
 */
export async function planFromPilot(runId: string, target: { delta?: number; power?: number; alpha?: number } = {}): Promise<PilotPlan> {
  shareIn('delta', target.delta, 0, 1);
  shareIn('power', target.power, 0, 1);
  shareIn('alpha', target.alpha, 0, 1);
  const run = await getRun(runId);
  if (!run) throw new SpecError(`pilot: no run "${runId}"`, [{ path: 'pilot', message: 'not found' }]);
  const exp = await getExperiment(run.experimentId);
  if (!exp) throw new SpecError(`pilot: the experiment of run "${runId}" is missing`, [{ path: 'pilot', message: 'not found' }]);
  const replicates = exp.spec.replicates;
  const matrix = countMatrix(exp.spec);
  const pairs = new Map(matrix.studies.map((s) => [s.study, s.pairs]));
  const studies = pilotPowerPlan(exp.spec.studies, await trialUsage(runId), target, {
    replicates,
    pairsPerReplicate: (study) => (pairs.get(study) ?? 0) / Math.max(1, replicates),
  });
  const first = studies[0];
  return {
    pilot: { runId, experimentId: exp.id, replicates },
    delta: first?.delta ?? target.delta ?? DEFAULT_DELTA,
    power: first?.power ?? target.power ?? DEFAULT_POWER,
    alpha: first?.alpha ?? target.alpha ?? DEFAULT_ALPHA,
    studies,
  };
}
