import type { Observation } from '../schema/observation';
import type { CheckStatus, Checkpoint, Verdict } from '../schema/verdict';
import type { TrialStatus } from '../schema/run';
import { PENDING_TRIAL_STATUSES } from '../schema/run-status';
import { transportFailureOf, type ProviderResult } from '../schema/request';
import { pool } from './client';
import { Batcher } from './batcher';
import { lapsedHolder } from './holders';
import { splitCatalog } from './catalogs';
import { jsonbText } from './jsonb-escape';

// The hot path of a run, in hand-written SQL: three statements per attempt (claim, sending mark, record),
// batched across concurrent trials. Fencing: a claim bumps lease_token; the sending mark and every write of a
// result are conditioned on the token the writer holds, so a redelivered job, a second worker or a worker
// back from the dead cannot write twice.
//
// Booking: an attempt is counted when it is sent, never when it is claimed. The sending mark (the attempt
// row with outcome `sending`, and attempt_count = its number) is written after the rate-limit slot is granted
// and immediately before the request leaves. A claim that never sent — halted while waiting for its slot, or
// its worker killed first — leaves no mark and no count, so a trial is never charged for a request that did
// not leave. A mark whose holder died becomes `lost` when the trial is claimed again (or exhausted): `lost`
// means exactly "may have reached the provider".
//
// Heartbeats (./holders): a trial held by a holder whose heartbeat has lapsed is claimable as if its lease had
// run out — the same compare-and-set, the same `lost` for its sending mark — and a holder that has lapsed may
// not write a sending mark, so a process that finds itself presumed dead sends nothing more under its claims.

/** Rows per INSERT when a run's trials are created: memory is bounded by one chunk, whatever the run's size. */
export const INSERT_CHUNK = 5000;

/** A trial to insert: a trial of the design (lib/design/matrix.ts TrialSpec) with its id (trialIdOf). */
export interface NewTrial {
  id: string;
  trialKey: string;
  pairKey: string;
  study: string;
  kind: string;
  scenario: string;
  locale: string;
  caseId: string;
  condition: string;
  order: string[];
  orderIndex: number;
  replicate: number;
  toolSetRef: string;
  /** A catalog study's distractor count N (null: no catalog). */
  catalogSize: number | null;
  /** The discovery variant's id (null: no catalog, every tool sent). */
  discovery: string | null;
  /** The names the model can see before it decides, in rank order where there is one (null: not known before sending). */
  visible: readonly string[] | null;
}

/**
 * The trials of a run, in the design's order, numbered into delivery batches of `trialsPerJob` (trials.batch:
 * one queue job delivers a batch). Taken from `trials` (a generator: lib/design/matrix.ts iterateTrials) one
 * chunk at a time: at most `INSERT_CHUNK` rows are held at once. Returns how many were given. `batchOf`
 * numbers the batches otherwise (by the trial's index in `trials`): a stop-when-decided run has one per pair.
 */
export async function insertTrials(
  runId: string,
  trials: Iterable<NewTrial>,
  trialsPerJob: number,
  chunk = INSERT_CHUNK,
  batchOf?: (index: number) => number,
): Promise<number> {
  let part: NewTrial[] = [];
  let first = 0;
  for (const t of trials) {
    part.push(t);
    if (part.length >= chunk) {
      await insertChunk(runId, part, first, trialsPerJob, batchOf);
      first += part.length;
      part = [];
    }
  }
  if (part.length > 0) await insertChunk(runId, part, first, trialsPerJob, batchOf);
  return first + part.length;
}

async function insertChunk(runId: string, part: NewTrial[], first: number, trialsPerJob: number, batchOf?: (index: number) => number): Promise<void> {
  await pool().query(
    `INSERT INTO trials (id, run_id, trial_key, pair_key, study, kind, scenario, locale, case_id, condition, "order", order_index, replicate, tool_set_ref, batch, catalog_size, discovery, visible)
     SELECT u.id, $1, u.trial_key, u.pair_key, u.study, u.kind, u.scenario, u.locale, u.case_id, u.condition, u.ord::jsonb, u.order_index, u.replicate, u.tool_set_ref, u.batch,
            u.catalog_size, u.discovery, u.visible::jsonb
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::int[], $13::int[], $14::text[], $15::int[],
                   $16::int[], $17::text[], $18::text[])
         AS u(id, trial_key, pair_key, study, kind, scenario, locale, case_id, condition, ord, order_index, replicate, tool_set_ref, batch, catalog_size, discovery, visible)
     ON CONFLICT (run_id, trial_key) DO NOTHING`,
    [
      runId,
      part.map((t) => t.id),
      part.map((t) => t.trialKey),
      part.map((t) => t.pairKey),
      part.map((t) => t.study),
      part.map((t) => t.kind),
      part.map((t) => t.scenario),
      part.map((t) => t.locale),
      part.map((t) => t.caseId),
      part.map((t) => t.condition),
      part.map((t) => JSON.stringify(t.order)),
      part.map((t) => t.orderIndex),
      part.map((t) => t.replicate),
      part.map((t) => t.toolSetRef),
      part.map((_, j) => (batchOf ? batchOf(first + j) : Math.floor((first + j) / trialsPerJob))),
      part.map((t) => t.catalogSize),
      part.map((t) => t.discovery),
      part.map((t) => (t.visible ? JSON.stringify(t.visible) : null)),
    ],
  );
}

