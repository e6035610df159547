import { PAIR_CLASSES, type PairClass, type ReviewPair } from '../schema/review-pair';
import { pool, withTransaction } from './client';
import { actorLabel, type Actor } from '../schema/actor';
import { recordAudit } from './audit';
import { reviewListCte, reviewPairsPage, toPair } from './review-pairs';

// The review list as a queue: per pair, how many of its scored checks (pass or fail, of both trials) carry a
// reviewer's reading; overall progress; the unreviewed pairs; a pair's previous and next in the list's order
// and filter. Readings change while the list does not, so they are joined at read time.

/**
 * What the list shows: all pairs (null), one class, the pairs not fully reviewed, or those of them assigned to
 * the viewer (`mine`: the reader's account, passed as `viewer`; nothing without one).
 */
export type ReviewFilter = PairClass | 'unreviewed' | 'mine';

/** The filter named in the URL (`?show=`), or null for all (anything else). */
export function reviewFilterOf(show: string | undefined | null): ReviewFilter | null {
  if (show === 'unreviewed' || show === 'mine') return show;
  return (PAIR_CLASSES as readonly string[]).includes(show ?? '') ? (show as PairClass) : null;
}

/** A pair's checks and its reviewed checks, beside l (the list's rows). A pair is reviewed when every check is. */
const COUNTS = `CROSS JOIN LATERAL (
    SELECT count(*)::int AS checks, count(r.check_id)::int AS reviewed
      FROM verdicts v LEFT JOIN reviews r ON r.trial_id = v.trial_id AND r.check_id = v.check_id
     WHERE v.trial_id IN (l.b_id, l.t_id) AND v.status IN ('pass', 'fail')) rc`;
const UNREVIEWED = 'rc.reviewed < rc.checks';
/** The pair is assigned to the account in parameter $n (review_assignments). */
const ASSIGNED_TO = (n: number) =>
  `EXISTS (SELECT 1 FROM review_assignments a WHERE a.run_id = $1 AND a.pair_key = l.pair_key AND a.t_condition = l.t_condition AND a.assignee_user_id = $${n})`;
const ASSIGNED = `EXISTS (SELECT 1 FROM review_assignments a WHERE a.run_id = $1 AND a.pair_key = l.pair_key AND a.t_condition = l.t_condition)`;

interface Spec {
  studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[];
}

export interface ReviewProgress {
  pairs: number;
  reviewed: number;
}

/**
 * How many pairs the list holds and how many of them are fully reviewed. Only pairs with a reading on either
 * trial are counted check by check: every pair of the list has a failed trial, and a trial fails only on a
 * failed check (lib/schema/verdict.ts trialStatusFromVerdicts), so a pair without any reading has a check
 * left to review. A million-trial run's list holds ~170,000 pairs; a reviewer reads a few hundred.
 */
export async function reviewProgress(runId: string, spec: Spec): Promise<ReviewProgress> {
  const { cte, params } = await reviewListCte(runId, spec);
  // $1 is the run in both forms of the list (stored or classed from the trials)
  const r = await pool().query<{ pairs: number; reviewed: number }>(
    `${cte}, read AS (SELECT DISTINCT trial_id FROM reviews WHERE run_id = $1)
     SELECT (SELECT count(*)::int FROM l) AS pairs,
            (SELECT count(*)::int FROM l ${COUNTS}
              WHERE (l.b_id IN (SELECT trial_id FROM read) OR l.t_id IN (SELECT trial_id FROM read)) AND NOT (${UNREVIEWED})) AS reviewed`,
    params,
  );
  return r.rows[0];
}

export interface QueuedPair extends ReviewPair {
  /** Scored checks of the pair's trials, and how many of them are reviewed. */
  checks: number;
  reviewed: number;
  /** The account the pair is assigned to (its email), or null. */
  assignee: string | null;
}

