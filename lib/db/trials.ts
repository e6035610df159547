import type { TrialSpec } from '../design/matrix';
import { trialIdOf } from '../design/matrix';
import type { Observation } from '../spec/observation';
import type { CheckStatus, Checkpoint, Verdict } from '../spec/verdict';
import type { TrialStatus } from '../spec/run';
import type { ProviderResult } from '../providers/types';
import { pool } from './client';

// The hot path of a run, in hand-written SQL: two round trips per attempt (claim, record).
// Fencing: a claim bumps lease_token; every write of a result is conditioned on the token the writer
// holds, so a redelivered job, a second worker or a worker back from the dead cannot write twice.

const CHUNK = 2000;

export async function insertTrials(runId: string, trials: TrialSpec[]): Promise<void> {
  for (let i = 0; i < trials.length; i += CHUNK) {
    const part = trials.slice(i, i + CHUNK);
    await pool().query(
      `INSERT INTO trials (id, run_id, trial_key, pair_key, study, kind, scenario, locale, case_id, condition, "order", replicate, tool_set_ref)
       SELECT u.id, $1, u.trial_key, u.pair_key, u.study, u.kind, u.scenario, u.locale, u.case_id, u.condition, u.ord::jsonb, u.replicate, u.tool_set_ref
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::text[])
           AS u(id, trial_key, pair_key, study, kind, scenario, locale, case_id, condition, ord, replicate, tool_set_ref)
       ON CONFLICT (run_id, trial_key) DO NOTHING`,
      [
        runId,
        part.map((t) => trialIdOf(runId, t.trialKey)),
        part.map((t) => t.trialKey),
        part.map((t) => t.pairKey),
        part.map((t) => t.study),
        part.map((t) => t.kind),
        part.map((t) => t.scenario),
        part.map((t) => t.locale),
        part.map((t) => t.caseId),
        part.map((t) => t.condition),
        part.map((t) => JSON.stringify(t.order)),
        part.map((t) => t.replicate),
        part.map((t) => t.toolSetRef),
      ],
    );
  }
}

export interface ClaimedTrial {
  id: string;
  runId: string;
  trialKey: string;
  study: string;
  kind: string;
  scenario: string;
  locale: string;
  caseId: string;
  condition: string;
  order: string[];
  leaseToken: number;
  attemptN: number;
  attemptId: string;
  lostAttempts: number;
}

export type ClaimRefusal =
  | { reason: 'missing' }
  | { reason: 'final'; status: string }
  | { reason: 'run-not-running'; runStatus: string }
  | { reason: 'leased'; leaseExpiresAt: Date }
  | { reason: 'not-before'; notBefore: Date }
  | { reason: 'exhausted'; attempts: number };

/**
 * Claim a trial by compare-and-set: queued (and due), or running under an expired lease (its holder died).
 * Attempts left `sent` by a dead holder become `lost` (the answer may have been lost); a new attempt row
 * is written before anything is sent, so a crash after sending is always visible.
 */
