import { queuePrefix, queues } from './connection';

// A worker claims a trial in PostgreSQL (which refuses claims of a run that is not running) and only then
// waits for a rate-limit slot, so claiming overlaps other trials' requests. A run paused or stopped while
// some of its trials are claimed and waiting must not send them: its halt key tells the limiter to refuse
// their slots (checked in the same script that grants slots), and the worker gives the claims back.
// The key only has to outlive the waits of trials claimed before the halt, hence the short expiry; losing it
// (Redis flushed) lets at most those trials go out, as if they had been in flight at the pause.

const HALT_TTL_MS = 60 * 60 * 1000;

export function haltKey(runId: string, prefix = queuePrefix()): string {
  return `${prefix}:halt:${runId}`;
}

export async function haltRun(runId: string): Promise<void> {
  await queues().connection.set(haltKey(runId), '1', 'PX', HALT_TTL_MS);
}

export async function clearHalt(runId: string): Promise<void> {
  await queues().connection.del(haltKey(runId));
}