import type { TrialIdentity } from '../schema/trial-record';

export type { TrialIdentity } from '../schema/trial-record';

export interface ClaimedTrial extends TrialIdentity {
  leaseToken: number;
  /** The number the attempt gets if it is sent (attempts sent so far + 1). */
  attemptN: number;
  attemptId: string;
  /** Earlier attempts marked sending whose holder died, recorded as `lost` by this claim. */
  lostAttempts: number;
  /** When the claim was made (database clock, epoch ms). */
  claimedAtMs: number;
  /** Names the model could see before it decided (set when the trial was made); null: unknown before the answer. */
  visible: string[] | null;
  /** The discovery variant's id (null: no catalog). */
  discovery: string | null;
}

/** A claim whose attempt is marked sending: the request may leave. */
export interface SendingTrial extends ClaimedTrial {
  /** When the sending mark was written (database clock, epoch ms): the attempt's started_at. */
  sentAtMs: number;
}

export type ClaimRefusal =
  | { reason: 'missing' }
  | { reason: 'final'; status: string }
  | { reason: 'run-not-running'; runStatus: string }
  | { reason: 'leased'; leaseExpiresAt: Date }
  | { reason: 'not-before'; notBefore: Date }
  | { reason: 'exhausted'; attempts: number };

export function attemptIdOf(trialId: string, n: number): string {
  return `${trialId}-a${n}`;
}

// The hot path runs through group commit (./batcher): concurrent claims become one UPDATE, concurrent
// results one multi-row statement, each a named prepared statement (parsed and planned once per
// connection). Rows stay independent: every row is fenced on its own lease token.
// Plans: trials are reached through `id = ANY(ids)` (the primary key) and the run's status through a
// scalar subquery, never by joining runs first: right after a run's trials are inserted there are no
// statistics, and a runs-first plan then walks every trial of the run for every batch.
const CLAIM_BATCH = 128;
const RECORD_BATCH = 128;
// Statements in flight per batcher: two each. One at a time for claims and records made fewer, larger
// statements (~2,900 → ~2,400 per 5,000 trials at C = 64) but no measurable difference in the wall, and a
// record that waits longer leaves an answered trial's sending mark in place longer — what a crash then books
// as `lost` although its answer had arrived (crash.itest's bound on lost attempts failed once under load).
const IN_FLIGHT = 2;

/** What a sending mark holds until its answer is recorded (the raw request is stored with the answer). */
const SENDING_NOTE = `'{"note":"sent; the request is stored with its answer"}'::json`;
const LOST_MESSAGE = `'the worker stopped after sending; the answer, if any, was lost'`;

/**
 * The sending marks of trials whose holder is gone become `lost`: the request left (the mark is written
 * immediately before it does) and its answer, if any, never came back to be recorded. A holder that was only
 * slow and records later replaces the row with what really came back.
 */
const markLost = (src: string) => `
  UPDATE attempts a SET outcome = 'lost', error_kind = 'lost', error_message = ${LOST_MESSAGE}, finished_at = now()
    FROM ${src}
   WHERE a.trial_id = ${src}.id AND a.kind = 'formal' AND a.outcome = 'sending'
  RETURNING a.trial_id`;

const CLAIM_SQL = `
  WITH i AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::int[]) WITH ORDINALITY AS i(id, owner, lease_ms, max_attempts, idx)
  ), c AS (
    UPDATE trials t SET status = 'running', lease_token = t.lease_token + 1, lease_owner = i.owner,
           lease_expires_at = now() + make_interval(secs => i.lease_ms / 1000), not_before = NULL
      FROM i
     WHERE t.id = ANY($1::text[]) AND t.id = i.id
       AND (SELECT r.status FROM runs r WHERE r.id = t.run_id) = 'running'
       AND ((t.status = 'queued' AND (t.not_before IS NULL OR t.not_before <= now()))
            OR (t.status = 'running' AND (t.lease_expires_at < now() OR ${lapsedHolder('t.lease_owner')})))
       AND t.attempt_count < i.max_attempts
    RETURNING i.idx, t.id, t.run_id, t.trial_key, t.study, t.kind, t.scenario, t.locale, t.case_id, t.condition, t."order",
              t.lease_token, t.attempt_count, t.visible, t.discovery
  ), lost AS (${markLost('c')}
  )
  SELECT c.*, (SELECT count(*) FROM lost WHERE lost.trial_id = c.id)::int AS lost,
         (extract(epoch FROM now()) * 1000)::float8 AS now_ms
    FROM c`;

