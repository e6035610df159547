import { PAIR_CLASSES, type PairClass, type ReviewPair } from '../schema/review-pair';
import { baselinesOf } from '../schema/cells';
import { BASELINE_OF } from './aggregate';
import { createHash } from 'node:crypto';
import { pool, withTransaction } from './client';
import { RESULT_CACHE_FORMAT, resultsVersion } from './result-cache';

// The review list in SQL, paged like the trials table: every baseline → treatment pair with a failed trial
// on either side, classed as lib/analysis/review.ts classes them (regressed first), one page at a time.

interface Spec {
  studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[];
}

// Grouped by pair key, not joined: no plan depends on statistics (there are none right after a run's rows
// are written); the baseline side beside each other condition's.
const PAIRS_SQL = `
  WITH g AS (
         SELECT t.study, t.pair_key, t.scenario, t.locale, t.case_id, t.replicate, t.order_index,
                max(t.id) FILTER (WHERE t.condition = ${BASELINE_OF}) AS b_id,
                max(t.status) FILTER (WHERE t.condition = ${BASELINE_OF}) AS b_status,
                array_agg(t.id) FILTER (WHERE t.condition <> ${BASELINE_OF}) AS ids,
                array_agg(t.condition) FILTER (WHERE t.condition <> ${BASELINE_OF}) AS conditions,
                array_agg(t.status) FILTER (WHERE t.condition <> ${BASELINE_OF}) AS statuses
           FROM trials t WHERE t.run_id = $1
          GROUP BY t.study, t.pair_key, t.scenario, t.locale, t.case_id, t.replicate, t.order_index
         HAVING bool_or(t.status = 'failed')
       ), p AS (
         SELECT g.pair_key, g.study, g.scenario, g.locale, g.case_id, g.replicate, g.order_index,
                ($3::text[])[array_position($2::text[], g.study)] AS b_condition, g.b_id, g.b_status,
                x.condition AS t_condition, x.id AS t_id, x.status AS t_status,
                CASE WHEN g.b_status = 'failed' AND x.status = 'failed' THEN 'both-failed'
                     WHEN g.b_status = 'passed' AND x.status = 'failed' THEN 'regressed'
                     WHEN g.b_status = 'failed' AND x.status = 'passed' THEN 'improved'
                     ELSE 'unpaired' END AS class
           FROM g CROSS JOIN LATERAL unnest(g.ids, g.conditions, g.statuses) AS x(id, condition, status)
          WHERE g.b_status = 'failed' OR x.status = 'failed'
       )`;

function baselineArrays(spec: Spec): [string[], string[]] {
  const b = [...baselinesOf(spec)];
  return [b.map(([s]) => s), b.map(([, c]) => c)];
}

/** How many pairs of each class the run has, counted from its trials. */
async function liveReviewPairCounts(runId: string, spec: Spec): Promise<Record<PairClass, number>> {
  const [studies, conditions] = baselineArrays(spec);
  const r = await pool().query<{ class: PairClass; n: number }>(`${PAIRS_SQL} SELECT class, count(*)::int AS n FROM p GROUP BY class`, [runId, studies, conditions]);
  const out = Object.fromEntries(PAIR_CLASSES.map((c) => [c, 0])) as Record<PairClass, number>;
  for (const x of r.rows) out[x.class] = x.n;
  return out;
}