export async function claimTrial(trialId: string, owner: string, leaseMs: number, maxAttempts: number): Promise<ClaimedTrial | ClaimRefusal> {
  const r = await pool().query(
    `WITH c AS (
       UPDATE trials t SET status = 'running', lease_token = t.lease_token + 1, lease_owner = $2,
              lease_expires_at = now() + make_interval(secs => $3::double precision / 1000),
              attempt_count = t.attempt_count + 1, not_before = NULL
         FROM runs r
        WHERE t.id = $1 AND r.id = t.run_id AND r.status = 'running'
          AND ((t.status = 'queued' AND (t.not_before IS NULL OR t.not_before <= now()))
               OR (t.status = 'running' AND t.lease_expires_at < now()))
          AND t.attempt_count < $4
        RETURNING t.*
     ), lost AS (
       UPDATE attempts a SET outcome = 'lost', error_kind = 'lost', finished_at = now(),
              error_message = 'the worker stopped after sending; the answer, if any, was lost'
         FROM c WHERE a.trial_id = c.id AND a.kind = 'formal' AND a.outcome = 'sent'
        RETURNING a.id
     ), ins AS (
       INSERT INTO attempts (id, run_id, trial_id, n, kind, request, outcome, lease_token)
       SELECT c.id || '-a' || c.attempt_count, c.run_id, c.id, c.attempt_count, 'formal',
              '{"note":"claimed; request not yet recorded"}'::jsonb, 'sent', c.lease_token
         FROM c
       RETURNING id
     )
     SELECT c.id, c.run_id, c.trial_key, c.study, c.kind, c.scenario, c.locale, c.case_id, c.condition, c."order",
            c.lease_token, c.attempt_count, ins.id AS attempt_id, (SELECT count(*) FROM lost)::int AS lost
       FROM c, ins`,
    [trialId, owner, leaseMs, maxAttempts],
  );
  if (r.rowCount) {
    const x = r.rows[0];
    return {
      id: x.id,
      runId: x.run_id,
      trialKey: x.trial_key,
      study: x.study,
      kind: x.kind,
      scenario: x.scenario,
      locale: x.locale,
      caseId: x.case_id,
      condition: x.condition,
      order: x.order,
      leaseToken: x.lease_token,
      attemptN: x.attempt_count,
      attemptId: x.attempt_id,
      lostAttempts: x.lost,
    };
  }
  const why = await pool().query(
    `SELECT t.status, t.not_before, t.lease_expires_at, t.attempt_count, r.status AS run_status
       FROM trials t JOIN runs r ON r.id = t.run_id WHERE t.id = $1`,
    [trialId],
  );
  const w = why.rows[0];
  if (!w) return { reason: 'missing' };
  if (w.status !== 'queued' && w.status !== 'running') return { reason: 'final', status: w.status };
  if (w.run_status !== 'running') return { reason: 'run-not-running', runStatus: w.run_status };
  if (w.status === 'running' && w.lease_expires_at >= new Date()) return { reason: 'leased', leaseExpiresAt: w.lease_expires_at };
  if (w.attempt_count >= maxAttempts) return { reason: 'exhausted', attempts: w.attempt_count };
  if (w.status === 'running') return { reason: 'leased', leaseExpiresAt: w.lease_expires_at };
  return { reason: 'not-before', notBefore: w.not_before };
}

function attemptParams(r: ProviderResult) {
  return [
    JSON.stringify(r.request ?? {}),
    r.response === undefined || r.response === null ? null : JSON.stringify(r.response),
    r.outcome,
    r.error?.kind ?? null,
    r.error?.message ?? null,
    r.httpStatus,
    r.error?.retryAfterMs ?? null,
    Math.round(r.latencyMs),
    r.usage?.inputTokens ?? null,
    r.usage?.outputTokens ?? null,
  ];
}

const UPDATE_ATTEMPT = `UPDATE attempts SET request = $2::jsonb, response = $3::jsonb, outcome = $4, error_kind = $5, error_message = $6,
       http_status = $7, retry_after_ms = $8, latency_ms = $9, input_tokens = $10, output_tokens = $11, finished_at = now()
     WHERE id = $1`;

/**
 * Record a model answer as the trial's one formal result, in one statement. The attempt is always
 * recorded (it happened); observation, verdicts and the final status only if the lease is still ours.
 * Returns false when fenced out (someone else now holds the trial).
 */
