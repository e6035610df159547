import type { TrialOutcome } from '../schema/table1';
import type { TrialPlace } from '../schema/trial-place';
import { pool } from './client';
import { keysetPages } from './keyset';
import { restoreFromJsonb } from './jsonb-escape';
import { attemptRequestSql } from './catalogs';
import { DECISION_SQL } from './aggregate';
import type { AttemptRecord, TrialRecord } from '../schema/trial-record';
import type { StoredTurn } from '../schema/turn';
import type { JunitTrial } from '../schema/trial-place';
import { STUDY_KINDS } from '../schema/study-kind';
import { AttemptKind, AttemptOutcome, TransportErrorKind } from '../schema/run';
import { TrialStatus } from '../schema/run-status';
import { CheckStatus, Checkpoint, FailureCategory, type Evidence } from '../schema/verdict';
import { TccAxis } from '../schema/tcc';
import { Marker } from '../schema/observation';
import { oneOf, oneOfOrNull, recordOfOrNull } from './checked';

// The union columns, checked as they are read (lib/db/checked.ts): callers get the schema's types.
const trialStatus = oneOf(TrialStatus.options, 'trials.status');
const studyKind = oneOf(STUDY_KINDS, 'trials.kind');
const checkpointsOf = recordOfOrNull(Checkpoint.options, CheckStatus.options, 'trials.checkpoints');
const attemptKind = oneOf(AttemptKind.options, 'attempts.kind');
const attemptOutcome = oneOf(AttemptOutcome.options, 'attempts.outcome');
const errorKind = oneOfOrNull(TransportErrorKind.options, 'attempts.error_kind');
const verdictAxis = oneOf(TccAxis.options, 'verdicts.axis');
const verdictStatus = oneOf(CheckStatus.options, 'verdicts.status');
const verdictCategory = oneOfOrNull(FailureCategory.options, 'verdicts.category');
const verdictCheckpoint = oneOfOrNull(Checkpoint.options, 'verdicts.evidence.checkpoint');
const observationMarker = oneOfOrNull(Marker.options, 'observations.marker');
const humanStatus = oneOf(['pass', 'fail'] as const, 'reviews.human_status');
const graderStatus = oneOf(CheckStatus.options, 'reviews.grader_status');

/** The columns of `trials` that place a trial in the matrix. */
export const TRIAL_PLACE_COLUMNS = 't.id, t.study, t.scenario, t.locale, t.case_id, t.condition, t.order_index, t.replicate';

/** The columns TRIAL_PLACE_COLUMNS reads. */
export interface TrialPlaceColumns {
  id: string;
  study: string;
  scenario: string;
  locale: string;
  case_id: string;
  condition: string;
  order_index: number;
  replicate: number;
}

/** A trial's place in the matrix, from a row holding TRIAL_PLACE_COLUMNS. */
export function trialPlaceOf(x: TrialPlaceColumns): TrialPlace {
  return {
    id: x.id,
    study: x.study,
    scenario: x.scenario,
    locale: x.locale,
    caseId: x.case_id,
    condition: x.condition,
    orderIndex: x.order_index,
    replicate: x.replicate,
  };
}

/**
 * Every trial's outcome, one row each (categories of failed checks aggregated SQL-side). For views that
 * need trials one by one (the reviewed second view, tests); Table 1 itself comes from grouped queries
 * (loadRunSummary).
 */
