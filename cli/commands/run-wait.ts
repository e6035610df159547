import type { WorkerHandle } from '../../lib/runner/worker';
import { withDatabaseRetry, type DatabaseRetryOptions } from '../../lib/runs/connections';
import { getRun, runProgress } from '../../lib/runs/read';
import { batchStateLine, runBatchState } from '../../lib/runs/batch';
import { isFinalRunStatus, runStatusLabel } from '../../lib/schema/run-status';
import type { RunRow } from '../../lib/schema/run-row';
import { err, errControl, stderrIsTty } from '../output';

// `tclab run` waiting for its runs: progress on stderr, a database restart waited out, the in-process worker
// stopped once every run is final.

/** How long the in-process worker may take to stop once every run is final. */
const WORKER_CLOSE_MS = 15_000;

/**
 * Stop the in-process worker. Every run is final in PostgreSQL by now, so nothing it still holds can change a
 * result (a late write is fenced out): if it has not stopped within WORKER_CLOSE_MS — a job waiting on a
 * connection the database dropped while it restarted — one line says so and the summary is printed anyway.
 */
export async function closeWorker(worker: WorkerHandle): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = worker.close().then(() => true);
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), WORKER_CLOSE_MS)));
  const stopped = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (!stopped) err(`tclab: the worker had not stopped ${WORKER_CLOSE_MS / 1000} s after the run ended; going on without it\n`);
}

/** Reconnect messages on stderr: one when the database goes away, one when it answers again. */
export function reconnecting(): DatabaseRetryOptions {
  let told = false;
  return {
    onUnavailable(e) {
      if (told) return;
      told = true;
      err(`\ntclab: the database is unavailable (${e.message.split('\n')[0]}); reconnecting with backoff…\n`);
    },
    onBack(ms) {
      told = false;
      err(`tclab: the database is back after ${(ms / 1000).toFixed(1)} s\n`);
    },
  };
}

/**
 * Poll PostgreSQL (the source of truth) until the run is final; progress goes to stderr. A database that
 * restarts meanwhile is waited for (reconnect with backoff); the run goes on without us.
 */
export async function waitForRun(runId: string): Promise<RunRow> {
  const tty = stderrIsTty();
  let last = '';
  const retry = reconnecting();
  for (;;) {
    const [run, p] = await withDatabaseRetry(() => Promise.all([getRun(runId), runProgress(runId)]), retry);
    if (!run) throw new Error(`run ${runId} disappeared`);
    const batch = run.settings.batch ? await withDatabaseRetry(() => runBatchState(runId, { saving: false }), retry) : null;
    const line = `${runStatusLabel(run.status).padEnd(10)} ${p.done}/${p.total} done, ${p.inFlight} in flight, ${p.transportErrors} transport errors, ${p.byStatus.unresolved ?? 0} unresolved${batch ? `; ${batchStateLine(batch)}` : ''}`;
    if (line !== last) {
      if (tty) {
        errControl('\r');
        err(line);
        errControl('\x1b[K');
      } else err(`${line}\n`);
      last = line;
    }
    if (isFinalRunStatus(run.status)) {
      if (tty) err('\n');
      return run;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
