import { stoppingReport } from '../analysis/stopping';
import type { StoppingReport } from '../schema/stopping';
import type { ExperimentSpec } from '../schema/experiment';
import type { RunSettings } from '../schema/run';
import { stoppingTrials, storedStopDecisions } from '../db/stopping';

/**
 * The stop-when-decided report of a run (run page, `tclab run`, JSON export): null for a run without the
 * option. Recomputed from the run's trials and its stored decisions each time.
 */
export async function loadStoppingReport(run: { id: string; settings: RunSettings }, spec: ExperimentSpec): Promise<StoppingReport | null> {
  const opts = run.settings.stopWhenDecided;
  if (!opts) return null;
  const [trials, decided] = await Promise.all([stoppingTrials(run.id), storedStopDecisions(run.id)]);
  return stoppingReport(spec, trials, opts, decided);
}