/** Why a claim was refused, decided on the database clock. */
const REFUSAL_SQL = `
  SELECT t.id, t.status, t.not_before, t.lease_expires_at, t.attempt_count,
         (SELECT r.status FROM runs r WHERE r.id = t.run_id) AS run_status,
         (t.status = 'running' AND t.lease_expires_at >= now() AND NOT ${lapsedHolder('t.lease_owner')}) AS leased
    FROM trials t WHERE t.id = ANY($1::text[])`;

interface ClaimInput {
  trialId: string;
  owner: string;
  leaseMs: number;
  maxAttempts: number;
}

/** A trial's identity and what its claims carry besides (visible, discovery), as `trials` columns. */
export type TrialPlace = TrialIdentity & Pick<ClaimedTrial, 'visible' | 'discovery'>;

/** The columns of `trials` a TrialPlace is read from. */
export interface TrialPlaceRow {
  id: string;
  run_id: string;
  trial_key: string;
  study: string;
  kind: string;
  scenario: string;
  locale: string;
  case_id: string;
  condition: string;
  order: string[];
  visible: string[] | null;
  discovery: string | null;
}

export function trialPlaceOf(x: TrialPlaceRow): TrialPlace {
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
    visible: x.visible,
    discovery: x.discovery,
  };
}

interface ClaimRow extends TrialPlaceRow {
  idx: string;
  lease_token: number;
  attempt_count: number;
  lost: number;
  now_ms: number;
}

interface RefusalRow {
  id: string;
  status: string;
  not_before: Date | null;
  lease_expires_at: Date | null;
  attempt_count: number;
  run_status: string;
  leased: boolean;
}

function refusalOf(w: RefusalRow | undefined, maxAttempts: number): ClaimRefusal {
  if (!w) return { reason: 'missing' };
  // a claim given back (halt, crash) clears the lease and a due trial has no not_before: when the row
  // changed between our statements, come back shortly instead of reading a time that is not there
  const soon = new Date(Date.now() + 100);
  if (w.status !== 'queued' && w.status !== 'running') return { reason: 'final', status: w.status };
  if (w.run_status !== 'running') return { reason: 'run-not-running', runStatus: w.run_status };
  if (w.leased) return { reason: 'leased', leaseExpiresAt: w.lease_expires_at ?? soon };
  if (w.attempt_count >= maxAttempts) return { reason: 'exhausted', attempts: w.attempt_count };
  // running under an expired lease but refused: someone claimed it between our statements
  if (w.status === 'running') return { reason: 'leased', leaseExpiresAt: w.lease_expires_at ?? soon };
  return { reason: 'not-before', notBefore: w.not_before ?? soon };
}

async function claimBatch(items: ClaimInput[]): Promise<(ClaimedTrial | ClaimRefusal)[]> {
  const r = await pool().query<ClaimRow>({
    name: 'tclab_claim_v3',
    text: CLAIM_SQL,
    values: [items.map((x) => x.trialId), items.map((x) => x.owner), items.map((x) => x.leaseMs), items.map((x) => x.maxAttempts)],
  });
  const out: (ClaimedTrial | ClaimRefusal | undefined)[] = new Array(items.length);
  for (const x of r.rows) {
    // the place's own object, completed (not copied by a spread: a claim is on the hot path)
    out[Number(x.idx) - 1] = Object.assign(trialPlaceOf(x), {
      leaseToken: x.lease_token,
      attemptN: x.attempt_count + 1,
      attemptId: attemptIdOf(x.id, x.attempt_count + 1),
      lostAttempts: x.lost,
      claimedAtMs: x.now_ms,
    });
  }
  const refused = items.map((x, i) => (out[i] ? null : x.trialId)).filter((id): id is string => id !== null);
  if (refused.length > 0) {
    // a fresh statement (new snapshot): sees a claim that beat ours
    const why = await pool().query<RefusalRow>({ name: 'tclab_refusal_v1', text: REFUSAL_SQL, values: [refused] });
    const byId = new Map(why.rows.map((w) => [w.id, w]));
    items.forEach((x, i) => {
      out[i] ??= refusalOf(byId.get(x.trialId), x.maxAttempts);
    });
  }
  return out as (ClaimedTrial | ClaimRefusal)[];
}

const claims = new Batcher<ClaimInput, ClaimedTrial | ClaimRefusal>({ run: claimBatch, maxBatch: CLAIM_BATCH, maxInFlight: IN_FLIGHT });

/**
 * Claim a trial by compare-and-set: queued (and due), or running under an expired lease or a lapsed heartbeat (its holder died).
 * A claim counts no attempt (see markSending); sending marks left by a dead holder become `lost`.
 */
export function claimTrial(trialId: string, owner: string, leaseMs: number, maxAttempts: number): Promise<ClaimedTrial | ClaimRefusal> {
  return claims.load({ trialId, owner, leaseMs, maxAttempts });
}

