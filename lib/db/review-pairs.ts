import { PAIR_CLASSES, type PairClass, type ReviewPair } from '../analysis/review';
import { baselinesOf } from '../analysis/cells';
import { BASELINE_OF } from './aggregate';
import { pool } from './client';

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
