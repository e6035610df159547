import { transportFailureOf, type ProviderResult } from '../schema/request';
import { pool } from './client';

/** Pre-check attempts belong to the run, not to a trial, and never enter a denominator. */
export async function insertPrecheckAttempt(runId: string, result: ProviderResult): Promise<number> {
  const failure = transportFailureOf(result);
  const r = await pool().query<{ n: number }>(
    `INSERT INTO attempts (id, run_id, trial_id, n, kind, request, response, outcome, error_kind, error_message,
                           http_status, retry_after_ms, latency_ms, input_tokens, output_tokens, finished_at)
     SELECT $1 || '-pc' || n, $1, NULL, n, 'precheck', $2::json, $3::json, $4, $5, $6, $7, $8, $9, $10, $11, now()
       FROM (SELECT COALESCE(max(n), 0) + 1 AS n FROM attempts WHERE run_id = $1 AND kind = 'precheck') s
     RETURNING n`,
    [
      runId,
      JSON.stringify(result.request ?? {}),
      result.response == null ? null : JSON.stringify(result.response),
      result.outcome,
      failure?.kind ?? null,
      failure?.message ?? null,
      result.httpStatus,
      failure?.retryAfterMs ?? null,
      Math.round(result.latencyMs),
      result.usage?.inputTokens ?? null,
      result.usage?.outputTokens ?? null,
    ],
  );
  return r.rows[0].n;
}