// The sending mark: one statement per batch, fenced on the lease token and on the attempt count (the
// attempt's number is the next one), the lease renewed to cover the request.
const MARK_SQL = `
  WITH x AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::float8[]) WITH ORDINALITY AS x(trial_id, lease_token, n, lease_ms, idx)
  ), t AS (
    UPDATE trials tr SET attempt_count = x.n, lease_expires_at = now() + make_interval(secs => x.lease_ms / 1000)
      FROM x
     WHERE tr.id = ANY($1::text[]) AND tr.id = x.trial_id AND tr.lease_token = x.lease_token AND tr.status = 'running'
       AND tr.attempt_count = x.n - 1 AND NOT ${lapsedHolder('tr.lease_owner')}
    RETURNING x.idx, tr.id, tr.run_id, x.n, x.lease_token
  ), a AS (
    INSERT INTO attempts (id, run_id, trial_id, n, kind, request, outcome, lease_token, started_at)
    SELECT t.id || '-a' || t.n, t.run_id, t.id, t.n, 'formal', ${SENDING_NOTE}, 'sending', t.lease_token, now() FROM t
    ON CONFLICT (id) DO NOTHING
  )
  SELECT t.idx, (extract(epoch FROM now()) * 1000)::float8 AS now_ms FROM t`;

interface MarkInput {
  claim: ClaimedTrial;
  leaseMs: number;
}

async function markBatch(items: MarkInput[]): Promise<(number | null)[]> {
  const r = await pool().query<{ idx: string; now_ms: number }>({
    name: 'tclab_mark_v1',
    text: MARK_SQL,
    values: [items.map((x) => x.claim.id), items.map((x) => x.claim.leaseToken), items.map((x) => x.claim.attemptN), items.map((x) => x.leaseMs)],
  });
  const out: (number | null)[] = new Array(items.length).fill(null);
  for (const x of r.rows) out[Number(x.idx) - 1] = x.now_ms;
  return out;
}

const marks = new Batcher<MarkInput, number | null>({ run: markBatch, maxBatch: CLAIM_BATCH, maxInFlight: IN_FLIGHT });

/**
 * Book the claim's attempt as sent, immediately before its request leaves (after the rate-limit slot is
 * granted): the attempt row with outcome `sending`, the trial's attempt count, the lease renewed to cover the
 * request. Null: the claim no longer holds the trial (fenced out); nothing may be sent.
 */
export async function markSending(claim: ClaimedTrial, leaseMs: number): Promise<SendingTrial | null> {
  const sentAtMs = await marks.load({ claim, leaseMs });
  return sentAtMs === null ? null : { ...claim, sentAtMs };
}

/**
 * Extend the lease of a claim that is still waiting for a rate-limit slot, so it covers the wait plus the
 * request. False: the claim no longer holds the trial (its lease ran out and another worker took it).
 */
/**
 * Store what the provider reported the model could see (vendor tool search: the tool references returned)
 * as the trial's `visible`, fenced on the claim: only while it holds the trial.
 */
export async function recordObservedVisible(t: Pick<ClaimedTrial, 'id' | 'leaseToken'>, visible: readonly string[]): Promise<boolean> {
  const r = await pool().query(`UPDATE trials SET visible = $3::jsonb WHERE id = $1 AND lease_token = $2 AND status = 'running'`, [
    t.id,
    t.leaseToken,
    jsonbText(visible),
  ]);
  return (r.rowCount ?? 0) === 1;
}

export async function renewLease(t: Pick<ClaimedTrial, 'id' | 'leaseToken'>, leaseMs: number): Promise<boolean> {
  const r = await pool().query(
    `UPDATE trials SET lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
      WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
    [t.id, t.leaseToken, leaseMs],
  );
  return r.rowCount === 1;
}

/**
 * Give back a claim whose request was never sent (its run was halted while it waited for a slot): no attempt
 * was counted, and the trial is queued again — or cancelled, if the run was. The lease token keeps its
 * increment, so the withdrawn claim stays fenced out.
 */
export async function unclaimTrial(t: Pick<ClaimedTrial, 'id' | 'leaseToken'>): Promise<boolean> {
  const r = await pool().query(
    `WITH run AS (SELECT r.status FROM runs r JOIN trials t ON t.run_id = r.id WHERE t.id = $1)
     UPDATE trials SET status = CASE WHEN (SELECT status FROM run) = 'cancelled' THEN 'cancelled' ELSE 'queued' END,
            finished_at = CASE WHEN (SELECT status FROM run) = 'cancelled' THEN now() END,
            lease_owner = NULL, lease_expires_at = NULL
      WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
    [t.id, t.leaseToken],
  );
  return r.rowCount === 1;
}

/** What becomes of the trial after a transport error (see recordTransportError). */
export type AfterTransportError = { kind: 'retry'; notBefore: Date } | { kind: 'unresolved' } | { kind: 'hold' };

type Holder = Pick<SendingTrial, 'id' | 'runId' | 'attemptN' | 'leaseToken' | 'sentAtMs'>;

