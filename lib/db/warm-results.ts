import { storedRunCells } from './aggregate';
import { getExperiment } from './experiments';
import { getRun } from './runs';

/** Runs at least this large are aggregated as they complete (below it, the first view does it in well under a second). */
export const WARM_RESULTS_MIN_TRIALS = 5000;

/**
 * Table 1's cells of a run that just completed, computed and stored (lib/db/result-cache.ts) so that the
 * first view of a large run reads them instead of aggregating. Returns whether it did.
 */
export async function warmRunResults(runId: string): Promise<boolean> {
  const run = await getRun(runId);
  if (!run || run.totalTrials < WARM_RESULTS_MIN_TRIALS) return false;
  const exp = await getExperiment(run.experimentId);
  if (!exp) return false;
  await storedRunCells(runId, exp.spec, 'case');
  return true;
}
