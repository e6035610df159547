import type { ProviderAnswer } from '../schema/request';
import type { StoredTurn } from '../schema/turn';
import { pool } from './client';
import { attemptRequestSql, splitCatalog } from './catalogs';
import { attemptIdOf, type SendingTrial } from './trials';
import { jsonbText, restoreFromJsonb } from './jsonb-escape';

// Turns of a conversation trial (task studies): stored one by one as they complete, each fenced on the
// claim's lease token like every result write, so a worker that lost the trial cannot add a turn.

type Holder = Pick<SendingTrial, 'id' | 'runId' | 'leaseToken' | 'sentAtMs'>;

/** The stored turns of a trial, oldest first. */
export async function loadTurns(trialId: string): Promise<StoredTurn[]> {
  const r = await pool().query(`SELECT n, attempt_n, observation, calls, results, evidence FROM turns WHERE trial_id = $1 ORDER BY n`, [trialId]);
  // restored as they were before escapeForJsonb: the conversation goes on with what the model really said
  return r.rows.map((x) => restoreFromJsonb({ n: x.n, attemptN: x.attempt_n, observation: x.observation, calls: x.calls, results: x.results, evidence: x.evidence }));
}

function bodyText(value: unknown, text: string | undefined, ifNone: string): string {
  if (text !== undefined) return text;
  return value === undefined || value === null ? ifNone : JSON.stringify(value);
}

/**
 * Store one completed turn with the attempt that answered it, in one statement, only while the claim still
 * holds the trial. `details` (the kind's result, e.g. the fixture states and log) is written with the final
 * turn. `result` null: the turn's attempt is stored already (a resumed trial scoring its last stored turn).
 * False: fenced out.
 */
export async function storeTurn(h: Holder, turn: StoredTurn, result: ProviderAnswer | null, details: unknown = null): Promise<boolean> {
  // the request's tool catalog is stored once (lib/db/catalogs.ts); the attempt refers to it
  const { request, catalog } = splitCatalog(bodyText(result?.request, result?.requestJson, '{}'));
  const r = await pool().query(
    `WITH fence AS (
       SELECT id FROM trials WHERE id = $1 AND lease_token = $2 AND status = 'running' FOR UPDATE
     ), a AS (
       INSERT INTO attempts (id, run_id, trial_id, n, kind, turn, request, catalog_id, catalog_at, response, response_raw, outcome, http_status, latency_ms, input_tokens, output_tokens, lease_token, started_at, finished_at)
       SELECT $4, $3, f.id, $5, 'formal', $6, $7::json, tclab_catalog_id($20::text, $22::text), $21, $8::json, $23::bytea, 'ok', $9, $10, $11, $12, $2, to_timestamp($13::float8 / 1000), now()
         FROM fence f WHERE $14::boolean
       ON CONFLICT (id) DO UPDATE SET request = EXCLUDED.request, catalog_id = EXCLUDED.catalog_id, catalog_at = EXCLUDED.catalog_at, response = EXCLUDED.response, response_raw = EXCLUDED.response_raw, outcome = EXCLUDED.outcome, turn = EXCLUDED.turn,
              http_status = EXCLUDED.http_status, latency_ms = EXCLUDED.latency_ms, input_tokens = EXCLUDED.input_tokens,
              output_tokens = EXCLUDED.output_tokens, lease_token = EXCLUDED.lease_token, finished_at = EXCLUDED.finished_at
     ), t AS (
       INSERT INTO turns (trial_id, n, run_id, attempt_n, observation, calls, results, evidence, lease_token)
       SELECT f.id, $6, $3, $5, $15::jsonb, $16::jsonb, $17::jsonb, $18::jsonb, $2 FROM fence f
       ON CONFLICT (trial_id, n) DO NOTHING
     ), d AS (
       UPDATE trials SET details = $19::jsonb WHERE id IN (SELECT id FROM fence) AND $19::jsonb IS NOT NULL
     )
     SELECT count(*)::int AS won FROM fence`,
    [
      h.id,
      h.leaseToken,
      h.runId,
      attemptIdOf(h.id, turn.attemptN),
      turn.attemptN,
      turn.n,
      request,
      bodyText(result?.response, result?.responseJson, 'null'),
      result?.httpStatus ?? null,
      result ? Math.round(result.latencyMs) : null,
      result?.usage?.inputTokens ?? null,
      result?.usage?.outputTokens ?? null,
      h.sentAtMs,
      result !== null,
      jsonbText(turn.observation),
      jsonbText(turn.calls),
      jsonbText(turn.results),
      jsonbText(turn.evidence ?? null),
      details === null ? null : jsonbText(details),
      catalog?.ref ?? null,
      catalog?.at ?? null,
      catalog?.body ?? null,
      result?.responseRaw ? Buffer.from(result.responseRaw) : null,
    ],
  );
  return r.rows[0].won === 1;
}

/** Mark which turn an attempt was for (a transport error's attempt is written by lib/db/trials.ts). */
export async function setAttemptTurn(trialId: string, attemptN: number, turn: number): Promise<void> {
  await pool().query(`UPDATE attempts SET turn = $3 WHERE id = $1 AND n = $2`, [attemptIdOf(trialId, attemptN), attemptN, turn]);
}

/** A stored attempt's exchange as a provider result (a resumed trial scoring a turn stored before the crash). */
export async function loadAttemptResult(trialId: string, attemptN: number, observation: ProviderAnswer['observation']): Promise<ProviderAnswer> {
  const r = await pool().query(
    `SELECT ${attemptRequestSql('a')}::text AS request, a.response::text AS response, a.response_raw, http_status, latency_ms, input_tokens, output_tokens FROM attempts a WHERE a.id = $1`,
    [attemptIdOf(trialId, attemptN)],
  );
  const x = r.rows[0];
  if (!x) throw new Error(`trial ${trialId}: attempt ${attemptN} of a stored turn is missing`);
  return {
    request: null,
    response: null,
    requestJson: x.request,
    responseJson: x.response ?? 'null',
    ...(x.response_raw ? { responseRaw: new Uint8Array(x.response_raw as Buffer) } : {}),
    httpStatus: x.http_status,
    latencyMs: x.latency_ms ?? 0,
    usage: x.input_tokens === null && x.output_tokens === null ? null : { inputTokens: x.input_tokens, outputTokens: x.output_tokens },
    outcome: 'ok',
    observation,
  };
}