interface RecordInput {
  holder: Holder;
  result: ProviderResult;
  /** Present for a model answer: the formal result. */
  scored?: {
    observation: Observation;
    verdicts: Verdict[];
    checkpoints: Record<Checkpoint, CheckStatus>;
    status: Extract<TrialStatus, 'passed' | 'failed' | 'untested'>;
  };
  next?: AfterTransportError;
}

// One statement per batch. Each input row: the attempt (always written: it happened; it replaces its sending
// mark, or the `lost` a later claim made of that mark meanwhile), then — only where the row's lease token still
// holds the trial — the trial's new status and, for a model answer, its observation and verdicts.
const RECORD_SQL = `
  WITH x AS (
    SELECT * FROM json_to_recordset($1::json) AS x(
      i int, trial_id text, run_id text, n int, lease_token int, started_ms float8,
      catalog_ref text, catalog_at int, outcome text, error_kind text, error_message text, http_status int,
      retry_after_ms int, latency_ms int, input_tokens int, output_tokens int,
      scored boolean, status text, not_before_ms float8, checkpoints jsonb, obs jsonb, verdicts jsonb)
  ), b AS (
    -- the bodies, each its own JSON text (json_to_recordset would decode their strings, and refuse an escaped NUL),
    -- given as JSON arrays of those texts: the driver writes a text[] element by escaping it in two more copies
    SELECT b.ord - 1 AS i, b.request::json AS request, b.catalog, b.response::json AS response, decode(b.raw, 'base64') AS raw
      FROM ROWS FROM (json_array_elements_text($3::json), json_array_elements_text($4::json), json_array_elements_text($5::json), unnest($6::text[]))
           WITH ORDINALITY AS b(request, catalog, response, raw, ord)
  ), c AS (
    -- each catalog of the batch once (its text comes with its first row only): its id, stored if new
    SELECT x.catalog_ref AS ref, tclab_catalog_id(x.catalog_ref, b.catalog) AS id
      FROM x JOIN b ON b.i = x.i WHERE b.catalog IS NOT NULL
  ), a AS (
    INSERT INTO attempts (id, run_id, trial_id, n, kind, request, catalog_id, catalog_at, response, response_raw, outcome, error_kind, error_message, http_status,
                          retry_after_ms, latency_ms, input_tokens, output_tokens, lease_token, started_at, finished_at)
    SELECT x.trial_id || '-a' || x.n, x.run_id, x.trial_id, x.n, 'formal', b.request, c.id, x.catalog_at, b.response, b.raw, x.outcome, x.error_kind,
           x.error_message, x.http_status, x.retry_after_ms, x.latency_ms, x.input_tokens, x.output_tokens, x.lease_token,
           to_timestamp(x.started_ms / 1000), now()
      FROM x JOIN b ON b.i = x.i LEFT JOIN c ON c.ref = x.catalog_ref
    ON CONFLICT (id) DO UPDATE SET request = EXCLUDED.request, catalog_id = EXCLUDED.catalog_id, catalog_at = EXCLUDED.catalog_at,
           response = EXCLUDED.response, response_raw = EXCLUDED.response_raw, outcome = EXCLUDED.outcome, error_kind = EXCLUDED.error_kind, error_message = EXCLUDED.error_message, http_status = EXCLUDED.http_status,
           retry_after_ms = EXCLUDED.retry_after_ms, latency_ms = EXCLUDED.latency_ms, input_tokens = EXCLUDED.input_tokens,
           output_tokens = EXCLUDED.output_tokens, lease_token = EXCLUDED.lease_token, started_at = EXCLUDED.started_at,
           finished_at = EXCLUDED.finished_at
  ), t AS (
    -- a trial to be sent again whose run was cancelled meanwhile is cancelled, not queued: nothing will send it
    UPDATE trials tr SET status = CASE WHEN x.status = 'queued' AND r.status = 'cancelled' THEN 'cancelled' ELSE x.status END,
           lease_expires_at = NULL,
           finished_at = CASE WHEN x.scored OR x.status = 'unresolved' OR (x.status = 'queued' AND r.status = 'cancelled') THEN now() END,
           lease_owner = CASE WHEN x.scored THEN tr.lease_owner END,
           not_before = CASE WHEN x.scored THEN tr.not_before ELSE to_timestamp(x.not_before_ms / 1000) END,
           checkpoints = CASE WHEN x.scored THEN x.checkpoints ELSE tr.checkpoints END
      FROM x JOIN runs r ON r.id = x.run_id
     WHERE tr.id = ANY($2::text[]) AND tr.id = x.trial_id AND tr.lease_token = x.lease_token AND tr.status = 'running'
    RETURNING x.i, x.trial_id, x.n, x.scored, x.obs, x.verdicts
  ), o AS (
    INSERT INTO observations (trial_id, attempt_id, tool_calls, marker, label, text, refusal, malformed)
    SELECT t.trial_id, t.trial_id || '-a' || t.n, t.obs->'tool_calls', t.obs->>'marker', t.obs->>'label', t.obs->>'text',
           (t.obs->>'refusal')::boolean, t.obs->>'malformed'
      FROM t WHERE t.scored
  ), v AS (
    INSERT INTO verdicts (trial_id, check_id, axis, status, category, reason, evidence)
    SELECT t.trial_id, v.check_id, v.axis, v.status, v.category, v.reason, v.evidence
      FROM t CROSS JOIN LATERAL jsonb_to_recordset(t.verdicts) AS v(check_id text, axis text, status text, category text, reason text, evidence jsonb)
     WHERE t.scored
  )
  SELECT t.i FROM t`;