/** One page of the list under a filter, each pair with its review counts and assignee, in the list's order. */
export async function reviewQueuePage(
  runId: string,
  spec: Spec,
  opts: { show: ReviewFilter | null; page: number; size: number; viewer?: string | null },
): Promise<QueuedPair[]> {
  const pairs =
    opts.show === 'unreviewed' || opts.show === 'mine'
      ? await unreviewedPage(runId, spec, { ...opts, mine: opts.show === 'mine' ? (opts.viewer ?? null) : undefined })
      : await reviewPairsPage(runId, spec, { show: opts.show, page: opts.page, size: opts.size });
  const ids = [...new Set(pairs.flatMap((p) => [p.baseline.trialId, p.treatment.trialId]).filter((x): x is string => x !== null))];
  const r = await pool().query<{ trial_id: string; checks: number; reviewed: number }>(
    `SELECT v.trial_id, count(*)::int AS checks, count(r.check_id)::int AS reviewed
       FROM verdicts v LEFT JOIN reviews r ON r.trial_id = v.trial_id AND r.check_id = v.check_id
      WHERE v.trial_id = ANY($1::text[]) AND v.status IN ('pass', 'fail') GROUP BY v.trial_id`,
    [ids],
  );
  const of = new Map(r.rows.map((x) => [x.trial_id, x]));
  const sum = (k: 'checks' | 'reviewed', p: ReviewPair) => (of.get(p.baseline.trialId ?? '')?.[k] ?? 0) + (of.get(p.treatment.trialId ?? '')?.[k] ?? 0);
  const a = await pool().query<{ pair_key: string; t_condition: string; email: string }>(
    `SELECT a.pair_key, a.t_condition, u.email FROM review_assignments a JOIN users u ON u.id = a.assignee_user_id
      WHERE a.run_id = $1 AND a.pair_key = ANY($2::text[])`,
    [runId, [...new Set(pairs.map((p) => p.pairKey))]],
  );
  const assignee = new Map(a.rows.map((x) => [`${x.pair_key}\u0000${x.t_condition}`, x.email]));
  return pairs.map((p) => ({
    ...p,
    checks: sum('checks', p),
    reviewed: sum('reviewed', p),
    assignee: assignee.get(`${p.pairKey}\u0000${p.treatment.condition}`) ?? null,
  }));
}

