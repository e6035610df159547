import { modelDifferences } from '../analysis/compare-runs';
import { COMPARE_FORMAT, type RunComparison } from '../schema/compare';
import { SpecError } from '../schema/common';
import type { ClusterBy } from '../schema/table1';
import { getExperiment } from './experiments';
import { loadRunSummary, trialOutcomes } from './results';
import { getRun, type RunRow } from './runs';

/** At most this many runs side by side. */
export const MAX_COMPARED_RUNS = 8;

/**
 * Runs of one experiment version side by side: Table 1 of each (its own paired effect included) and every
 * other run against the first on identical trials. Unknown ids, runs of different experiment versions, or
 * fewer than two runs are refused naming `runs`.
 */
export async function loadRunComparison(runIds: readonly string[], clusterBy: ClusterBy = 'case'): Promise<RunComparison> {
  const ids = [...new Set(runIds)];
  if (ids.length < 2) throw new SpecError('runs: give at least two different run ids', [{ path: 'runs', message: 'at least two different run ids' }]);
  if (ids.length > MAX_COMPARED_RUNS)
    throw new SpecError(`runs: at most ${MAX_COMPARED_RUNS} runs side by side`, [{ path: 'runs', message: `at most ${MAX_COMPARED_RUNS}` }]);
  const runs: RunRow[] = [];
  for (const [i, id] of ids.entries()) {
    const run = await getRun(id);
    if (!run) throw new SpecError(`runs.${i}: no run "${id}"`, [{ path: `runs.${i}`, message: `no run "${id}"` }]);
    runs.push(run);
  }
  const experimentId = runs[0].experimentId;
  const other = runs.findIndex((r) => r.experimentId !== experimentId);
  if (other >= 0) {
    const message = `run ${runs[other].id} is of experiment ${runs[other].experimentId}, not ${experimentId}: only runs of the same experiment version compare trial by trial`;
    throw new SpecError(`runs.${other}: ${message}`, [{ path: `runs.${other}`, message }]);
  }
  const exp = await getExperiment(experimentId);
  if (!exp) throw new SpecError(`runs: experiment ${experimentId} not found`, [{ path: 'runs', message: 'experiment not found' }]);
  const compared = await Promise.all(
    runs.map(async (run) => ({
      runId: run.id,
      provider: run.provider,
      model: run.model,
      label: `${run.provider}/${run.model}`,
      simulated: run.provider === 'simulated',
      status: run.status,
      summary: await loadRunSummary(run.id, exp.spec, clusterBy),
    })),
  );
  const referenceTrials = await trialOutcomes(runs[0].id);
  const differences = [];
  for (const run of runs.slice(1)) {
    differences.push(
      ...modelDifferences(exp.spec.studies, { runId: runs[0].id, trials: referenceTrials }, { runId: run.id, trials: await trialOutcomes(run.id) }, clusterBy),
    );
  }
  return { format: COMPARE_FORMAT, experimentId, clusterBy, runs: compared, differences };
}
