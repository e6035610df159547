import { randomUUID } from 'node:crypto';
import { lapsedHolder } from './holders';
import { pool } from './client';
import { trialPlaceOf, type TrialPlace, type TrialPlaceRow } from './trials';

// Batch mode's storage (docs/batch.md › Exactly once). A provider batch is a row claimed like a trial:
//  - createBatch, in one transaction, hands the claimed trials' attempts (already booked `sending` by
//    markSending) to the batch: each trial's lease owner becomes `batch:<id>` with the batch's long lease —
//    fenced on the trial's lease token and attempt number — and the batch row is written `submitting`, held
//    by the worker. A `batch:` owner has no heartbeat row, so no other worker takes such a trial over while
//    the batch lives; the trial's lease token is unchanged, so its answer is recorded through the engine's
//    usual fenced statement (lib/db/trials.ts recordResult) with the token kept on the item.
//  - recordSubmitted writes the provider's id, fenced on the batch's fence; from then on the batch is only
//    ever polled, by whoever holds it. A holder whose heartbeat lapsed or whose lease ran out is taken over
//    by claimBatch, which bumps the fence, so a stale holder's writes are refused.
//  - A batch still `submitting` when taken over may or may not have reached the provider (the process died
//    between the send and the write): it is never sent again; its items are closed as `lost` by the run's
//    policy (the provider's copy, if any, is never read).

export type StoredBatchState = 'submitting' | 'accepted' | 'in_progress' | 'completed' | 'expired' | 'cancelled' | 'failed' | 'recorded';

export interface BatchItemRow {
  trialId: string;
  attemptN: number;
  customId: string;
  /** The trial's lease token when it was handed to the batch: the fence of its result. */
  leaseToken: number;
  recorded: boolean;
}

export interface HeldBatch {
  id: string;
  runId: string;
  provider: string;
  providerBatchId: string | null;
  state: StoredBatchState;
  fence: number;
  holder: string;
}

export interface BatchView {
  id: string;
  provider: string;
  providerBatchId: string | null;
  state: StoredBatchState;
  itemCount: number;
  succeeded: number;
  failed: number;
  submittedAt: Date | null;
  polledAt: Date | null;
  endedAt: Date | null;
}

/** The owner a trial gets while a batch carries its attempt. */
export const batchOwner = (batchId: string) => `batch:${batchId}`;

export interface NewBatchItem {
  trialId: string;
  attemptN: number;
  leaseToken: number;
  customId: string;
}

/**
 * Hands the attempts to a new batch held by `holder`; the items whose trial the caller no longer holds (fenced
 * out) are left out. Null when none is left (no batch is written).
 */
