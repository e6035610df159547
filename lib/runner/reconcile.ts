import { activeRunIds, pendingBatchesByRun } from '../db/runs';
import { completeRunIfDone } from './run-events';
import { enqueueTakeovers, openTrialBatches } from '../queue/enqueue';
import { takeoverJobId } from '../queue/contracts';
import { stalePrecheckRunIds } from '../db/prechecks';
import { batchesHeldBy, lapsedHolders, markSwept } from '../db/holders';
import { log } from '../log/logger';
import { batchModeRunIds } from '../db/batches';
import { enqueuePending, startRun } from './start';

/** Pre-checks this process has taken over and is still sending (not twice at once). */
const takingOver = new Set<string>();

/**
 * Runs left in `prechecking` by a process that is gone (its lease ran out or its heartbeat lapsed): their pre-checks are finished
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

/** A lapsed holder's row is kept this long (longer than any lease: a run's timeout is at most 10 minutes). */
const FORGET_LAPSED_MS = 60 * 60_000;

/**
 * Holders whose heartbeat lapsed (their process died, or has been stuck longer than the TTL): their
 * pre-checks are taken over, and every batch with a trial they hold gets a job of its own at once — the
 * batch's own job is still `active` in Redis under the dead worker's lock (TCLAB_LOCK_MS) and would come
 * back only when that runs out. The claim then takes the trials over (lib/db/trials.ts: a lapsed holder's
 * trial is claimable like one whose lease ran out). Each worker runs this every heartbeat interval; `own`
 * are this process's holder ids, never taken from itself.
 */
export async function sweepLapsedHolders(own: string[]): Promise<{ holders: number; jobs: number; prechecks: number }> {
  const lapsed = await lapsedHolders(own);
  if (lapsed.length === 0) return { holders: 0, jobs: 0, prechecks: 0 };
  const prechecks = takeOverPrechecks(await stalePrecheckRunIds());
  const held = await batchesHeldBy(lapsed);
  // on the takeovers queue, which every worker serves beside the batches in its hands: not behind the waiting
  // jobs, nor until a busy worker finishes a batch. The job's id names the takeover (the highest lease token
  // among the lapsed claims): two workers sweeping at once add one job; the batch's own job, when it comes
  // back, finds the trials final or claims what is left
  await enqueueTakeovers(held.map((b) => ({ runId: b.runId, batch: b.batch, trialIds: b.trialIds, jobId: takeoverJobId(b.runId, b.batch, b.token) })));
  await markSwept(lapsed, FORGET_LAPSED_MS);
  if (held.length > 0 || prechecks > 0) log('info', 'holders lapsed: their claims taken over', { holders: lapsed, jobs: held.length, prechecks });
  return { holders: lapsed.length, jobs: held.length, prechecks };
}

/**
 * PostgreSQL is the source of truth: a run left prechecking by a dead process finishes its pre-checks, and
 * every batch of a running run with a trial that is not final gets its job back
 * (same job id, so live jobs are untouched). Rebuilds the queue after Redis lost its data.
 *
 * Re-adding is cheap per job but not free, so a periodic pass re-adds only the runs with a batch that has
 * pending trials in PostgreSQL and no open job in the queue (Redis lost data, or a job ended with a trial of
 * its batch left pending: dropped while its run was paused, or failed while PostgreSQL was down). Batch by
 * batch, not by counting: jobs of other runs (a cancelled run's delayed retries, a run of another database on
 * the same prefix) must not hide a missing one. `force` (worker start, resume) always re-adds.
 */
export async function reconcile(opts: { force?: boolean } = {}): Promise<{ runs: number; pending: number; completed: number; prechecks: number }> {
  const prechecks = takeOverPrechecks(await stalePrecheckRunIds());
  let completed = 0;
  const ids = await activeRunIds();
  let live: string[] = [];
  for (const id of ids) {
    if (await completeRunIfDone(id)) completed++;
    else live.push(id);
  }
  // batch-mode runs have no trial jobs (lib/runner/batch.ts takes their trials)
  const batched = new Set(await batchModeRunIds(live));
  live = live.filter((id) => !batched.has(id));
  if (live.length === 0) return { runs: ids.length, pending: 0, completed, prechecks };
  if (!opts.force) {
    // the queue first: a job that ends between the two reads then shows as missing (re-added for nothing:
    // enqueuePending reads the run again), never a missing one as open
    const open = await openTrialBatches();
    const pendingByRun = await pendingBatchesByRun(live);
    live = live.filter((id) => (pendingByRun.get(id) ?? []).some((b) => !open.get(id)?.has(b)));
    if (live.length === 0) return { runs: ids.length, pending: 0, completed, prechecks };
  }
  let pending = 0;
  for (const id of live) pending += await enqueuePending(id);
  return { runs: ids.length, pending, completed, prechecks };
}
