import { ReviewInput, type Review } from '../schema/review';
import type { TrialOutcome } from '../schema/table1';
import { trialStatusOf, type CheckStatus } from '../schema/verdict';
import { trialOutcomes } from './results';
import { parseOrThrow, SpecError } from '../schema/common';
import { pool, withTransaction } from './client';
import { actorLabel, actorUserId, type Actor } from '../schema/actor';
import { recordAudit } from './audit';

/**
 * Record (or replace) a reviewer's reading of one verdict. The verdict itself is never changed; the grader's
 * status is copied beside the reviewer's so agreement stays traceable. Only scored checks (pass or fail)
 * can be reviewed, and only of a trial of the named run. The reviewer is the actor (the signed-in account).
 */
export async function saveReview(input: ReviewInput, reviewer: Actor): Promise<Review> {
  const r = parseOrThrow(ReviewInput, input, 'review');
  const v = await pool().query<{ status: string }>(
    `SELECT v.status FROM verdicts v JOIN trials t ON t.id = v.trial_id WHERE v.trial_id = $1 AND v.check_id = $2 AND t.run_id = $3`,
    [r.trialId, r.checkId, r.runId],
  );
  const grader = v.rows[0]?.status;
  if (!grader) throw new SpecError(`checkId: no check "${r.checkId}" on trial ${r.trialId} of run ${r.runId}`, [{ path: 'checkId', message: 'not found' }]);
  if (grader !== 'pass' && grader !== 'fail')
    throw new SpecError(`checkId: check "${r.checkId}" is ${grader}: only a scored check (pass or fail) can be reviewed`, [{ path: 'checkId', message: `is ${grader}` }]);
  const saved = await pool().query<ReviewRow>(UPSERT, [r.trialId, r.checkId, r.runId, grader, r.humanStatus, actorLabel(reviewer), actorUserId(reviewer), r.note]);
  return toReview(saved.rows[0]);
}

/** One reading of a pair's form: a check of one of its trials. */
export type PairReading = Omit<ReviewInput, 'runId'>;

/** At most this many readings in one save (a pair's two trials hold a few checks each). */
export const MAX_READINGS = 200;

/**
 * Record every reading of one pair at once, atomically: all are validated first (an error names its check,
 * path `readings.<i>.<field>`), then stored in one transaction, each with its `review.saved` audit event
 * (attributed to the actor) — any refusal stores nothing.
 */
