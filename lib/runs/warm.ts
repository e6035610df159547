import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { reviewPairCounts } from '../db/review-pairs';
import { runChoiceSummary } from './choices';
import { runFunnel } from './funnel';
import { loadRunSummary } from './summary';
import { worthWarming } from './large-run';
import { storeRunParquet } from './export';

/** Whether warmRunResults stores anything for this run: a completed run of at least `minTrials` trials (TCLAB_WARM_MIN_TRIALS). */
export { worthWarming };

/**
 * What the pages of a large run read, computed and stored (lib/db/result-cache.ts) as the run completes, so
 * that its first view reads them instead of aggregating every trial: Table 1 with its outcomes (a million
 * trials: ~80 s), the matrices and positions of What the model did, the review list classed and ordered
 * (review_pairs), the visibility funnel, and the Parquet tables of its download
 * (docs/export.md#stored-parquet-tables). Each is what the first view would have stored, under the same key and
 * version. Returns whether it did (false: the run is small, not completed, or gone).
 */
export async function warmRunResults(runId: string, opts: { minTrials?: number } = {}): Promise<boolean> {
  const run = await getRun(runId);
  if (!run || !worthWarming(run, opts.minTrials)) return false;
  const exp = await getExperiment(run.experimentId);
  if (!exp) return false;
  // one after another: a worker warms while it goes on serving other runs
  await loadRunSummary(run, exp.spec, 'case');
  await runChoiceSummary(runId, exp.spec);
  await reviewPairCounts(runId, exp.spec);
  await runFunnel(run, exp.spec);
  await storeRunParquet(runId, opts);
  return true;
}
