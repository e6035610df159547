import { activeRunIds, completeRunIfDone, pendingTrialCount } from '../db/runs';
import { openTrialJobs } from '../queue/enqueue';
import { enqueuePending } from './start';

/**
 * PostgreSQL is the source of truth: every trial of a running run that is not final gets its job back
 * (same job id, so live jobs are untouched). Rebuilds the queue after Redis lost its data.
 *
 * Re-adding is cheap per job but not free, so a periodic pass re-adds only when the queue holds fewer
 * open jobs than PostgreSQL has pending trials (Redis lost data, or jobs of a paused run were dropped);
 * `force` (worker start, resume) always re-adds.
 */
export async function reconcile(opts: { force?: boolean } = {}): Promise<{ runs: number; pending: number; completed: number }> {
  let completed = 0;
  const ids = await activeRunIds();
  const live: string[] = [];
  for (const id of ids) {
    if (await completeRunIfDone(id)) completed++;
    else live.push(id);
  }
  if (live.length === 0) return { runs: ids.length, pending: 0, completed };
  if (!opts.force) {
    const [pendingCount, jobs] = await Promise.all([pendingTrialCount(live), openTrialJobs()]);
    if (jobs >= pendingCount) return { runs: ids.length, pending: 0, completed };
  }
  let pending = 0;
  for (const id of live) pending += await enqueuePending(id);
  return { runs: ids.length, pending, completed };
}
