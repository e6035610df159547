import { transportFailureOf, type ProviderResult } from '../schema/request';
import { splitCatalog } from './catalogs';
import { pool } from './client';
import { escapeForJsonb } from './jsonb-escape';
import { lapsedHolder, precheckHolderOf } from './holders';

// Pre-checks are durable. The process sending a run's pre-checks holds a lease on the run (owner + expiry);
// every request is an attempt row (kind `precheck`, trial_id NULL: in no denominator) written `sending`
// immediately before it leaves and completed with its answer. A run in `prechecking` whose lease ran out is
// taken over by reconcile or `resume`: the takeover turns the dead holder's sending mark into `lost` and
// goes on from the first pre-check that has no answer yet.
//
// The holder also keeps a heartbeat (./holders): its owner is `<holder id>#<claim>`, and a run whose holder's
// heartbeat lapsed is taken over like one whose lease ran out. Every claim has an owner of its own, so the
// writes of a claim that was taken over fail even in the process that took it over.

const LAPSED = lapsedHolder(precheckHolderOf('precheck_owner'));

const LOST_MESSAGE = `'the process stopped after sending; the answer, if any, was lost'`;

export type PrecheckClaim = { ok: true } | { ok: false; status: string; leaseExpiresAt: Date | null };

/**
 * Take the run's pre-checks: a run `created` (or `paused` before it ever started), or `prechecking` under an
 * expired lease or under a holder whose heartbeat lapsed. `from` says which statuses may be taken. Sending marks of an earlier holder become `lost`.
 */
export async function claimPrecheck(runId: string, owner: string, leaseMs: number, from: readonly string[] = ['created', 'prechecking']): Promise<PrecheckClaim> {
  const r = await pool().query<{ won: number; status: string | null; lease: Date | null }>(
    `WITH c AS (
       UPDATE runs SET status = 'prechecking', status_reason = NULL, precheck_owner = $2,
              precheck_lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
        WHERE id = $1 AND started_at IS NULL AND status = ANY($4::text[])
          AND (status <> 'prechecking' OR precheck_lease_expires_at IS NULL OR precheck_lease_expires_at < now() OR ${LAPSED})
        RETURNING id
     ), lost AS (
       UPDATE attempts a SET outcome = 'lost', error_kind = 'lost', error_message = ${LOST_MESSAGE}, finished_at = now()
         FROM c WHERE a.run_id = c.id AND a.kind = 'precheck' AND a.outcome = 'sending'
     )
     SELECT (SELECT count(*) FROM c)::int AS won, r.status, r.precheck_lease_expires_at AS lease FROM runs r WHERE r.id = $1`,
    [runId, owner, leaseMs, from],
  );
  const x = r.rows[0];
  if (!x) return { ok: false, status: 'missing', leaseExpiresAt: null };
  return x.won === 1 ? { ok: true } : { ok: false, status: x.status ?? 'missing', leaseExpiresAt: x.lease };
}

/** Extend the holder's lease (before a request, across a backoff). False: the holder lost the run. */
export async function renewPrecheckLease(runId: string, owner: string, leaseMs: number): Promise<boolean> {
  const r = await pool().query(
    `UPDATE runs SET precheck_lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
      WHERE id = $1 AND status = 'prechecking' AND precheck_owner = $2`,
    [runId, owner, leaseMs],
  );
  return r.rowCount === 1;
}

/**
 * Book a pre-check request as sent, immediately before it leaves: its attempt row (outcome `sending`, the
 * next number) and the lease renewed to cover it, only while `owner` holds the run's pre-checks and its
 * heartbeat has not lapsed. Null: the run was paused, cancelled or taken over — nothing may be sent.
 */
export async function markPrecheckSending(runId: string, owner: string, leaseMs: number): Promise<number | null> {
  const r = await pool().query<{ n: number }>(
    `WITH r AS (
       UPDATE runs SET precheck_lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
        WHERE id = $1 AND status = 'prechecking' AND precheck_owner = $2 AND NOT ${LAPSED}
        RETURNING id
     )
     INSERT INTO attempts (id, run_id, trial_id, n, kind, request, outcome, started_at)
     SELECT r.id || '-pc' || s.n, r.id, NULL, s.n, 'precheck', '{"note":"sent; the request is stored with its answer"}'::json, 'sending', now()
       FROM r, (SELECT COALESCE(max(n), 0) + 1 AS n FROM attempts WHERE run_id = $1 AND kind = 'precheck') s
     RETURNING n`,
    [runId, owner, leaseMs],
  );
  return r.rows[0]?.n ?? null;
}

