import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { reviewPairCounts } from '../db/review-pairs';
import { runChoiceSummary } from './choices';
import { runFunnel } from './funnel';
import { loadRunSummary } from './summary';

/** Runs at least this large are aggregated as they complete (below it, the first view does it in well under a second). */
export const WARM_RESULTS_MIN_TRIALS = 5000;

/**
 * What the pages of a large run read, computed and stored (lib/db/result-cache.ts) as the run completes, so
 * that its first view reads them instead of aggregating every trial: Table 1 with its outcomes (a million
 * trials: ~80 s), the matrices and positions of What the model did, the review list classed and ordered
 * (review_pairs) and the visibility funnel. Each is what the first view would have stored, under the same key
 * and version. Returns whether it did (false: the run is small, or gone).
 */
export async function warmRunResults(runId: string, opts: { minTrials?: number } = {}): Promise<boolean> {
  const run = await getRun(runId);
  if (!run || run.totalTrials < (opts.minTrials ?? WARM_RESULTS_MIN_TRIALS)) return false;
  const exp = await getExperiment(run.experimentId);
  if (!exp) return false;
  // one after another: a worker warms while it goes on serving other runs
  await loadRunSummary(run, exp.spec, 'case');
  await runChoiceSummary(runId, exp.spec);
  await reviewPairCounts(runId, exp.spec);
  await runFunnel(run, exp.spec);
  return true;
}