export async function trialOutcomes(runId: string, opts: { trialKeys?: readonly string[] } = {}): Promise<TrialOutcome[]> {
  // trialKeys: only these trials (by the run's unique index on the trial key)
  const only = opts.trialKeys ? `AND t.trial_key = ANY($2::text[])` : '';
  const r = await pool().query<
    TrialPlaceColumns & { pair_key: string; status: string; decision: string | null; first_pick: boolean | null; categories: string[] | null }
  >(
    `SELECT ${TRIAL_PLACE_COLUMNS}, t.pair_key, t.status,
            CASE WHEN o.trial_id IS NOT NULL THEN ${DECISION_SQL} END AS decision,
            CASE WHEN o.tool_calls->0->>'name' IS NOT NULL THEN o.tool_calls->0->>'name' = t."order"->>0 END AS first_pick,
            c.categories
       FROM trials t
       LEFT JOIN observations o ON o.trial_id = t.id
       LEFT JOIN (SELECT v.trial_id, array_agg(DISTINCT v.category) AS categories FROM verdicts v JOIN trials x ON x.id = v.trial_id
                   WHERE x.run_id = $1 AND v.category IS NOT NULL ${only.replaceAll('t.trial_key', 'x.trial_key')} GROUP BY v.trial_id) c ON c.trial_id = t.id
      WHERE t.run_id = $1 ${only} ORDER BY t.trial_key`,
    opts.trialKeys ? [runId, opts.trialKeys] : [runId],
  );
  return r.rows.map((x) => ({
    ...trialPlaceOf(x),
    pairKey: x.pair_key,
    status: trialStatus(x.status),
    categories: x.categories ?? [],
    ...(x.decision !== null && { decision: x.decision }),
    ...(x.first_pick !== null && { firstPick: x.first_pick }),
  }));
}

export type { AttemptRecord, TrialRecord } from '../schema/trial-record';

// An attempt's catalog is put back into its request here, in JavaScript, not by tclab_attempt_request in the
// query (lib/db/catalogs.ts): each catalog is read and parsed once per read instead of once per attempt — about
// 1 s of the database's 6–7 s in a run's export (docs/benchmarks.md, "Results at scale"). The query says which
// catalog to put back only where tclab_attempt_request would (the stored text holds `null` at catalog_at), and
// the catalog goes where that `null` stands: the request's top-level `tools` (splitCatalog cuts nothing else).
const CATALOG_TO_JOIN_SQL = `CASE WHEN a.catalog_id IS NOT NULL AND substr(a.request::text, a.catalog_at + 1, 4) = 'null' THEN a.catalog_id END`;

/** Catalogs by id, each parsed once, with its text (a secret scan reads it with the trial's text). */
type Catalogs = Map<number, { text: string; value: unknown }>;

/** Reads into `catalogs` the catalogs of these ids it does not hold yet. */
async function loadCatalogs(catalogs: Catalogs, ids: Iterable<number>): Promise<void> {
  const missing = [...new Set(ids)].filter((id) => !catalogs.has(id));
  if (missing.length === 0) return;
  const r = await pool().query<{ id: number; body: string }>(`SELECT id, body FROM tool_catalogs WHERE id = ANY($1::int[])`, [missing]);
  for (const row of r.rows) catalogs.set(row.id, { text: row.body, value: JSON.parse(row.body) });
  for (const id of missing) if (!catalogs.has(id)) throw new Error(`tool_catalogs: no catalog ${id}, which an attempt refers to`);
}

/** The catalog ids these stored attempts refer to. */
function* catalogIdsOf(attempts: readonly StoredAttempt[]): Generator<number> {
  for (const a of attempts) if (a[CATALOG_ID] != null) yield a[CATALOG_ID];
}