/** The answer of pre-check attempt n (always stored: it happened). */
export async function recordPrecheckAttempt(runId: string, n: number, result: ProviderResult): Promise<void> {
  const failure = transportFailureOf(result);
  // the request's tool catalog is stored once (lib/db/catalogs.ts); the attempt refers to it
  const { request, catalog } = splitCatalog(result.requestJson ?? JSON.stringify(result.request ?? {}));
  await pool().query(
    `UPDATE attempts SET request = $3::json, catalog_id = tclab_catalog_id($13::text, $15::text), catalog_at = $14, response = $4::json, response_raw = $16, outcome = $5, error_kind = $6, error_message = $7,
            http_status = $8, retry_after_ms = $9, latency_ms = $10, input_tokens = $11, output_tokens = $12, finished_at = now()
      WHERE id = $1 || '-pc' || $2`,
    [
      runId,
      n,
      request,
      result.responseJson ?? (result.response == null ? null : JSON.stringify(result.response)),
      result.outcome,
      failure?.kind ?? null,
      failure ? escapeForJsonb(failure.message) : null,
      result.httpStatus,
      failure?.retryAfterMs ?? null,
      Math.round(result.latencyMs),
      result.usage?.inputTokens ?? null,
      result.usage?.outputTokens ?? null,
      catalog?.ref ?? null,
      catalog?.at ?? null,
      catalog?.body ?? null,
      result.responseRaw ? Buffer.from(result.responseRaw) : null,
    ],
  );
}

/** Where a run's pre-checks stand: how many have passed, and how many attempts the next one has had. */
export async function precheckProgress(runId: string): Promise<{ passed: number; attemptsOfNext: number }> {
  const r = await pool().query<{ outcome: string }>(`SELECT outcome FROM attempts WHERE run_id = $1 AND kind = 'precheck' ORDER BY n`, [runId]);
  let passed = 0;
  let attemptsOfNext = 0;
  for (const a of r.rows) {
    if (a.outcome === 'ok') {
      passed++;
      attemptsOfNext = 0;
    } else attemptsOfNext++;
  }
  return { passed, attemptsOfNext };
}

/** The pre-checks passed: the run goes to `running`, fenced on the holder. */
export async function finishPrecheck(runId: string, owner: string): Promise<boolean> {
  const r = await pool().query(
    `UPDATE runs SET status = 'running', started_at = COALESCE(started_at, now()), precheck_owner = NULL, precheck_lease_expires_at = NULL
      WHERE id = $1 AND status = 'prechecking' AND precheck_owner = $2`,
    [runId, owner],
  );
  return r.rowCount === 1;
}

/** The pre-checks failed: the run is `failed` (it never started) and its trials will not be sent. */
export async function failPrecheck(runId: string, owner: string | null, reason: string): Promise<boolean> {
  const r = await pool().query<{ won: number }>(
    `WITH f AS (
       UPDATE runs SET status = 'failed', status_reason = $3, finished_at = now(), precheck_owner = NULL, precheck_lease_expires_at = NULL
        WHERE id = $1 AND status IN ('created', 'prechecking') AND ($2::text IS NULL OR precheck_owner = $2)
        RETURNING id
     ), t AS (
       UPDATE trials SET status = 'cancelled', finished_at = now() FROM f WHERE trials.run_id = f.id AND trials.status = 'queued'
     )
     SELECT count(*)::int AS won FROM f`,
    [runId, owner, reason],
  );
  return r.rows[0].won === 1;
}

/** Runs left in `prechecking` whose holder's lease ran out or heartbeat lapsed (its process is gone): reconcile takes them over. */
export async function stalePrecheckRunIds(): Promise<string[]> {
  const r = await pool().query<{ id: string }>(
    `SELECT id FROM runs WHERE status = 'prechecking' AND (precheck_lease_expires_at IS NULL OR precheck_lease_expires_at < now() OR ${LAPSED})`,
  );
  return r.rows.map((x) => x.id);
}