/** `value` as JSON text; `text` when the provider already holds the stored form as text (kept byte for byte). */
function jsonText(value: unknown, text: string | undefined, ifNone: string): string {
  if (text !== undefined) return text;
  return value === undefined || value === null ? ifNone : JSON.stringify(value);
}

/** One row of RECORD_SQL: its fields as JSON (escaped for jsonb and text), its bodies as JSON texts of their own. */
interface RecordRow {
  head: string;
  request: string;
  catalog: string | null;
  response: string;
  raw: string | null;
}

/** `known`: catalogs already given in this batch (each goes to tool_catalogs with its first row only). */
function recordRow(i: number, r: RecordInput, known: Set<string>): RecordRow {
  const { holder: h, result, scored, next } = r;
  const status = scored ? scored.status : next?.kind === 'unresolved' ? 'unresolved' : 'queued';
  const failure = transportFailureOf(result);
  const fields = {
    i,
    trial_id: h.id,
    run_id: h.runId,
    n: h.attemptN,
    lease_token: h.leaseToken,
    started_ms: h.sentAtMs,
    outcome: result.outcome,
    error_kind: failure?.kind ?? null,
    error_message: failure?.message ?? null,
    http_status: result.httpStatus,
    retry_after_ms: failure?.retryAfterMs ?? null,
    latency_ms: Math.round(result.latencyMs),
    input_tokens: result.usage?.inputTokens ?? null,
    output_tokens: result.usage?.outputTokens ?? null,
    scored: scored !== undefined,
    status,
    not_before_ms: next?.kind === 'retry' ? next.notBefore.getTime() : null,
    checkpoints: scored?.checkpoints ?? null,
    obs: scored
      ? {
          tool_calls: scored.observation.toolCalls,
          marker: scored.observation.marker,
          label: scored.observation.label,
          text: scored.observation.text,
          refusal: scored.observation.refusal,
          malformed: scored.observation.malformed,
        }
      : null,
    verdicts: scored
      ? scored.verdicts.map((v) => ({
          check_id: v.checkId,
          axis: v.axis,
          status: v.status,
          category: v.category,
          reason: v.reason,
          evidence: { ...v.evidence, checkpoint: v.checkpoint },
        }))
      : null,
  };
  // request and response go as JSON texts of their own (the provider may already hold them as text); the
  // request's tool catalog is cut out and stored once (lib/db/catalogs.ts)
  const { request, catalog } = splitCatalog(jsonText(result.request, result.requestJson, '{}'));
  const body = catalog && !known.has(catalog.ref) ? (known.add(catalog.ref), catalog.body) : null;
  return {
    head: jsonbText({ ...fields, catalog_ref: catalog?.ref ?? null, catalog_at: catalog?.at ?? null }),
    request,
    catalog: body,
    response: jsonText(result.response, result.responseJson, 'null'),
    raw: result.responseRaw ? Buffer.from(result.responseRaw).toString('base64') : null,
  };
}

/** JSON.stringify writes a lone surrogate as an escape, which PostgreSQL refuses to decode. */
const LONE_SURROGATE_ESCAPE = /\\ud[89a-f]/i;

/**
 * Texts as a JSON array of strings for RECORD_SQL, stored as a `text` parameter would have been: a lone surrogate
 * (which JSON.stringify only escapes when it is lone) becomes U+FFFD, as the driver's UTF-8 encoding of a text
 * makes it. The test may also match an escape the text itself holds (`\ud83d` spelt out): the round trip then
 * changes nothing.
 */
function textsJson(texts: (string | null)[]): string {
  const json = JSON.stringify(texts);
  if (!LONE_SURROGATE_ESCAPE.test(json)) return json;
  return JSON.stringify(texts.map((t) => (t === null ? null : Buffer.from(t, 'utf8').toString('utf8'))));
}

function runRecord(rows: RecordRow[], ids: string[]) {
  return pool().query<{ i: number }>({
    name: 'tclab_record_v4',
    text: RECORD_SQL,
    values: [
      `[${rows.map((x) => x.head).join(',')}]`,
      ids,
      textsJson(rows.map((x) => x.request)),
      textsJson(rows.map((x) => x.catalog)),
      textsJson(rows.map((x) => x.response)),
      rows.map((x) => x.raw),
    ],
  });
}

/** A refusal for the data itself (class 22: data exception; 54: a limit, e.g. nesting past the stack), not for the database being away. */
function refusedData(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('54'));
}