export async function createBatch(input: {
  runId: string;
  provider: string;
  holder: string;
  leaseMs: number;
  batchLeaseMs: number;
  items: NewBatchItem[];
}): Promise<{ batch: HeldBatch; items: NewBatchItem[] } | null> {
  const id = randomUUID();
  const client = await pool().connect();
  try {
    await client.query('BEGIN');
    const taken = await client.query<{ id: string; n: number; lease_token: number }>(
      `WITH x AS (SELECT * FROM unnest($1::text[], $2::int[], $3::int[]) AS x(trial_id, n, lease_token))
       UPDATE trials t SET lease_owner = $4, lease_expires_at = now() + make_interval(secs => $5::float8 / 1000)
         FROM x WHERE t.id = x.trial_id AND t.lease_token = x.lease_token AND t.attempt_count = x.n AND t.status = 'running'
       RETURNING t.id, x.n, x.lease_token`,
      [input.items.map((i) => i.trialId), input.items.map((i) => i.attemptN), input.items.map((i) => i.leaseToken), batchOwner(id), input.batchLeaseMs],
    );
    const kept = new Set(taken.rows.map((r) => r.id));
    const items = input.items.filter((i) => kept.has(i.trialId));
    if (items.length === 0) {
      await client.query('ROLLBACK');
      return null;
    }
    await client.query(
      `INSERT INTO provider_batches (id, run_id, provider, state, item_count, holder, fence, lease_expires_at)
       VALUES ($1, $2, $3, 'submitting', $4, $5, 1, now() + make_interval(secs => $6::float8 / 1000))`,
      [id, input.runId, input.provider, items.length, input.holder, input.leaseMs],
    );
    await client.query(
      `INSERT INTO provider_batch_items (batch_id, trial_id, attempt_n, custom_id, lease_token)
       SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::int[])`,
      [id, items.map((i) => i.trialId), items.map((i) => i.attemptN), items.map((i) => i.customId), items.map((i) => i.leaseToken)],
    );
    await client.query('COMMIT');
    return { batch: { id, runId: input.runId, provider: input.provider, providerBatchId: null, state: 'submitting', fence: 1, holder: input.holder }, items };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/** The provider's id, once it has accepted the batch. False: fenced out (another holder took the batch over). */
export async function recordSubmitted(b: Pick<HeldBatch, 'id' | 'fence'>, providerBatchId: string): Promise<boolean> {
  const r = await pool().query(
    `UPDATE provider_batches SET provider_batch_id = $3, state = 'accepted', submitted_at = now() WHERE id = $1 AND fence = $2 AND state = 'submitting'`,
    [b.id, b.fence, providerBatchId],
  );
  return r.rowCount === 1;
}

/** A poll's answer, with the lease renewed. False: fenced out. */
export async function recordPoll(
  b: Pick<HeldBatch, 'id' | 'fence'>,
  poll: { state: Exclude<StoredBatchState, 'submitting' | 'recorded'>; succeeded: number; failed: number },
  leaseMs: number,
): Promise<boolean> {
  const r = await pool().query(
    `UPDATE provider_batches SET state = $3, succeeded = $4, failed = $5, polled_at = now(),
            ended_at = CASE WHEN $3 IN ('completed', 'expired', 'cancelled', 'failed') THEN COALESCE(ended_at, now()) END,
            lease_expires_at = now() + make_interval(secs => $6::float8 / 1000)
      WHERE id = $1 AND fence = $2 AND state NOT IN ('submitting', 'recorded')`,
    [b.id, b.fence, poll.state, poll.succeeded, poll.failed, leaseMs],
  );
  return r.rowCount === 1;
}

/** An item's result was written (by the fenced trial statement): not recorded again by a later holder. */
export async function markItemsRecorded(b: Pick<HeldBatch, 'id' | 'fence'>, customIds: string[]): Promise<number> {
  const r = await pool().query(
    `UPDATE provider_batch_items i SET recorded_at = now()
       FROM provider_batches b
      WHERE b.id = $1 AND b.fence = $2 AND i.batch_id = b.id AND i.custom_id = ANY($3::text[]) AND i.recorded_at IS NULL`,
    [b.id, b.fence, customIds],
  );
  return r.rowCount ?? 0;
}

/** Every item recorded: the batch is done with (its trials went back to the engine). False: fenced out. */
export async function finishBatch(b: Pick<HeldBatch, 'id' | 'fence'>): Promise<boolean> {
  const r = await pool().query(`UPDATE provider_batches SET state = 'recorded', holder = NULL, lease_expires_at = NULL WHERE id = $1 AND fence = $2`, [b.id, b.fence]);
  return r.rowCount === 1;
}

/**
 * A batch taken over while still `submitting` (its holder died between the send and recordSubmitted): never
 * sent again. Its trials' leases are ended, so the engine's next claim takes each over as from a dead holder —
 * the attempt's sending mark becomes `lost` and the run's policy retries or closes the trial. Fenced; returns
 * the trials released.
 */
export async function releaseUnsubmitted(b: Pick<HeldBatch, 'id' | 'fence'>): Promise<string[]> {
  const r = await pool().query<{ id: string }>(
    `WITH b AS (
       UPDATE provider_batches SET state = 'recorded', ended_at = now(), holder = NULL, lease_expires_at = NULL
        WHERE id = $1 AND fence = $2 AND state = 'submitting' RETURNING id
     )
     UPDATE trials t SET lease_expires_at = now() - interval '1 millisecond'
       FROM provider_batch_items i JOIN b ON b.id = i.batch_id
      WHERE t.id = i.trial_id AND t.lease_owner = $3 AND t.status = 'running'
     RETURNING t.id`,
    [b.id, b.fence, batchOwner(b.id)],
  );
  return r.rows.map((x) => x.id);
}

/**
 * Takes a batch over: when `owner` holds it already, or its holder's lease ran out or its heartbeat lapsed.
 * Bumps the fence. Null: someone else holds it, or it is done.
 */
export async function claimBatch(id: string, owner: string, leaseMs: number): Promise<HeldBatch | null> {
  const r = await pool().query<{ id: string; run_id: string; provider: string; provider_batch_id: string | null; state: StoredBatchState; fence: number }>(
    `UPDATE provider_batches b SET holder = $2, fence = b.fence + 1, lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
      WHERE b.id = $1 AND b.state <> 'recorded'
        AND (b.holder IS NULL OR b.holder = $2 OR b.lease_expires_at < now() OR ${lapsedHolder('b.holder')})
      RETURNING b.id, b.run_id, b.provider, b.provider_batch_id, b.state, b.fence`,
    [id, owner, leaseMs],
  );
  const row = r.rows[0];
  return row
    ? { id: row.id, runId: row.run_id, provider: row.provider, providerBatchId: row.provider_batch_id, state: row.state, fence: row.fence, holder: owner }
    : null;
}

/** A run's batches that no live holder is polling (their holder died or their lease ran out). */
export async function orphanedBatches(runId: string | null): Promise<string[]> {
  const r = await pool().query<{ id: string }>(
    `SELECT id FROM provider_batches b
      WHERE ($1::text IS NULL OR b.run_id = $1) AND b.state <> 'recorded'
        AND (b.holder IS NULL OR b.lease_expires_at < now() OR ${lapsedHolder('b.holder')})
      ORDER BY b.created_at LIMIT 100`,
    [runId],
  );
  return r.rows.map((x) => x.id);
}

export async function batchItems(batchId: string): Promise<BatchItemRow[]> {
  const r = await pool().query<{ trial_id: string; attempt_n: number; custom_id: string; lease_token: number; recorded: boolean }>(
    `SELECT trial_id, attempt_n, custom_id, lease_token, recorded_at IS NOT NULL AS recorded FROM provider_batch_items WHERE batch_id = $1 ORDER BY custom_id`,
    [batchId],
  );
  return r.rows.map((x) => ({ trialId: x.trial_id, attemptN: x.attempt_n, customId: x.custom_id, leaseToken: x.lease_token, recorded: x.recorded }));
}

/** A run's batches, newest first (the run page and `tclab status`). */
export async function runBatches(runId: string): Promise<BatchView[]> {
  const r = await pool().query<{
    id: string;
    provider: string;
    provider_batch_id: string | null;
    state: StoredBatchState;
    item_count: number;
    succeeded: number;
    failed: number;
    submitted_at: Date | null;
    polled_at: Date | null;
    ended_at: Date | null;
  }>(
    `SELECT id, provider, provider_batch_id, state, item_count, succeeded, failed, submitted_at, polled_at, ended_at
       FROM provider_batches WHERE run_id = $1 ORDER BY created_at DESC, id LIMIT 200`,
    [runId],
  );
  return r.rows.map((x) => ({
    id: x.id,
    provider: x.provider,
    providerBatchId: x.provider_batch_id,
    state: x.state,
    itemCount: x.item_count,
    succeeded: x.succeeded,
    failed: x.failed,
    submittedAt: x.submitted_at,
    polledAt: x.polled_at,
    endedAt: x.ended_at,
  }));
}

/** Of these runs, the ones in batch mode (their trials go out in provider batches, never one by one). */
export async function batchModeRunIds(runIds: string[] | null): Promise<string[]> {
  const r = await pool().query<{ id: string }>(
    `SELECT id FROM runs WHERE ($1::text[] IS NULL AND status = 'running' OR id = ANY($1::text[])) AND (settings->>'batch')::boolean IS TRUE ORDER BY created_at`,
    [runIds],
  );
  return r.rows.map((x) => x.id);
}

/** Trials of a run that can be claimed now (queued and due, or held by a holder that is gone), at most `limit`. */
export async function claimableTrialIds(runId: string, limit: number): Promise<string[]> {
  const r = await pool().query<{ id: string }>(
    `SELECT id FROM trials
      WHERE run_id = $1
        AND ((status = 'queued' AND (not_before IS NULL OR not_before <= now()))
             OR (status = 'running' AND (lease_expires_at < now() OR ${lapsedHolder('trials.lease_owner')})))
      ORDER BY batch, id LIMIT $2`,
    [runId, limit],
  );
  return r.rows.map((x) => x.id);
}

/** An item not yet recorded, with its trial's identity (what scoring needs) and when its attempt was booked sent. */
export interface OpenBatchItem extends BatchItemRow {
  trial: TrialPlace;
  /** The sending mark's time (epoch ms): the attempt's started_at. */
  sentAtMs: number;
}

export async function openBatchItems(batchId: string): Promise<OpenBatchItem[]> {
  const r = await pool().query<TrialPlaceRow & { trial_id: string; attempt_n: number; custom_id: string; lease_token: number; sent_ms: number | null }>(
    `SELECT i.trial_id, i.attempt_n, i.custom_id, i.lease_token, t.id, t.run_id, t.trial_key, t.study, t.kind, t.scenario, t.locale, t.case_id, t.condition,
            t."order", t.visible, t.discovery, (extract(epoch FROM a.started_at) * 1000)::float8 AS sent_ms
       FROM provider_batch_items i JOIN trials t ON t.id = i.trial_id
       LEFT JOIN attempts a ON a.id = i.trial_id || '-a' || i.attempt_n
      WHERE i.batch_id = $1 AND i.recorded_at IS NULL ORDER BY i.custom_id`,
    [batchId],
  );
  return r.rows.map((x) => ({
    trialId: x.trial_id,
    attemptN: x.attempt_n,
    customId: x.custom_id,
    leaseToken: x.lease_token,
    recorded: false,
    trial: trialPlaceOf(x),
    sentAtMs: x.sent_ms ?? Date.now(),
  }));
}

/**
 * The batch's trials keep their `batch:<id>` lease while it is polled: renewed once less than half of it is
 * left (not on every poll: a batch polled every 30 s for 24 h would otherwise rewrite each trial row thousands
 * of times).
 */
export async function renewBatchTrials(b: Pick<HeldBatch, 'id' | 'fence'>, leaseMs: number): Promise<number> {
  const r = await pool().query(
    `UPDATE trials t SET lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
       FROM provider_batches b
      WHERE b.id = $1 AND b.fence = $2 AND t.lease_owner = $4 AND t.status = 'running'
        AND t.lease_expires_at < now() + make_interval(secs => $3::float8 / 2000)`,
    [b.id, b.fence, leaseMs, batchOwner(b.id)],
  );
  return r.rowCount ?? 0;
}