/** The request with its catalog put back: the value of its top-level `tools`, a `null` where it was cut out. */
function joinedRequest(request: unknown, catalogId: number | null, catalogs: Catalogs): unknown {
  if (catalogId == null || !isRecord(request) || request.tools !== null) return request;
  request.tools = catalogs.get(catalogId)!.value; // in place: the key keeps its position, so the request's JSON is the text sent
  return request;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// `text`: the JSON columns as JSON text (not parsed by the driver), so the export can see in one scan whether
// any of it could hold a secret (lib/providers jsonMayHoldSecret) and skip the deep-copying redaction if not.
// The observation and the verdicts are built as `json` (cheaper than `jsonb`) with their keys written in the order
// jsonb gave them (shorter keys first, then bytewise), which the exports' bytes follow. An attempt is an array
// (StoredAttempt): no key written and parsed per attempt (docs/benchmarks.md, "Results at scale", session 23).
// `lean`: no bodies, turns or details (empty, null), which the Parquet tables do not show — no subquery on `turns`.
const trialSelect = (bodies: boolean, text = false, lean = false) => {
  const c = text ? '::text' : '';
  const body = (sql: string) => (bodies && !lean ? sql : 'NULL');
  return `
  SELECT ${TRIAL_PLACE_COLUMNS}, t.run_id, t.trial_key, t.checkpoints, ${lean ? 'NULL' : `t.details${c}`} AS details, t.kind, t."order", t.pair_key, t.status, t.tool_set_ref,
    t.catalog_size, t.discovery, t.visible${c} AS visible,
    ${
      lean
        ? `'[]'${c === '' ? '::jsonb' : ''}`
        : `COALESCE((SELECT jsonb_agg(jsonb_build_object('n', u.n, 'attemptN', u.attempt_n, 'observation', u.observation, 'calls', u.calls, 'results', u.results, 'evidence', u.evidence) ORDER BY u.n)
      FROM turns u WHERE u.trial_id = t.id), '[]'::jsonb)${c}`
    } AS turns,
    COALESCE((SELECT json_agg(json_build_array(a.n, a.turn, a.kind, a.outcome, a.error_kind, a.error_message, a.http_status, a.retry_after_ms, a.latency_ms,
        a.input_tokens, a.output_tokens, ${body('a.request')}, ${body(CATALOG_TO_JOIN_SQL)}, ${body('a.response')}, ${body("encode(a.response_raw, 'base64')")},
        a.started_at, a.finished_at) ORDER BY a.n)
      FROM attempts a WHERE a.trial_id = t.id), '[]'::json)${c} AS attempts,
    (SELECT json_build_object('text', o.text, 'label', o.label, 'marker', o.marker, 'refusal', o.refusal, 'malformed', o.malformed, 'toolCalls', o.tool_calls)
       FROM observations o WHERE o.trial_id = t.id)${c} AS observation,
    COALESCE((SELECT json_agg(json_build_object('axis', v.axis, 'reason', v.reason,
        'review', CASE WHEN r.trial_id IS NOT NULL THEN json_build_object('note', r.note, 'reviewer', r.reviewer, 'reviewedAt', to_char(r.reviewed_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'humanStatus', r.human_status, 'graderStatus', r.grader_status) END,
        'status', v.status, 'checkId', v.check_id, 'category', v.category, 'evidence', v.evidence) ORDER BY v.check_id)
      FROM verdicts v LEFT JOIN reviews r ON r.trial_id = v.trial_id AND r.check_id = v.check_id WHERE v.trial_id = t.id), '[]'::json)${c} AS verdicts
  FROM trials t`;
};
const TRIAL_SELECT = trialSelect(true);

/**
 * An attempt as the JSON of trialSelect holds it: an array of its fields in this order, the union columns still
 * text, the times as stored; `catalogId`: the catalog to put back into `request` (CATALOG_TO_JOIN_SQL), or null.
 */
type StoredAttempt = [
  n: number,
  turn: number,
  kind: string,
  outcome: string,
  errorKind: string | null,
  errorMessage: string | null,
  httpStatus: number | null,
  retryAfterMs: number | null,
  latencyMs: number | null,
  inputTokens: number | null,
  outputTokens: number | null,
  request: unknown,
  catalogId: number | null,
  response: unknown,
  responseRaw: string | null,
  startedAt: string,
  finishedAt: string | null,
];
const CATALOG_ID = 12;
type StoredVerdict = Omit<TrialRecord['verdicts'][number], 'axis' | 'status' | 'category' | 'evidence' | 'review'> & {
  axis: string;
  status: string;
  category: string | null;
  evidence: Evidence & { checkpoint?: string };
  review: { humanStatus: string; graderStatus: string; reviewer: string; note: string; reviewedAt: string } | null;
};

/** A row of trialSelect, its JSON columns parsed. */
interface Raw extends TrialPlaceColumns {
  run_id: string;
  trial_key: string;
  kind: string;
  order: string[];
  pair_key: string;
  status: string;
  tool_set_ref: string;
  catalog_size: number | null;
  discovery: string | null;
  visible: string[] | null;
  checkpoints: unknown;
  details: unknown;
  turns: StoredTurn[];
  attempts: StoredAttempt[];
  observation: (Omit<NonNullable<TrialRecord['observation']>, 'marker'> & { marker: string | null }) | null;
  verdicts: StoredVerdict[];
}

/** The verdicts' union fields checked in place (no copy: an export reads millions of them). */
function assertVerdicts(vs: StoredVerdict[]): asserts vs is TrialRecord['verdicts'] {
  for (const v of vs) {
    verdictAxis(v.axis);
    verdictStatus(v.status);
    verdictCategory(v.category);
    verdictCheckpoint(v.evidence?.checkpoint);
    if (v.review) {
      humanStatus(v.review.humanStatus);
      graderStatus(v.review.graderStatus);
    }
  }
}

// A stored timestamp's text (UTC: docs/architecture.md#times) as `new Date(`${text}Z`).toISOString()` gives it, without a Date per call: the Next
// server replaces the global Date with a wrapper (node-environment-extensions/date.js) whose `new Date(…)`
// allocates straight into the old generation — 200,000 of them left 11 MB there that only a mark-compact
// frees, and an export of 100,000 trials made 400,000 (two per attempt, here and in the export). Date.parse
// is the constructor's own parser (ECMA-262: "in exactly the same manner as for the parse method").
const scratch = new Date(0);
function isoTimestamp(text: string): string {
  scratch.setTime(Date.parse(`${text}Z`)); // a `timestamp` holds UTC (./client.ts); without the Z it would be read as local time
  return scratch.toISOString();
}

// One object literal with every field, not `{...trialPlaceOf(x), …}`: a spread followed by this many more
// properties leaves V8 a slow object per trial (about 8 KB allocated each, half of it surviving into the old
// generation: 410 of 430 MB promoted over a 100,000-trial export), where a plain literal is built from one map.
function toRecord(x: Raw, catalogs: Catalogs): TrialRecord {
  const verdicts = x.verdicts;
  assertVerdicts(verdicts);
  // trialPlaceOf's eight fields written out on purpose (see above): with `...trialPlaceOf(x)` here, a 20,000-trial
  // Parquet export spent 416 ms in this function alone, written out 5 ms (docs/benchmarks.md, session 20)
  return {
    id: x.id,
    study: x.study,
    scenario: x.scenario,
    locale: x.locale,
    caseId: x.case_id,
    condition: x.condition,
    orderIndex: x.order_index,
    replicate: x.replicate,
    runId: x.run_id,
    trialKey: x.trial_key,
    kind: studyKind(x.kind),
    order: x.order,
    pairKey: x.pair_key,
    status: trialStatus(x.status),
    toolSetRef: x.tool_set_ref,
    catalogSize: x.catalog_size ?? null,
    discovery: x.discovery ?? null,
    visible: x.visible ?? null,
    checkpoints: checkpointsOf(x.checkpoints),
    attempts: x.attempts.map(
      ([
        n,
        turn,
        kind,
        outcome,
        errKind,
        errorMessage,
        httpStatus,
        retryAfterMs,
        latencyMs,
        inputTokens,
        outputTokens,
        request,
        catalogId,
        response,
        responseRaw,
        startedAt,
        finishedAt,
      ]) => ({
        n,
        turn,
        kind: attemptKind(kind),
        outcome: attemptOutcome(outcome),
        errorKind: errorKind(errKind),
        errorMessage,
        httpStatus,
        retryAfterMs,
        latencyMs,
        inputTokens,
        outputTokens,
        request: joinedRequest(request, catalogId, catalogs),
        response,
        responseRaw,
        startedAt: isoTimestamp(startedAt),
        finishedAt: finishedAt ? isoTimestamp(finishedAt) : null,
      }),
    ),
    turns: x.turns,
    details: x.details ?? null,
    observation: x.observation && { ...x.observation, marker: observationMarker(x.observation.marker) },
    verdicts,
  };
}

/**
 * The values escapeForJsonb wrote (./jsonb-escape.ts) as they were: `visible`, turns, details, observation,
 * verdicts and error messages. The raw bodies are stored as received and are not touched.
 */
function restoredRecord(r: TrialRecord): TrialRecord {
  return {
    ...r,
    visible: restoreFromJsonb(r.visible),
    turns: restoreFromJsonb(r.turns),
    details: restoreFromJsonb(r.details),
    observation: restoreFromJsonb(r.observation),
    verdicts: restoreFromJsonb(r.verdicts),
    attempts: r.attempts.map((a) => (a.errorMessage === null ? a : { ...a, errorMessage: restoreFromJsonb(a.errorMessage) })),
  };
}

/** Whether a stored value's text may hold what escapeForJsonb wrote (its escape character): restored only then. */
const mayHoldEscapes = (text: string | null) => text !== null && text.indexOf('\uffff') >= 0;

/**
 * Every trial of a run with its attempts, observation and verdicts, streamed in keyset pages; the next
 * page is asked for while this one is consumed. `bodies: false` leaves the attempts' raw request and
 * response out (null): the CSV exports never show them, and they are most of the bytes.
 */
export async function* iterateTrialRecords(runId: string, pageSize = 500, opts: { bodies?: boolean } = {}): AsyncGenerator<TrialRecord> {
  for await (const r of iterateTrialRecordsWithText(runId, pageSize, opts)) yield r.record;
}

/**
 * As iterateTrialRecords, each record with `text`: the JSON text its details, turns, attempts and
 * observation were parsed from (all the exports redact), so a check on the text can stand in for a walk.
 * `lean`: without bodies, turns or details (trialSelect), what the Parquet tables read.
 */
export async function* iterateTrialRecordsWithText(
  runId: string,
  pageSize = 500,
  opts: { bodies?: boolean; lean?: boolean } = {},
): AsyncGenerator<{ record: TrialRecord; text: string }> {
  const sql = `${trialSelect(opts.bodies !== false, true, opts.lean)} WHERE t.run_id = $1 AND t.trial_key > $2 ORDER BY t.trial_key LIMIT $3`;
  type Row = Omit<Raw, 'details' | 'turns' | 'attempts' | 'observation' | 'visible' | 'verdicts'> &
    Record<'details' | 'turns' | 'attempts' | 'observation' | 'visible' | 'verdicts', string | null>;
  const page = async (after: string) => (await pool().query<Row>(sql, [runId, after, pageSize])).rows;
  const catalogs: Catalogs = new Map();
  // a lean page is small and its consumer (the Parquet writer) works in bursts: several pages read ahead
  for await (const rows of keysetPages(page, pageSize, opts.lean ? 4 : 1)) {
    // the page's attempts parsed first: the catalogs they refer to are read before any record is built
    const attempts = rows.map((x) => JSON.parse(x.attempts!) as StoredAttempt[]);
    await loadCatalogs(
      catalogs,
      attempts.flatMap((as) => [...catalogIdsOf(as)]),
    );
    for (let i = 0; i < rows.length; i++) {
      const x = rows[i];
      const texts = [x.details, x.turns, x.attempts, x.observation];
      const [visible, verdicts] = [x.visible, x.verdicts];
      const record = toRecord(
        {
          ...x,
          details: texts[0] === null ? null : JSON.parse(texts[0]),
          turns: JSON.parse(texts[1]!),
          attempts: attempts[i],
          observation: texts[3] === null ? null : JSON.parse(texts[3]),
          visible: visible === null ? null : JSON.parse(visible),
          verdicts: JSON.parse(verdicts!),
        },
        catalogs,
      );
      const escaped = texts.some(mayHoldEscapes) || mayHoldEscapes(visible) || mayHoldEscapes(verdicts);
      for (const id of new Set(catalogIdsOf(attempts[i]))) texts.push(catalogs.get(id)!.text); // what the secret scan reads
      yield { record: escaped ? restoredRecord(record) : record, text: texts.join('\n') };
    }
  }
}

/** A trial of this run (null when there is no such trial, or it belongs to another run). */
export async function getTrialRecord(runId: string, trialId: string): Promise<TrialRecord | null> {
  const r = await pool().query<Raw>(`${TRIAL_SELECT} WHERE t.id = $1 AND t.run_id = $2`, [trialId, runId]);
  if (!r.rows[0]) return null;
  const catalogs: Catalogs = new Map();
  await loadCatalogs(catalogs, catalogIdsOf(r.rows[0].attempts));
  return restoredRecord(toRecord(r.rows[0], catalogs));
}

export async function precheckAttempts(runId: string): Promise<AttemptRecord[]> {
  const r = await pool().query<{
    n: number;
    turn: number;
    kind: string;
    outcome: string;
    error_kind: string | null;
    error_message: string | null;
    http_status: number | null;
    retry_after_ms: number | null;
    latency_ms: number | null;
    input_tokens: number | null;
    output_tokens: number | null;
    request: unknown;
    response: unknown;
    response_raw: Buffer | null;
    started_at: Date;
    finished_at: Date | null;
  }>(
    `SELECT n, turn, kind, outcome, error_kind, error_message, http_status, retry_after_ms, latency_ms, input_tokens, output_tokens, ${attemptRequestSql('a')} AS request,
            response, response_raw, started_at, finished_at
       FROM attempts a WHERE run_id = $1 AND kind = 'precheck' ORDER BY n`,
    [runId],
  );
  return r.rows.map((a) => ({
    n: a.n,
    turn: a.turn,
    kind: attemptKind(a.kind),
    outcome: attemptOutcome(a.outcome),
    errorKind: errorKind(a.error_kind),
    errorMessage: restoreFromJsonb(a.error_message),
    httpStatus: a.http_status,
    retryAfterMs: a.retry_after_ms,
    latencyMs: a.latency_ms,
    inputTokens: a.input_tokens,
    outputTokens: a.output_tokens,
    request: a.request,
    response: a.response,
    responseRaw: a.response_raw ? a.response_raw.toString('base64') : null,
    startedAt: a.started_at.toISOString(),
    finishedAt: a.finished_at ? a.finished_at.toISOString() : null,
  }));
}

/**
 * A trial with its failed verdicts (no attempts), streamed in keyset pages by trial key — which begins with
 * the study, so trials come grouped by study: what a JUnit report needs.
 */
export async function* iterateTrialVerdicts(runId: string, pageSize = 2000): AsyncGenerator<JunitTrial> {
  type Row = TrialPlaceColumns & { status: string; trial_key: string; verdicts: { checkId: string; status: string; category: string | null; reason: string }[] };
  const page = async (after: string) =>
    (
      await pool().query<Row>(
        `SELECT ${TRIAL_PLACE_COLUMNS}, t.status, t.trial_key,
              COALESCE((SELECT json_agg(json_build_object('checkId', v.check_id, 'status', v.status, 'category', v.category, 'reason', v.reason) ORDER BY v.check_id)
                          FROM verdicts v WHERE v.trial_id = t.id AND t.status = 'failed'), '[]'::json) AS verdicts
         FROM trials t
        WHERE t.run_id = $1 AND t.trial_key > $2
        ORDER BY t.trial_key LIMIT $3`,
        [runId, after, pageSize],
      )
    ).rows;
  for await (const rows of keysetPages(page, pageSize, 1))
    for (const x of rows)
      yield {
        ...trialPlaceOf(x),
        status: trialStatus(x.status),
        verdicts: x.verdicts.map((v) => ({ ...v, status: verdictStatus(v.status), category: verdictCategory(v.category) })),
      };
}

/** Per study: trials, and how many failed, ended unresolved, or have no result (untested or unfinished). */
export async function trialCountsByStudy(runId: string): Promise<{ study: string; tests: number; failures: number; errors: number; skipped: number }[]> {
  const r = await pool().query(
    `SELECT study, count(*)::int AS tests, count(*) FILTER (WHERE status = 'failed')::int AS failures,
            count(*) FILTER (WHERE status = 'unresolved')::int AS errors, count(*) FILTER (WHERE status NOT IN ('passed', 'failed', 'unresolved'))::int AS skipped
       FROM trials WHERE run_id = $1 GROUP BY study ORDER BY study COLLATE "C"`,
    [runId],
  );
  return r.rows;
}
