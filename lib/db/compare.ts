import { modelDifferencesFromCells, type ModelPairCell } from '../analysis/compare-runs';
import { COMPARE_FORMAT, type RunComparison } from '../schema/compare';
import { SpecError } from '../schema/common';
import type { ClusterBy } from '../schema/table1';
import { getExperiment } from './experiments';
import { clusterSql } from './aggregate';
import { pool } from './client';
import { loadRunSummary } from './results';
import { cachedResult } from './result-cache';
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
  const differences = [];
  for (const run of runs.slice(1))
    differences.push(...modelDifferencesFromCells(exp.spec.studies, runs[0].id, run.id, await storedModelPairCells(runs[0].id, run.id, clusterBy)));
  return { format: COMPARE_FORMAT, experimentId, clusterBy, runs: compared, differences };
}

/**
 * The model-vs-model cells of two runs in one grouped query: identical trials (the trial key is study,
 * scenario, locale, case, condition, order and replicate) both runs decided, counted per study, condition
 * and cluster. The same cells as lib/analysis/compare-runs.ts modelPairCells (compare.itest.ts).
 */
export async function modelPairCellsSql(referenceRunId: string, otherRunId: string, clusterBy: ClusterBy = 'case'): Promise<ModelPairCell[]> {
  const r = await pool().query(
    `SELECT o.study, o.condition, ${clusterSql(clusterBy, 'o')} AS cluster, count(*) AS pairs,
            count(*) FILTER (WHERE o.status = 'passed' AND f.status = 'failed') AS improved,
            count(*) FILTER (WHERE o.status = 'failed' AND f.status = 'passed') AS regressed,
            count(*) FILTER (WHERE f.status = 'passed') AS ref_pass, count(*) FILTER (WHERE o.status = 'passed') AS other_pass
       FROM trials o JOIN trials f ON f.run_id = $1 AND f.trial_key = o.trial_key
      WHERE o.run_id = $2 AND o.status IN ('passed', 'failed') AND f.status IN ('passed', 'failed')
      GROUP BY 1, 2, 3`,
    [referenceRunId, otherRunId],
  );
  return r.rows.map((x) => ({
    study: x.study,
    condition: x.condition,
    cluster: x.cluster,
    pairs: Number(x.pairs),
    improved: Number(x.improved),
    regressed: Number(x.regressed),
    refPass: Number(x.ref_pass),
    otherPass: Number(x.other_pass),
  }));
}

/** modelPairCellsSql, stored per the two runs' results versions (lib/db/result-cache.ts). */
export async function storedModelPairCells(referenceRunId: string, otherRunId: string, clusterBy: ClusterBy = 'case'): Promise<ModelPairCell[]> {
  return cachedResult([referenceRunId, otherRunId], `compare|${otherRunId}|${clusterBy}`, () => modelPairCellsSql(referenceRunId, otherRunId, clusterBy), {
    encode: (cells) => cells,
    decode: (stored) => stored as ModelPairCell[],
  });
}
