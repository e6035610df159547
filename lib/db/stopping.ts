import { StopDecisions } from '../schema/stopping';
import { pool } from './client';

// Stop when decided, in the database (docs/statistics.md): the trials the rule looks at, the decisions stored
// on the run (each written once: a decision already there is never replaced), and the unsent pairs of a
// decided study cancelled.

export interface StoppingTrialRow {
  study: string;
  pairKey: string;
  condition: string;
  status: string;
  batch: number;
}

/** Every trial of a run with what the stopping rule needs (study, pair, condition, status, batch). */
export async function stoppingTrials(runId: string): Promise<StoppingTrialRow[]> {
  const r = await pool().query<{ study: string; pair_key: string; condition: string; status: string; batch: number }>(
    `SELECT study, pair_key, condition, status, batch FROM trials WHERE run_id = $1`,
    [runId],
  );
  return r.rows.map((x) => ({ study: x.study, pairKey: x.pair_key, condition: x.condition, status: x.status, batch: x.batch }));
}

/** The decisions stored on a run ({} when none was made). */
export async function storedStopDecisions(runId: string): Promise<StopDecisions> {
  const r = await pool().query<{ stopping: unknown }>(`SELECT stopping FROM runs WHERE id = $1`, [runId]);
  return StopDecisions.parse(r.rows[0]?.stopping ?? {});
}

/** Adds decisions to the run; one already stored for a comparison is kept (the first look that decided it wins). Returns the stored set. */
export async function addStopDecisions(runId: string, decisions: StopDecisions): Promise<StopDecisions> {
  const r = await pool().query<{ stopping: unknown }>(`UPDATE runs SET stopping = $2::jsonb || COALESCE(stopping, '{}'::jsonb) WHERE id = $1 RETURNING stopping`, [
    runId,
    JSON.stringify(StopDecisions.parse(decisions)),
  ]);
  return StopDecisions.parse(r.rows[0]?.stopping ?? {});
}

/**
 * A decided study sends no new pair: its pairs none of whose members has been claimed or sent (all queued,
 * no attempt) are cancelled. A pair with a member in flight or waiting for a retry goes on and is recorded.
 * Returns how many trials were cancelled.
 */
export async function cancelUnsentPairs(runId: string, study: string): Promise<number> {
  const r = await pool().query<{ n: number }>(
    `WITH started AS (
       SELECT DISTINCT pair_key FROM trials WHERE run_id = $1 AND study = $2 AND (status <> 'queued' OR attempt_count > 0)
     ), t AS (
       UPDATE trials SET status = 'cancelled', finished_at = now()
        WHERE run_id = $1 AND study = $2 AND status = 'queued' AND attempt_count = 0
          AND pair_key NOT IN (SELECT pair_key FROM started)
        RETURNING id
     )
     SELECT count(*)::int AS n FROM t`,
    [runId, study],
  );
  return r.rows[0].n;
}