/** One page of the review list, from the run's trials. */
async function liveReviewPairsPage(runId: string, spec: Spec, opts: { show: PairClass | null; page: number; size: number }): Promise<ReviewPair[]> {
  const [studies, conditions] = baselineArrays(spec);
  const r = await pool().query(
    `${PAIRS_SQL}
     SELECT p.*,
            COALESCE((SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = p.b_id AND v.category IS NOT NULL), '{}') AS b_categories,
            COALESCE((SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = p.t_id AND v.category IS NOT NULL), '{}') AS t_categories
       FROM p
      WHERE $4::text IS NULL OR p.class = $4
      ORDER BY array_position($5::text[], p.class), p.study COLLATE "C", p.scenario COLLATE "C", p.locale COLLATE "C", p.case_id COLLATE "C", p.order_index, p.replicate, p.t_condition COLLATE "C"
      LIMIT $6 OFFSET $7`,
    [runId, studies, conditions, opts.show, [...PAIR_CLASSES], opts.size, opts.page * opts.size],
  );
  return r.rows.map(toPair);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a row of PAIRS_SQL's p or of review_pairs (same columns)
export function toPair(x: Record<string, any>): ReviewPair {
  return {
    pairKey: x.pair_key,
    study: x.study,
    scenario: x.scenario,
    locale: x.locale,
    caseId: x.case_id,
    order: x.order_index,
    replicate: x.replicate,
    baseline: { condition: x.b_condition, trialId: x.b_id, status: x.b_status, categories: x.b_categories },
    treatment: { condition: x.t_condition, trialId: x.t_id, status: x.t_status, categories: x.t_categories },
    class: x.class,
  };
}

// A completed run changes no more (lib/db/result-cache.ts): its list is classed and ordered once into
// review_pairs, and a page is read by position (rn, or class_rn within a class).
const ORDER = `array_position($5::text[], p.class), p.study COLLATE "C", p.scenario COLLATE "C", p.locale COLLATE "C", p.case_id COLLATE "C", p.order_index, p.replicate, p.t_condition COLLATE "C"`;

/** The stored list's version (null: the run is not completed, so its list is read from the trials). */
async function storedVersion(runId: string, spec: Spec): Promise<string | null> {
  const version = await resultsVersion(runId);
  if (!version.startsWith(`${RESULT_CACHE_FORMAT};completed;`)) return null;
  return `${version}|${createHash('sha256')
    .update(JSON.stringify(baselineArrays(spec)))
    .digest('hex')
    .slice(0, 16)}`;
}

/** The counts of the stored list, classing it first if it is not stored yet (once: under a lock). */
async function storedCounts(runId: string, spec: Spec, version: string): Promise<Record<PairClass, number>> {
  const key = 'review-pairs';
  const read = async (q: (sql: string, params: unknown[]) => Promise<{ rows: { value: Record<PairClass, number> }[] }>) =>
    (await q(`SELECT value FROM result_cache WHERE run_id = $1 AND key = $2 AND version = $3`, [runId, key, version])).rows[0]?.value ?? null;
  const hit = await read((sql, params) => pool().query(sql, params));
  if (hit) return hit;
  return withTransaction(async (client) => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('review_pairs|' || $1))`, [runId]);
    const again = await read((sql, params) => client.query(sql, params));
    if (again) {
      return again;
    }
    const [studies, conditions] = baselineArrays(spec);
    await client.query(`DELETE FROM review_pairs WHERE run_id = $1`, [runId]);
    await client.query(
      `${PAIRS_SQL}
       INSERT INTO review_pairs (run_id, version, rn, class, class_rn, pair_key, study, scenario, locale, case_id, replicate, order_index,
                                 b_condition, b_id, b_status, t_condition, t_id, t_status)
       SELECT $1, $4, row_number() OVER (ORDER BY ${ORDER}), p.class, row_number() OVER (PARTITION BY p.class ORDER BY ${ORDER}),
              p.pair_key, p.study, p.scenario, p.locale, p.case_id, p.replicate, p.order_index, p.b_condition, p.b_id, p.b_status, p.t_condition, p.t_id, p.t_status
         FROM p`,
      [runId, studies, conditions, version, [...PAIR_CLASSES]],
    );
    const counts = Object.fromEntries(PAIR_CLASSES.map((c) => [c, 0])) as Record<PairClass, number>;
    for (const x of (await client.query<{ class: PairClass; n: number }>(`SELECT class, count(*)::int AS n FROM review_pairs WHERE run_id = $1 GROUP BY class`, [runId]))
      .rows)
      counts[x.class] = x.n;
    await client.query(
      `INSERT INTO result_cache (run_id, key, version, value) VALUES ($1, $2, $3, $4::jsonb)
       ON CONFLICT (run_id, key) DO UPDATE SET version = EXCLUDED.version, value = EXCLUDED.value, computed_at = now()`,
      [runId, key, version, JSON.stringify(counts)],
    );
    return counts;
  });
}

/**
 * The whole review list as a query's common table `l` (the columns of review_pairs, rn its position in the
 * list's order): a completed run's stored list, else classed from its trials. Its parameters come first;
 * the caller's follow from $\{params.length + 1}.
 */
export async function reviewListCte(runId: string, spec: Spec): Promise<{ cte: string; params: unknown[] }> {
  const version = await storedVersion(runId, spec);
  if (version) {
    await storedCounts(runId, spec, version); // classed (once)
    return { cte: `WITH l AS (SELECT * FROM review_pairs WHERE run_id = $1 AND version = $2)`, params: [runId, version] };
  }
  const [studies, conditions] = baselineArrays(spec);
  return {
    cte: `${PAIRS_SQL}, l AS (SELECT p.*, row_number() OVER (ORDER BY ${ORDER.replace('$5', '$4')})::int AS rn FROM p)`,
    params: [runId, studies, conditions, [...PAIR_CLASSES]],
  };
}

/** How many pairs of each class the run has (a completed run's from its stored list). */
export async function reviewPairCounts(runId: string, spec: Spec, opts: { stored?: boolean } = {}): Promise<Record<PairClass, number>> {
  const version = opts.stored === false ? null : await storedVersion(runId, spec);
  return version ? storedCounts(runId, spec, version) : liveReviewPairCounts(runId, spec);
}

/**
 * One page of the review list (all classes, or one), regressed first, then by study, scenario, locale, case,
 * order, replicate — a completed run's read by position from its stored list, the same rows (aggregate.itest.ts).
 */
export async function reviewPairsPage(runId: string, spec: Spec, opts: { show: PairClass | null; page: number; size: number; stored?: boolean }): Promise<ReviewPair[]> {
  const version = opts.stored === false ? null : await storedVersion(runId, spec);
  if (!version) return liveReviewPairsPage(runId, spec, opts);
  await storedCounts(runId, spec, version); // classed (once)
  const from = opts.page * opts.size;
  const r = await pool().query(
    `SELECT p.*,
            COALESCE((SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = p.b_id AND v.category IS NOT NULL), '{}') AS b_categories,
            COALESCE((SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = p.t_id AND v.category IS NOT NULL), '{}') AS t_categories
       FROM review_pairs p
      WHERE p.run_id = $1 AND p.version = $2 AND ${opts.show ? 'p.class = $3 AND p.class_rn > $4 AND p.class_rn <= $4 + $5' : '$3::text IS NULL AND p.rn > $4 AND p.rn <= $4 + $5'}
      ORDER BY ${opts.show ? 'p.class_rn' : 'p.rn'}`,
    [runId, version, opts.show, from, opts.size],
  );
  return r.rows.map(toPair);
}