export async function recordResult(
  t: Pick<ClaimedTrial, 'id' | 'attemptId' | 'leaseToken'>,
  result: ProviderResult,
  observation: Observation,
  verdicts: Verdict[],
  checkpoints: Record<Checkpoint, CheckStatus>,
  status: Extract<TrialStatus, 'passed' | 'failed' | 'untested'>,
): Promise<boolean> {
  const r = await pool().query(
    `WITH a AS (${UPDATE_ATTEMPT} RETURNING id),
     t AS (
       UPDATE trials SET status = $14, finished_at = now(), lease_expires_at = NULL, checkpoints = $22::jsonb
        WHERE id = $12 AND lease_token = $13 AND status = 'running' RETURNING id
     ), o AS (
       INSERT INTO observations (trial_id, attempt_id, tool_calls, marker, label, text, refusal, malformed)
       SELECT t.id, $1, $15::jsonb, $16, $17, $18, $19, $20 FROM t
       RETURNING trial_id
     ), v AS (
       INSERT INTO verdicts (trial_id, check_id, axis, status, category, reason, evidence)
       SELECT t.id, x.check_id, x.axis, x.status, x.category, x.reason, x.evidence
         FROM t, jsonb_to_recordset($21::jsonb) AS x(check_id text, axis text, status text, category text, reason text, evidence jsonb)
       RETURNING trial_id
     )
     SELECT (SELECT count(*) FROM t)::int AS won, (SELECT count(*) FROM a)::int AS recorded`,
    [
      t.attemptId,
      ...attemptParams(result),
      t.id,
      t.leaseToken,
      status,
      JSON.stringify(observation.toolCalls),
      observation.marker,
      observation.label,
      observation.text,
      observation.refusal,
      observation.malformed,
      JSON.stringify(
        verdicts.map((v) => ({
          check_id: v.checkId,
          axis: v.axis,
          status: v.status,
          category: v.category,
          reason: v.reason,
          evidence: { ...v.evidence, checkpoint: v.checkpoint },
        })),
      ),
      JSON.stringify(checkpoints),
    ],
  );
  return r.rows[0].won === 1;
}

/**
 * Record a transport error. `next` says what becomes of the trial: `retry` (queued again, due at
 * notBefore), `unresolved` (attempts exhausted: outside every denominator) or `hold` (queued, run stopped).
 */
export async function recordTransportError(
  t: Pick<ClaimedTrial, 'id' | 'attemptId' | 'leaseToken'>,
  result: ProviderResult,
  next: { kind: 'retry'; notBefore: Date } | { kind: 'unresolved' } | { kind: 'hold' },
): Promise<boolean> {
  const status = next.kind === 'unresolved' ? 'unresolved' : 'queued';
  const notBefore = next.kind === 'retry' ? next.notBefore : null;
  const r = await pool().query(
    `WITH a AS (${UPDATE_ATTEMPT} RETURNING id),
     t AS (
       UPDATE trials SET status = $14, not_before = $15, lease_owner = NULL, lease_expires_at = NULL,
              finished_at = CASE WHEN $14 = 'unresolved' THEN now() ELSE NULL END
        WHERE id = $12 AND lease_token = $13 AND status = 'running' RETURNING id
     )
     SELECT (SELECT count(*) FROM t)::int AS won`,
    [t.attemptId, ...attemptParams(result), t.id, t.leaseToken, status, notBefore],
  );
  return r.rows[0].won === 1;
}

/** Trials of a run that are not final and may need a job (reconcile). */
export async function pendingTrialIds(runId: string): Promise<{ id: string; notBefore: Date | null }[]> {
  const r = await pool().query<{ id: string; not_before: Date | null }>(
    `SELECT id, not_before FROM trials
      WHERE run_id = $1 AND (status = 'queued' OR (status = 'running' AND lease_expires_at < now()))`,
    [runId],
  );
  return r.rows.map((x) => ({ id: x.id, notBefore: x.not_before }));
}

/** Cancel: queued trials will not be sent. What was sent stays recorded. */
export async function cancelQueuedTrials(runId: string): Promise<number> {
  const r = await pool().query(`UPDATE trials SET status = 'cancelled', finished_at = now() WHERE run_id = $1 AND status = 'queued'`, [runId]);
  return r.rowCount ?? 0;
}

/**
 * Attempts exhausted without a model answer (e.g. every holder died after sending): unresolved, outside
 * every denominator. Attempts still marked `sent` become `lost`.
 */
export async function markExhausted(trialId: string): Promise<boolean> {
  const r = await pool().query(
    `WITH t AS (
       UPDATE trials SET status = 'unresolved', finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND lease_expires_at < now())) RETURNING id
     ), lost AS (
       UPDATE attempts a SET outcome = 'lost', error_kind = 'lost', finished_at = now(),
              error_message = 'the worker stopped after sending; the answer, if any, was lost'
         FROM t WHERE a.trial_id = t.id AND a.kind = 'formal' AND a.outcome = 'sent' RETURNING a.id
     )
     SELECT (SELECT count(*) FROM t)::int AS won, (SELECT count(*) FROM lost)::int AS lost`,
    [trialId],
  );
  return r.rows[0].won === 1;
}