export async function saveReviews(runId: string, readings: PairReading[], reviewer: Actor): Promise<Review[]> {
  if (readings.length === 0) throw new SpecError('readings: nothing to save', [{ path: 'readings', message: 'no reading' }]);
  if (readings.length > MAX_READINGS) throw new SpecError(`readings: at most ${MAX_READINGS}`, [{ path: 'readings', message: `at most ${MAX_READINGS}` }]);
  const issues: { path: string; message: string }[] = [];
  const parsed: ReturnType<typeof ReviewInput.parse>[] = [];
  readings.forEach((x, i) => {
    const r = ReviewInput.safeParse({ ...x, runId });
    const name = `check "${String(x.checkId)}" of trial ${String(x.trialId)}`;
    if (r.success) parsed.push(r.data);
    else for (const e of r.error.issues) issues.push({ path: `readings.${i}.${e.path.join('.')}`, message: `${name}: ${e.path.join('.')}: ${e.message}` });
  });
  const seen = new Set<string>();
  parsed.forEach((r, i) => {
    const key = JSON.stringify([r.trialId, r.checkId]);
    if (seen.has(key)) issues.push({ path: `readings.${i}.checkId`, message: `check "${r.checkId}" of trial ${r.trialId}: read twice` });
    seen.add(key);
  });
  if (issues.length === 0) {
    const graded = await pool().query<{ trial_id: string; check_id: string; status: string }>(
      `SELECT v.trial_id, v.check_id, v.status FROM verdicts v JOIN trials t ON t.id = v.trial_id
        WHERE t.run_id = $1 AND (v.trial_id, v.check_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
      [runId, parsed.map((r) => r.trialId), parsed.map((r) => r.checkId)],
    );
    const grader = new Map(graded.rows.map((x) => [JSON.stringify([x.trial_id, x.check_id]), x.status]));
    parsed.forEach((r, i) => {
      const g = grader.get(JSON.stringify([r.trialId, r.checkId]));
      const name = `check "${r.checkId}" of trial ${r.trialId}`;
      if (!g) issues.push({ path: `readings.${i}.checkId`, message: `${name}: not found in run ${runId}` });
      else if (g !== 'pass' && g !== 'fail')
        issues.push({ path: `readings.${i}.checkId`, message: `${name} is ${g}: only a scored check (pass or fail) can be reviewed` });
    });
    if (issues.length === 0) return storeReadings(runId, parsed, grader, reviewer);
  }
  throw new SpecError(`readings: ${issues.map((i) => i.message).join('; ')}`, issues);
}

async function storeReadings(runId: string, readings: ReturnType<typeof ReviewInput.parse>[], grader: Map<string, string>, reviewer: Actor): Promise<Review[]> {
  return withTransaction(async (client) => {
    const out: Review[] = [];
    for (const r of readings) {
      const graderStatus = grader.get(JSON.stringify([r.trialId, r.checkId]))!;
      const saved = await client.query<ReviewRow>(UPSERT, [
        r.trialId,
        r.checkId,
        runId,
        graderStatus,
        r.humanStatus,
        actorLabel(reviewer),
        actorUserId(reviewer),
        r.note,
      ]);
      const review = toReview(saved.rows[0]);
      await recordAudit(
        reviewer,
        'review.saved',
        { runId },
        { trialId: review.trialId, checkId: review.checkId, humanStatus: review.humanStatus, graderStatus: review.graderStatus },
        client,
      );
      out.push(review);
    }
    return out;
  });
}

/** The reviews of a run, optionally of some trials only. */
export async function runReviews(runId: string, trialIds?: string[]): Promise<Review[]> {
  const r = await pool().query<ReviewRow>(
    `SELECT ${COLUMNS} FROM reviews WHERE run_id = $1 AND ($2::text[] IS NULL OR trial_id = ANY($2::text[])) ORDER BY trial_id, check_id`,
    [runId, trialIds ?? null],
  );
  return r.rows.map(toReview);
}

export interface ReviewAgreement {
  reviewed: number;
  /** The reviewer read the check as the grader did. */
  agreed: number;
  /** Reviewed checks the grader failed and the reviewer passed, and the other way round. */
  overriddenToPass: number;
  overriddenToFail: number;
}

export async function reviewAgreement(runId: string): Promise<ReviewAgreement> {
  const r = await pool().query<{ reviewed: number; agreed: number; to_pass: number; to_fail: number }>(
    `SELECT count(*)::int AS reviewed,
            count(*) FILTER (WHERE human_status = grader_status)::int AS agreed,
            count(*) FILTER (WHERE human_status = 'pass' AND grader_status = 'fail')::int AS to_pass,
            count(*) FILTER (WHERE human_status = 'fail' AND grader_status = 'pass')::int AS to_fail
       FROM reviews WHERE run_id = $1`,
    [runId],
  );
  const x = r.rows[0];
  return { reviewed: x.reviewed, agreed: x.agreed, overriddenToPass: x.to_pass, overriddenToFail: x.to_fail };
}

/** Each reviewed trial's check statuses, a reviewer's reading in place of the grader's where there is one. */
export async function reviewedCheckStatuses(runId: string): Promise<Map<string, CheckStatus[]>> {
  const r = await pool().query<{ trial_id: string; statuses: CheckStatus[] }>(
    `SELECT v.trial_id, array_agg(COALESCE(r.human_status, v.status)) AS statuses
       FROM verdicts v LEFT JOIN reviews r ON r.trial_id = v.trial_id AND r.check_id = v.check_id
      WHERE v.trial_id IN (SELECT trial_id FROM reviews WHERE run_id = $1)
      GROUP BY v.trial_id`,
    [runId],
  );
  return new Map(r.rows.map((x) => [x.trial_id, x.statuses]));
}

/**
 * The run's trial outcomes with reviewers' readings in place of the grader's where a check was reviewed: a
 * reviewed trial's status is recomputed from its checks as scoring does (every check passes → passed, any
 * fails → failed). Not the formal result — a second view of it, to show what the reviews would change.
 */
export async function reviewedOutcomes(runId: string): Promise<{ outcomes: TrialOutcome[]; changed: number }> {
  const [outcomes, byTrial] = await Promise.all([trialOutcomes(runId), reviewedCheckStatuses(runId)]);
  return withReviewedStatuses(outcomes, byTrial);
}

/** The places (study, scenario, locale, case, order, replicate) of the run's reviewed trials: their pairs. */
export async function reviewedPairPlaces(
  runId: string,
  trialIds: readonly string[],
): Promise<{ study: string; scenario: string; locale: string; caseId: string; orderIndex: number; replicate: number }[]> {
  const at = await pool().query<{ study: string; scenario: string; locale: string; case_id: string; order_index: number; replicate: number }>(
    `SELECT DISTINCT t.study, t.scenario, t.locale, t.case_id, t.order_index, t.replicate FROM trials t WHERE t.run_id = $1 AND t.id = ANY($2::text[])`,
    [runId, trialIds],
  );
  return at.rows.map((x) => ({ study: x.study, scenario: x.scenario, locale: x.locale, caseId: x.case_id, orderIndex: x.order_index, replicate: x.replicate }));
}

/** Trials with the reviewers' readings applied: each reviewed trial's status recomputed from its checks as scoring does. */
export function withReviewedStatuses(outcomes: readonly TrialOutcome[], byTrial: ReadonlyMap<string, CheckStatus[]>): { outcomes: TrialOutcome[]; changed: number } {
  let changed = 0;
  const adjusted = outcomes.map((t) => {
    const statuses = byTrial.get(t.id);
    if (!statuses) return t;
    const status = trialStatusOf(statuses.map((status) => ({ status })));
    if (status !== t.status) changed++;
    return { ...t, status };
  });
  return { outcomes: adjusted, changed };
}

/**
 * A digest of every review of the run, whole rows (what a stored export of the run is built from besides its
 * trials: lib/runs/export.ts parquetStoreVersion). Reviews are only added or changed, never removed.
 */
export async function reviewsDigest(runId: string): Promise<string> {
  const r = await pool().query<{ digest: string }>(
    `SELECT count(*)::text || ':' || coalesce(md5(string_agg(row_to_json(r)::text, E'\\n' ORDER BY r.trial_id, r.check_id)), '') AS digest
       FROM reviews r WHERE r.run_id = $1`,
    [runId],
  );
  return r.rows[0].digest;
}

const COLUMNS = 'trial_id, check_id, grader_status, human_status, reviewer, note, reviewed_at';

const UPSERT = `INSERT INTO reviews (trial_id, check_id, run_id, grader_status, human_status, reviewer, reviewer_user_id, note)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (trial_id, check_id) DO UPDATE SET grader_status = EXCLUDED.grader_status, human_status = EXCLUDED.human_status,
            reviewer = EXCLUDED.reviewer, reviewer_user_id = EXCLUDED.reviewer_user_id, note = EXCLUDED.note, reviewed_at = now()
     RETURNING ${COLUMNS}`;

interface ReviewRow {
  trial_id: string;
  check_id: string;
  grader_status: string;
  human_status: 'pass' | 'fail';
  reviewer: string;
  note: string;
  reviewed_at: Date;
}

function toReview(x: ReviewRow): Review {
  return {
    trialId: x.trial_id,
    checkId: x.check_id,
    graderStatus: x.grader_status,
    humanStatus: x.human_status,
    reviewer: x.reviewer,
    note: x.note,
    reviewedAt: x.reviewed_at,
  };
}

/** Grader × reviewer readings of reviewed checks: both pass, grader pass & reviewer fail, grader fail & reviewer pass, both fail. */
export interface AgreementTable {
  bothPass: number;
  graderPassReviewerFail: number;
  graderFailReviewerPass: number;
  bothFail: number;
}

/** The 2×2 agreement tables of a run's reviews, overall and per check axis (task_fit, call_result), counted in SQL. */
export async function reviewAgreementTables(runId: string): Promise<{ overall: AgreementTable; byAxis: Record<string, AgreementTable> }> {
  const r = await pool().query<{ axis: string | null; pp: number; pf: number; fp: number; ff: number }>(
    `SELECT v.axis,
            count(*) FILTER (WHERE r.grader_status = 'pass' AND r.human_status = 'pass')::int AS pp,
            count(*) FILTER (WHERE r.grader_status = 'pass' AND r.human_status = 'fail')::int AS pf,
            count(*) FILTER (WHERE r.grader_status = 'fail' AND r.human_status = 'pass')::int AS fp,
            count(*) FILTER (WHERE r.grader_status = 'fail' AND r.human_status = 'fail')::int AS ff
       FROM reviews r JOIN verdicts v ON v.trial_id = r.trial_id AND v.check_id = r.check_id
      WHERE r.run_id = $1
      GROUP BY ROLLUP (v.axis)`,
    [runId],
  );
  const table = (x: { pp: number; pf: number; fp: number; ff: number } | undefined): AgreementTable => ({
    bothPass: x?.pp ?? 0,
    graderPassReviewerFail: x?.pf ?? 0,
    graderFailReviewerPass: x?.fp ?? 0,
    bothFail: x?.ff ?? 0,
  });
  const byAxis: Record<string, AgreementTable> = {};
  for (const x of r.rows) if (x.axis !== null) byAxis[x.axis] = table(x);
  return { overall: table(r.rows.find((x) => x.axis === null)), byAxis };
}