/** A row of RECORD_SQL; an answer too deep for JSON.stringify's stack is recorded as refused (recordRefused). */
function safeRow(i: number, r: RecordInput, known: Set<string>): RecordRow {
  try {
    return recordRow(i, r, known);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return recordRow(i, recordRefused(r, e), known);
  }
}

async function recordBatch(items: RecordInput[]): Promise<boolean[]> {
  const known = new Set<string>();
  const rows = items.map((x, i) => safeRow(i, x, known));
  const won = new Array<boolean>(items.length).fill(false);
  try {
    const r = await runRecord(
      rows,
      items.map((x) => x.holder.id),
    );
    for (const row of r.rows) won[row.i] = true;
    return won;
  } catch (e) {
    if (!refusedData(e)) throw e;
  }
  // PostgreSQL refused something in the batch: each row alone, so one answer's content never costs the
  // others their record; a row refused alone is stored as received text (recordRefused)
  for (let i = 0; i < items.length; i++) won[i] = await recordOne(items[i]);
  return won;
}

async function recordOne(item: RecordInput): Promise<boolean> {
  try {
    const r = await runRecord([safeRow(0, item, new Set())], [item.holder.id]);
    return r.rows.length === 1;
  } catch (e) {
    if (!refusedData(e)) throw e;
    const r = await runRecord([recordRow(0, recordRefused(item, e), new Set())], [item.holder.id]);
    return r.rows.length === 1;
  }
}

/**
 * An answer that could not be stored as parsed (PostgreSQL refused it, e.g. nesting deeper than its stack
 * allows, or it nests past JSON.stringify's): the body is kept as received (response_raw, `response` its
 * text) and the exchange is recorded as a `malformed_body` parse error — never `lost`. A scored answer's
 * trial is unresolved then (one request, one attempt: sending it again would bring the same answer); a
 * transport error keeps its own next step.
 */
function recordRefused(item: RecordInput, e: unknown): RecordInput {
  const { result } = item;
  let text: string;
  try {
    text = jsonText(result.response, result.responseJson, 'null');
  } catch {
    text = '"the body nests past what can be written as JSON text here"';
  }
  const message = `the answer could not be stored as parsed (${(e as Error).message}); its body is kept as received`;
  return {
    holder: item.holder,
    next: item.next ?? { kind: 'unresolved' },
    result: {
      request: result.request,
      requestJson: result.requestJson,
      response: { text },
      responseRaw: result.responseRaw ?? new TextEncoder().encode(text),
      httpStatus: result.httpStatus,
      latencyMs: result.latencyMs,
      usage: null,
      outcome: 'transport_error',
      error: { kind: 'malformed_body', message },
    },
  };
}

const records = new Batcher<RecordInput, boolean>({ run: recordBatch, maxBatch: RECORD_BATCH, maxInFlight: IN_FLIGHT });

/**
 * Open `connections` pooled connections and prepare the hot-path statements on each (with no rows, so
 * nothing changes): a worker does it when it starts, so the first trials of a run do not pay for
 * connecting and planning.
 */
export async function warmUpTrialStatements(connections: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: connections }, () => pool().connect()));
  try {
    await Promise.all(
      clients.map(async (c) => {
        await c.query({ name: 'tclab_claim_v3', text: CLAIM_SQL, values: [[], [], [], []] });
        await c.query({ name: 'tclab_mark_v1', text: MARK_SQL, values: [[], [], [], []] });
        await c.query({ name: 'tclab_record_v4', text: RECORD_SQL, values: ['[]', [], '[]', '[]', '[]', []] });
      }),
    );
  } finally {
    for (const c of clients) c.release();
  }
}

/**
 * Record a model answer as the trial's one formal result. The attempt is always recorded (it happened);
 * observation, verdicts and the final status only if the lease is still ours.
 * Returns false when fenced out (someone else now holds the trial).
 */
export function recordResult(
  t: Holder,
  result: ProviderResult,
  observation: Observation,
  verdicts: Verdict[],
  checkpoints: Record<Checkpoint, CheckStatus>,
  status: Extract<TrialStatus, 'passed' | 'failed' | 'untested'>,
): Promise<boolean> {
  return records.load({ holder: t, result, scored: { observation, verdicts, checkpoints, status } });
}

/**
 * Record a transport error. `next` says what becomes of the trial: `retry` (queued again, due at
 * notBefore), `unresolved` (attempts exhausted: outside every denominator) or `hold` (queued, run stopped).
 */
export function recordTransportError(t: Holder, result: ProviderResult, next: AfterTransportError): Promise<boolean> {
  return records.load({ holder: t, result, next });
}

export interface PendingBatch {
  batch: number;
  trialIds: string[];
  notBefore: Date | null;
}

const PENDING_BATCHES_SQL = `
  WITH p AS (
    SELECT batch, id, not_before, (status = 'queued' OR lease_expires_at < now() OR ${lapsedHolder('trials.lease_owner')}) AS claimable
      FROM trials WHERE run_id = $1 AND status = ANY($2::text[]))
  SELECT batch, array_agg(id ORDER BY id) AS ids,
         CASE WHEN bool_and(not_before IS NOT NULL AND not_before > now()) FILTER (WHERE claimable)
              THEN min(not_before) FILTER (WHERE claimable) END AS not_before
    FROM p GROUP BY batch HAVING bool_or(claimable) ORDER BY batch`;

