import { activeRunIds, pendingBatchCount } from '../db/runs';
import { completeRunIfDone } from './run-events';
import { openTrialJobs } from '../queue/enqueue';
import { stalePrecheckRunIds } from '../db/prechecks';
import { log } from '../log/logger';
import { enqueuePending, startRun } from './start';

/** Pre-checks this process has taken over and is still sending (not twice at once). */
const takingOver = new Set<string>();

/**
 * Runs left in `prechecking` by a process that is gone (its lease ran out): their pre-checks are finished
 * here, in the background (the reconcile pass does not wait for the requests), then their trials enqueued.
 */
function takeOverPrechecks(ids: string[]): number {
  let n = 0;
  for (const id of ids) {
    if (takingOver.has(id)) continue;
    takingOver.add(id);
    n++;
    startRun(id, { from: ['prechecking'] })
      .then((r) =>
        log(r.ok ? 'info' : 'warn', r.ok ? 'took over pre-checks: run started' : 'took over pre-checks: run did not start', {
          runId: id,
          ...(r.ok ? {} : { reason: r.reason }),
        }),
      )
      .catch((e: Error) => log('warn', 'pre-check takeover failed', { runId: id, err: e.message }))
      .finally(() => takingOver.delete(id));
  }
  return n;
}

/**
 * PostgreSQL is the source of truth: a run left prechecking by a dead process finishes its pre-checks, and
 * every batch of a running run with a trial that is not final gets its job back
 * (same job id, so live jobs are untouched). Rebuilds the queue after Redis lost its data.
 *
 * Re-adding is cheap per job but not free, so a periodic pass re-adds only when the queue holds fewer
 * open jobs than PostgreSQL has batches with pending trials (Redis lost data, or a job ended with a trial
 * of its batch left pending: dropped while its run was paused, or failed while PostgreSQL was down);
 * `force` (worker start, resume) always re-adds.
 */
export async function reconcile(opts: { force?: boolean } = {}): Promise<{ runs: number; pending: number; completed: number; prechecks: number }> {
  const prechecks = takeOverPrechecks(await stalePrecheckRunIds());
  let completed = 0;
  const ids = await activeRunIds();
  const live: string[] = [];
  for (const id of ids) {
    if (await completeRunIfDone(id)) completed++;
    else live.push(id);
  }
  if (live.length === 0) return { runs: ids.length, pending: 0, completed, prechecks };
  if (!opts.force) {
    const [pendingCount, jobs] = await Promise.all([pendingBatchCount(live), openTrialJobs()]);
    if (jobs >= pendingCount) return { runs: ids.length, pending: 0, completed, prechecks };
  }
  let pending = 0;
  for (const id of live) pending += await enqueuePending(id);
  return { runs: ids.length, pending, completed, prechecks };
}
