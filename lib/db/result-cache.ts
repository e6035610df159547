import { COMPLETED_RUN_STATUSES } from '../schema/run-status';
import { pool } from './client';

// Results at scale (docs/statistics.md): what Table 1 and the compare page are computed from (per-cluster
// counts) is stored once computed, keyed by the run's results version, and read back only while that
// version is still the run's — so a stored value can never disagree with the trials. A finished run is
// aggregated once; a run in progress is recomputed once per new version (and not at all between two).
//
// The results version of a run in progress: per trial status, how many trials, their latest finish and the sum of their
// lease tokens. Every claim bumps a lease token (the sum grows); every other change of a trial moves it out
// of `running` or `queued` into a final status (stamping finished_at) or back to `queued`, and the
// observation and verdicts are written in the statement that makes the trial final (lib/db/trials.ts
// RECORD_SQL): so no two states a run passes through share a version.

/** Bumped whenever what is stored changes shape or meaning: entries of an older format are never read. */
export const RESULT_CACHE_FORMAT = 'r1';

const VERSION_SQL = `
  SELECT $2::text || coalesce(string_agg(s.status || ':' || s.n || ':' || s.leases || ':' || coalesce(s.last, ''), ';' ORDER BY s.status COLLATE "C"), '') AS version
    FROM (SELECT status, count(*)::text AS n, sum(lease_token)::text AS leases, to_char(max(finished_at), 'YYYYMMDDHH24MISSUS') AS last
            FROM trials WHERE run_id = $1 GROUP BY status) s`;

/**
 * The run's results version (see above). A completed run (completed / completed_with_unresolved) has nothing
 * queued or running and no way back, so its trials change no more: its version is fixed (its progress was
 * frozen by the statement that completed it, lib/db/runs.ts completeRunIfDone) and costs one row to read.
 */
export async function resultsVersion(runId: string): Promise<string> {
  const frozen = await pool().query<{ finished: string }>(
    `SELECT to_char(finished_at, 'YYYYMMDDHH24MISSUS') AS finished FROM runs WHERE id = $1 AND status = ANY($2::text[]) AND final_progress IS NOT NULL`,
    [runId, COMPLETED_RUN_STATUSES],
  );
  if (frozen.rows.length > 0) return `${RESULT_CACHE_FORMAT};completed;${frozen.rows[0].finished}`;
  return liveResultsVersion(runId);
}

/** Whether a results version is a completed run's (fixed: its trials change no more). */
export const isFrozenResultsVersion = (version: string): boolean => version.startsWith(`${RESULT_CACHE_FORMAT};completed;`);

/** The results version counted from the trials (what a run in progress is keyed by). */
export async function liveResultsVersion(runId: string): Promise<string> {
  const r = await pool().query<{ version: string }>(VERSION_SQL, [runId, `${RESULT_CACHE_FORMAT};`]);
  return r.rows[0].version;
}

async function versionsOf(runIds: readonly string[]): Promise<string> {
  return (await Promise.all(runIds.map(resultsVersion))).join('|');
}

/**
 * cachedResult for a value stored as the JSON text it is written as (jsonb would reorder its keys, and an
 * export writes the value as it is): parsed from that text both when read and when just computed, so the two
 * are the same value.
 */
export async function cachedJsonText<T>(
  runIds: readonly [string, ...string[]],
  key: string,
  compute: () => Promise<T>,
  opts: { onlyCompleted?: boolean } = {},
): Promise<T> {
  const text = await cachedResult(runIds, key, async () => JSON.stringify(await compute()), { encode: (x) => x, decode: (x) => x as string }, opts);
  return JSON.parse(text) as T;
}

/**
 * The value stored under `key` for these runs' current results version, else `compute()` — stored when the
 * version after computing is the one before (nothing changed meanwhile). `runIds[0]` owns the entry (it is
 * deleted with that run); the version is every listed run's. `onlyCompleted`: stored for completed runs only.
 */
export async function cachedResult<T>(
  runIds: readonly [string, ...string[]],
  key: string,
  compute: () => Promise<T>,
  codec: { encode: (value: T) => unknown; decode: (stored: unknown) => T },
  opts: { onlyCompleted?: boolean } = {},
): Promise<T> {
  const version = await versionsOf(runIds);
  // a value cheap enough to count each time while a run moves (it would be stale at the next poll anyway)
  if (opts.onlyCompleted && !version.split('|').every(isFrozenResultsVersion)) return compute();
  const hit = await pool().query<{ value: unknown }>(`SELECT value FROM result_cache WHERE run_id = $1 AND key = $2 AND version = $3`, [runIds[0], key, version]);
  if (hit.rows.length > 0) return codec.decode(hit.rows[0].value);
  const value = await compute();
  if ((await versionsOf(runIds)) === version)
    await pool().query(
      `INSERT INTO result_cache (run_id, key, version, value) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (run_id, key) DO UPDATE SET version = EXCLUDED.version, value = EXCLUDED.value, computed_at = now()`,
      [runIds[0], key, version, JSON.stringify(codec.encode(value))],
    );
  return value;
}
