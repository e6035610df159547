import { activeRunIds, completeRunIfDone } from '../db/runs';
import { enqueuePending } from './start';

/**
 * PostgreSQL is the source of truth: every trial of a running run that is not final gets its job back
 * (same job id, so live jobs are untouched). Rebuilds the queue after Redis lost its data.
 */
export async function reconcile(): Promise<{ runs: number; pending: number; completed: number }> {
  let pending = 0;
  let completed = 0;
  const ids = await activeRunIds();
  for (const id of ids) {
    if (await completeRunIfDone(id)) {
      completed++;
      continue;
    }
    pending += await enqueuePending(id);
  }
  return { runs: ids.length, pending, completed };
}
