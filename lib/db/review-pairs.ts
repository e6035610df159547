import { PAIR_CLASSES, type PairClass, type ReviewPair } from '../analysis/review';
import { baselinesOf } from '../analysis/cells';
import { orderIndexSql } from './aggregate';
import { pool } from './client';

// The review list in SQL, paged like the trials table: every baseline → treatment pair with a failed trial
// on either side, classed as lib/analysis/review.ts classes them (regressed first), one page at a time.

interface Spec {
  studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[];
}

const CLASS_SQL = `CASE WHEN b.status = 'failed' AND x.status = 'failed' THEN 'both-failed'
  WHEN b.status = 'passed' AND x.status = 'failed' THEN 'regressed'
  WHEN b.status = 'failed' AND x.status = 'passed' THEN 'improved'
  ELSE 'unpaired' END`;

const PAIRS_SQL = `
  WITH bl AS (SELECT * FROM unnest($2::text[], $3::text[]) AS bl(study, condition)),
       x AS (SELECT t.* FROM trials t JOIN bl ON bl.study = t.study AND bl.condition <> t.condition WHERE t.run_id = $1),
       b AS (SELECT t.* FROM trials t JOIN bl ON bl.study = t.study AND bl.condition = t.condition WHERE t.run_id = $1),
       p AS (
         SELECT x.pair_key, x.study, x.scenario, x.locale, x.case_id, x.replicate, ${orderIndexSql('x')} AS order_index,
                bl.condition AS b_condition, b.id AS b_id, b.status AS b_status, x.condition AS t_condition, x.id AS t_id, x.status AS t_status,
                ${CLASS_SQL} AS class
           FROM x JOIN bl ON bl.study = x.study LEFT JOIN b ON b.study = x.study AND b.pair_key = x.pair_key
          WHERE b.status = 'failed' OR x.status = 'failed'
       )`;

function baselineArrays(spec: Spec): [string[], string[]] {
  const b = [...baselinesOf(spec)];
  return [b.map(([s]) => s), b.map(([, c]) => c)];
}

/** How many pairs of each class the run has. */
export async function reviewPairCounts(runId: string, spec: Spec): Promise<Record<PairClass, number>> {
  const [studies, conditions] = baselineArrays(spec);
  const r = await pool().query<{ class: PairClass; n: number }>(`${PAIRS_SQL} SELECT class, count(*)::int AS n FROM p GROUP BY class`, [runId, studies, conditions]);
  const out = Object.fromEntries(PAIR_CLASSES.map((c) => [c, 0])) as Record<PairClass, number>;
  for (const x of r.rows) out[x.class] = x.n;
  return out;
}

/** One page of the review list (all classes, or one), regressed first, then by study, scenario, locale, case, order, replicate. */
export async function reviewPairsPage(runId: string, spec: Spec, opts: { show: PairClass | null; page: number; size: number }): Promise<ReviewPair[]> {
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
  return r.rows.map((x) => ({
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
  }));
}