/** Batches a page of pendingBatchPages holds: a page's trial ids are what this process holds at once. */
export const PENDING_PAGE = 1024;
let cursors = 0;

/**
 * The batches of a run that may need a job (start, resume, reconcile): those with a trial that can be claimed
 * now or later (queued, or running under an expired lease). A job carries every trial of its batch that is not
 * final, held ones too: a holder that dies leaves its trials to this job once their leases end. `notBefore` is
 * set when every claimable trial waits for a retry (the earliest).
 *
 * In pages of `pageSize` batches, in batch order, from one snapshot: a cursor WITH HOLD (the result is kept by
 * PostgreSQL once the statement's transaction commits, so no transaction stays open while the caller enqueues
 * a page), so a run of a million trials is never held here whole.
 */
export async function* pendingBatchPages(runId: string, pageSize = PENDING_PAGE): AsyncGenerator<PendingBatch[]> {
  const client = await pool().connect();
  const name = `tclab_pending_${++cursors}`;
  let open = false;
  let broken: unknown;
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`DECLARE ${name} NO SCROLL CURSOR WITH HOLD FOR ${PENDING_BATCHES_SQL}`, [runId, PENDING_TRIAL_STATUSES]);
    open = true;
    await client.query('COMMIT');
    for (;;) {
      const r = await client.query<{ batch: number; ids: string[]; not_before: Date | null }>(`FETCH ${pageSize} FROM ${name}`);
      if (r.rows.length > 0) yield r.rows.map((x) => ({ batch: x.batch, trialIds: x.ids, notBefore: x.not_before }));
      if (r.rows.length < pageSize) break;
    }
  } catch (e) {
    broken = e;
    throw e;
  } finally {
    // a cursor left open would outlive this call on the pooled connection: closed, or the connection dropped
    if (open && broken === undefined)
      await client.query(`CLOSE ${name}`).then(
        () => client.release(),
        (e: Error) => client.release(e),
      );
    else if (broken !== undefined) client.release(broken instanceof Error ? broken : true);
    else client.release();
  }
}

/** Every page of pendingBatchPages at once (small runs and tests). */
export async function pendingBatches(runId: string): Promise<PendingBatch[]> {
  const all: PendingBatch[] = [];
  for await (const page of pendingBatchPages(runId)) all.push(...page);
  return all;
}

/** Which of these trials are not final: what a job delivers when it arrives (the claim decides which can be taken). */
export async function stillPending(trialIds: string[]): Promise<string[]> {
  const r = await pool().query<{ id: string }>({
    name: 'tclab_pending_v1',
    text: `SELECT id FROM trials WHERE id = ANY($1::text[]) AND status = ANY($2::text[]) ORDER BY id`,
    values: [trialIds, PENDING_TRIAL_STATUSES],
  });
  return r.rows.map((x) => x.id);
}

/** How many of these trials have no attempt booked yet (none was sent). */
export async function unsentTrialCount(trialIds: string[]): Promise<number> {
  const r = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE id = ANY($1::text[]) AND attempt_count = 0`, [trialIds]);
  return r.rows[0]?.n ?? 0;
}

/**
 * Cancel: queued trials will not be sent, nor will trials whose holder died (running under an expired lease:
 * no worker will take them again); a dead holder's sending mark becomes `lost`. What was sent stays recorded.
 */
export async function cancelQueuedTrials(runId: string): Promise<number> {
  const r = await pool().query<{ n: number }>(
    `WITH t AS (
       UPDATE trials SET status = 'cancelled', finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE run_id = $1 AND (status = 'queued' OR (status = 'running' AND (lease_expires_at < now() OR ${lapsedHolder('trials.lease_owner')})))
        RETURNING id
     ), lost AS (${markLost('t')}
     )
     SELECT count(*)::int AS n FROM t`,
    [runId],
  );
  return r.rows[0].n;
}

/**
 * Attempts exhausted without a model answer (e.g. every holder died after sending): unresolved, outside
 * every denominator. Only attempts that were sent are counted, so every one of them has a row; a sending
 * mark whose holder died becomes `lost`.
 */
export async function markExhausted(trialId: string): Promise<boolean> {
  const r = await pool().query(
    `WITH t AS (
       UPDATE trials SET status = 'unresolved', finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE id = $1 AND (status = 'queued' OR (status = 'running' AND (lease_expires_at < now() OR ${lapsedHolder('trials.lease_owner')})))
        RETURNING id, run_id, lease_token, attempt_count
     ), lost AS (${markLost('t')}
     )
     SELECT (SELECT count(*) FROM t)::int AS won, (SELECT count(*) FROM lost)::int AS lost`,
    [trialId],
  );
  return r.rows[0].won === 1;
}
