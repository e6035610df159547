import type { RunRow } from '../db/runs';
import { isCompletedRunStatus } from '../schema/run-status';
import { env } from '../env';

/**
 * A large completed run: at least `minTrials` trials (TCLAB_WARM_MIN_TRIALS). What its pages read is stored as it
 * completes (lib/runs/warm.ts), and so are its Parquet tables (lib/runs/export.ts,
 * docs/export.md#stored-parquet-tables).
 */
export const worthWarming = (run: Pick<RunRow, 'status' | 'totalTrials'>, minTrials = env().TCLAB_WARM_MIN_TRIALS) =>
  isCompletedRunStatus(run.status) && run.totalTrials >= minTrials;