/** Unreviewed pairs in the list's order; with `mine`, those assigned to that account (none for null: no account). */
async function unreviewedPage(runId: string, spec: Spec, opts: { page: number; size: number; mine?: string | null }): Promise<ReviewPair[]> {
  if (opts.mine === null) return [];
  const { cte, params } = await reviewListCte(runId, spec);
  const n = params.length;
  const mine = opts.mine === undefined ? '' : ` AND ${ASSIGNED_TO(n + 3)}`;
  const r = await pool().query(
    `${cte}
     SELECT l.*,
            COALESCE((SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = l.b_id AND v.category IS NOT NULL), '{}') AS b_categories,
            COALESCE((SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = l.t_id AND v.category IS NOT NULL), '{}') AS t_categories
       FROM l ${COUNTS} WHERE ${UNREVIEWED}${mine} ORDER BY l.rn LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...params, opts.size, opts.page * opts.size, ...(opts.mine === undefined ? [] : [opts.mine])],
  );
  return r.rows.map(toPair);
}

/** How many unreviewed pairs are assigned to the account, and how many unreviewed pairs no one has. */
export async function assignmentCounts(
  runId: string,
  spec: Spec,
  viewer: string | null,
  /** The run's unreviewed pairs when the caller has counted them already (reviewProgress): not counted again. */
  unreviewed?: number,
): Promise<{ mine: number; unassigned: number }> {
  // a run no one has shared out (the usual case): every unreviewed pair is unassigned, counted as progress counts them
  const any = await pool().query('SELECT 1 FROM review_assignments WHERE run_id = $1 LIMIT 1', [runId]);
  if (any.rowCount === 0) {
    if (unreviewed !== undefined) return { mine: 0, unassigned: unreviewed };
    const p = await reviewProgress(runId, spec);
    return { mine: 0, unassigned: p.pairs - p.reviewed };
  }
  const { cte, params } = await reviewListCte(runId, spec);
  const n = params.length;
  const r = await pool().query<{ mine: number; unassigned: number }>(
    `${cte}, u AS (SELECT l.pair_key, l.t_condition FROM l ${COUNTS} WHERE ${UNREVIEWED})
     SELECT (SELECT count(*)::int FROM u l WHERE ${ASSIGNED_TO(n + 1)}) AS mine,
            (SELECT count(*)::int FROM u l WHERE NOT ${ASSIGNED}) AS unassigned`,
    [...params, viewer ?? ''],
  );
  return r.rows[0];
}

/**
 * Shares the unreviewed pairs no one has among the accounts (user ids), in the list's order, one each in turn
 * (the first pair to the first account); a pair assigned meanwhile is left as it is. One transaction with its
 * `review.assigned` audit event. Returns how many each account got.
 */
export async function assignUnreviewedPairs(
  run: { id: string; experimentId: string },
  spec: Spec,
  assignees: readonly { id: string; email: string }[],
  actor: Actor,
): Promise<Map<string, number>> {
  const got = new Map(assignees.map((a) => [a.id, 0]));
  if (assignees.length === 0) return got;
  const { cte, params } = await reviewListCte(run.id, spec);
  const n = params.length;
  const ids = assignees.map((a) => a.id);
  return withTransaction(async (client) => {
    const r = await client.query<{ assignee: string }>(
      `${cte}, u AS (SELECT l.pair_key, l.t_condition, (row_number() OVER (ORDER BY l.rn))::int - 1 AS i
                       FROM l ${COUNTS} WHERE ${UNREVIEWED} AND NOT ${ASSIGNED})
       INSERT INTO review_assignments (run_id, pair_key, t_condition, assignee_user_id, assigned_by)
       SELECT $1, u.pair_key, u.t_condition, ($${n + 1}::text[])[1 + u.i % cardinality($${n + 1}::text[])], $${n + 2} FROM u
       ON CONFLICT DO NOTHING RETURNING assignee_user_id AS assignee`,
      [...params, ids, actorLabel(actor)],
    );
    for (const x of r.rows) got.set(x.assignee, (got.get(x.assignee) ?? 0) + 1);
    await recordAudit(
      actor,
      'review.assigned',
      { experimentId: run.experimentId, runId: run.id },
      { pairs: Object.fromEntries(assignees.map((a) => [a.email, got.get(a.id) ?? 0])) },
      client,
    );
    return got;
  });
}

/** Where a pair of the list links: side by side, or the one trial there is. */
export interface PairLink {
  baselineId: string | null;
  treatmentId: string;
}

/**
 * The pairs before and after this one (baseline trial → treatment trial) in the list's order, among those
 * the filter shows; the pair itself need not match it (under "unreviewed", a pair just reviewed still has a
 * next). Null where there is none, or the pair is not in the list.
 */
export async function pairNeighbours(
  runId: string,
  spec: Spec,
  pair: { baselineId: string; treatmentId: string },
  show: ReviewFilter | null,
  viewer: string | null = null,
): Promise<{ inList: boolean; prev: PairLink | null; next: PairLink | null }> {
  const { cte, params } = await reviewListCte(runId, spec);
  const n = params.length;
  const where = show === null ? 'true' : show === 'unreviewed' ? UNREVIEWED : show === 'mine' ? `${UNREVIEWED} AND ${ASSIGNED_TO(n + 3)}` : `l.class = $${n + 3}`;
  const r = await pool().query<{ at: number | null; prev: PairLink | null; next: PairLink | null }>(
    `${cte}, cur AS (SELECT l.rn FROM l WHERE l.b_id = $${n + 1} AND l.t_id = $${n + 2} LIMIT 1),
     f AS (SELECT l.rn, l.b_id, l.t_id FROM l ${COUNTS} WHERE ${where})
     SELECT (SELECT rn FROM cur) AS at,
            (SELECT json_build_object('baselineId', f.b_id, 'treatmentId', f.t_id) FROM f WHERE f.rn < (SELECT rn FROM cur) ORDER BY f.rn DESC LIMIT 1) AS prev,
            (SELECT json_build_object('baselineId', f.b_id, 'treatmentId', f.t_id) FROM f WHERE f.rn > (SELECT rn FROM cur) ORDER BY f.rn LIMIT 1) AS next`,
    [...params, pair.baselineId, pair.treatmentId, ...(show === 'mine' ? [viewer ?? ''] : show && show !== 'unreviewed' ? [show] : [])],
  );
  const x = r.rows[0];
  return { inList: x.at !== null, prev: x.prev, next: x.next };
}
