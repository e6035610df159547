import type { ClusterBy } from '../schema/table1';
import { orderNumber } from '../schema/trial-place';
import {
  baselinesOf,
  compareFlipped,
  FLIPPED_LIMIT,
  type CategoryCell,
  type FlippedCase,
  type OrderCell,
  type PairCell,
  type RunCells,
  type StatusCell,
  type TaskCell,
} from '../schema/cells';
import { createHash } from 'node:crypto';
import { pool } from './client';
import { cachedResult } from './result-cache';

// Table 1, the paired breakdown, order consistency and failure categories, aggregated in PostgreSQL: each
// query returns counts per cluster (a few rows per case), never a row per trial. lib/analysis/summary.ts
// turns the cells into Table 1; lib/analysis/cells.ts computes the same cells in memory, and
// aggregate.itest.ts holds the two to each other.

/** The cluster of a trial, by case (its orders and replicates) or by scenario. Only these two strings reach SQL. */
export function clusterSql(by: ClusterBy, alias = 't'): string {
  return by === 'scenario' ? `${alias}.scenario` : `${alias}.scenario || '|' || ${alias}.locale || '|' || ${alias}.case_id`;
}

/** The baseline condition of the trial's study, from the arrays $2 (studies) and $3 (their baselines). */
export const BASELINE_OF = `($3::text[])[array_position($2::text[], t.study)]`;

/** What the model decided, for order consistency: the tool called first, else the marker, else the label, else no call. */
export const DECISION_SQL = `CASE WHEN o.tool_calls->0->>'name' IS NOT NULL THEN 'call ' || (o.tool_calls->0->>'name')
  WHEN o.marker IS NOT NULL THEN o.marker WHEN o.label IS NOT NULL THEN 'label ' || o.label ELSE 'no call' END`;

interface Spec {
  studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[];
  replicates?: number;
}

const int = (x: unknown) => Number(x);

/** Where a row of a per-cluster query is counted: its study, condition, scenario, locale and cluster. */
const cellOf = (x: { study: string; condition: string; scenario: string; locale: string; cluster: string }) => ({
  study: x.study,
  condition: x.condition,
  scenario: x.scenario,
  locale: x.locale,
  cluster: x.cluster,
});

async function statusCells(runId: string, by: ClusterBy): Promise<StatusCell[]> {
  const r = await pool().query(
    `SELECT t.study, t.condition, t.scenario, t.locale, ${clusterSql(by)} AS cluster,
            count(*) FILTER (WHERE t.status = 'passed') AS passed, count(*) FILTER (WHERE t.status = 'failed') AS failed,
            count(*) FILTER (WHERE t.status = 'unresolved') AS unresolved, count(*) FILTER (WHERE t.status = 'untested') AS untested
       FROM trials t WHERE t.run_id = $1
      GROUP BY 1, 2, 3, 4, 5`,
    [runId],
  );
  return r.rows.map((x) => ({
    ...cellOf(x),
    passed: int(x.passed),
    failed: int(x.failed),
    unresolved: int(x.unresolved),
    untested: int(x.untested),
  }));
}

/**
 * Pairs: the trials of one pair key grouped together (no join, so no plan depends on statistics: right
 * after a run's rows are written there are none), the baseline's status beside each other condition's.
 * The matrix is inserted whole before a run starts, so every pair has all its sides; a side that is not
 * passed or failed makes the pair incomplete.
 */
async function pairCells(runId: string, spec: Spec, by: ClusterBy): Promise<PairCell[]> {
  const baselines = [...baselinesOf(spec)];
  const r = await pool().query(
    `WITH g AS (
       SELECT t.study, t.scenario, t.locale, t.case_id,
              max(t.status) FILTER (WHERE t.condition = ${BASELINE_OF}) AS b_status,
              array_agg(t.condition) FILTER (WHERE t.condition <> ${BASELINE_OF}) AS conditions,
              array_agg(t.status) FILTER (WHERE t.condition <> ${BASELINE_OF}) AS statuses
         FROM trials t WHERE t.run_id = $1
        GROUP BY t.study, t.pair_key, t.scenario, t.locale, t.case_id
     ), x AS (
       SELECT g.study, g.scenario, g.locale, g.case_id, g.b_status, u.condition, u.status
         FROM g CROSS JOIN LATERAL unnest(g.conditions, g.statuses) AS u(condition, status)
     )
     SELECT x.study, x.condition AS treatment, x.scenario, x.locale, ${clusterSql(by, 'x')} AS cluster,
            count(*) FILTER (WHERE x.b_status = 'failed' AND x.status = 'passed') AS improved,
            count(*) FILTER (WHERE x.b_status = 'passed' AND x.status = 'failed') AS regressed,
            count(*) FILTER (WHERE x.b_status = 'passed' AND x.status = 'passed') AS same_passed,
            count(*) FILTER (WHERE x.b_status = 'failed' AND x.status = 'failed') AS same_failed,
            count(*) FILTER (WHERE x.b_status IS NULL OR x.b_status NOT IN ('passed', 'failed') OR x.status NOT IN ('passed', 'failed')) AS incomplete
       FROM x
      GROUP BY 1, 2, 3, 4, 5`,
    [runId, baselines.map(([st]) => st), baselines.map(([, c]) => c)],
  );
  return r.rows.map((x) => ({
    study: x.study,
    treatment: x.treatment,
    scenario: x.scenario,
    locale: x.locale,
    cluster: x.cluster,
    improved: int(x.improved),
    regressed: int(x.regressed),
    samePassed: int(x.same_passed),
    sameFailed: int(x.same_failed),
    incomplete: int(x.incomplete),
  }));
}

/** Failed trials per failure category (a check fails only with a category, so only failed trials have one). */
async function categoryCells(runId: string): Promise<CategoryCell[]> {
  const r = await pool().query(
    `SELECT d.study, d.condition, d.category, count(*) AS trials
       FROM (SELECT DISTINCT t.id, t.study, t.condition, v.category
               FROM trials t JOIN verdicts v ON v.trial_id = t.id
              WHERE t.run_id = $1 AND t.status = 'failed' AND v.category IS NOT NULL) d
      GROUP BY 1, 2, 3`,
    [runId],
  );
  return r.rows.map((x) => ({ study: x.study, condition: x.condition, category: x.category, trials: int(x.trials) }));
}

/** pass^k needs, per task (a case in one order), its decided replicates and how many passed. */
async function taskCells(runId: string): Promise<TaskCell[]> {
  const r = await pool().query(
    `SELECT t.study, t.condition, t.scenario || '|' || t.locale || '|' || t.case_id || '|o' || t.order_index AS task,
            count(*) FILTER (WHERE t.status = 'passed') AS passed, count(*) FILTER (WHERE t.status IN ('passed', 'failed')) AS decided
       FROM trials t WHERE t.run_id = $1
      GROUP BY 1, 2, 3 HAVING count(*) FILTER (WHERE t.status IN ('passed', 'failed')) > 0`,
    [runId],
  );
  return r.rows.map((x) => ({ study: x.study, condition: x.condition, task: x.task, passed: int(x.passed), decided: int(x.decided) }));
}

/**
 * Order consistency per cluster. A unit is a case × replicate of one condition; it counts when at least two
 * of its orders have a decision (an observation), and is consistent when those decisions agree.
 */
async function orderCells(runId: string, by: ClusterBy): Promise<OrderCell[]> {
  const r = await pool().query(
    `WITH u AS (
       SELECT t.study, t.condition, t.scenario, t.locale, ${clusterSql(by)} AS cluster,
              min(t.order_index) < max(t.order_index) AS several_orders,
              min(${DECISION_SQL} COLLATE "C") = max(${DECISION_SQL} COLLATE "C") AS one_decision,
              count(*) FILTER (WHERE o.tool_calls->0->>'name' IS NOT NULL) AS calls,
              count(*) FILTER (WHERE o.tool_calls->0->>'name' = t."order"->>0) AS first_picks
         FROM trials t JOIN observations o ON o.trial_id = t.id
        WHERE t.run_id = $1
        GROUP BY t.study, t.condition, t.scenario, t.locale, t.case_id, t.replicate
     )
     SELECT study, condition, scenario, locale, cluster,
            count(*) FILTER (WHERE several_orders) AS units, count(*) FILTER (WHERE several_orders AND one_decision) AS consistent,
            sum(calls) AS calls, sum(first_picks) AS first_picks
       FROM u GROUP BY 1, 2, 3, 4, 5`,
    [runId],
  );
  return r.rows.map((x) => ({
    ...cellOf(x),
    units: int(x.units),
    consistent: int(x.consistent),
    calls: int(x.calls),
    firstPicks: int(x.first_picks),
  }));
}

/** The units whose decision changed with the order: up to FLIPPED_LIMIT per study and condition, and how many in all. */
async function flippedCases(runId: string): Promise<{ flipped: FlippedCase[]; flippedTotal: Map<string, number> }> {
  const r = await pool().query(
    `WITH u AS (
       SELECT t.study, t.condition, t.scenario, t.locale, t.case_id, t.replicate,
              -- by order position, ties (catalog sizes, discovery variants of one order) by pair key, as lib/analysis/cells.ts
              array_agg(t.id ORDER BY t.order_index, t.pair_key COLLATE "C") AS ids,
              array_agg(t.order_index ORDER BY t.order_index, t.pair_key COLLATE "C") AS orders,
              array_agg(${DECISION_SQL} ORDER BY t.order_index, t.pair_key COLLATE "C") AS decisions
         FROM trials t JOIN observations o ON o.trial_id = t.id
        WHERE t.run_id = $1
        GROUP BY 1, 2, 3, 4, 5, 6
       HAVING min(t.order_index) < max(t.order_index) AND min(${DECISION_SQL} COLLATE "C") < max(${DECISION_SQL} COLLATE "C")
     ), n AS (
       SELECT u.*, row_number() OVER (PARTITION BY study, condition ORDER BY scenario COLLATE "C", locale COLLATE "C", case_id COLLATE "C", replicate) AS rn,
              count(*) OVER (PARTITION BY study, condition) AS total
         FROM u
     )
     SELECT * FROM n WHERE rn <= $2 ORDER BY study, condition, rn`,
    [runId, FLIPPED_LIMIT],
  );
  const flippedTotal = new Map<string, number>();
  const flipped: FlippedCase[] = r.rows.map((x) => {
    flippedTotal.set(`${x.study}\u0000${x.condition}`, int(x.total));
    return {
      study: x.study as string,
      condition: x.condition as string,
      scenario: x.scenario as string,
      locale: x.locale as string,
      caseId: x.case_id as string,
      replicate: int(x.replicate),
      trials: (x.ids as string[]).map((id, i) => ({ id, orderNumber: orderNumber(int(x.orders[i])), decision: x.decisions[i] as string })),
    };
  });
  return { flipped: flipped.sort(compareFlipped), flippedTotal };
}

/** Every cell of a run's Table 1, from grouped queries run side by side. */
export async function runCells(runId: string, spec: Spec, by: ClusterBy = 'case'): Promise<RunCells> {
  const withTasks = (spec.replicates ?? 2) > 1;
  const [status, pairs, categories, tasks, orders] = await Promise.all([
    statusCells(runId, by),
    pairCells(runId, spec, by),
    categoryCells(runId),
    withTasks ? taskCells(runId) : Promise.resolve([]),
    orderCells(runId, by),
  ]);
  const anyFlip = orders.some((o) => o.units > o.consistent);
  const { flipped, flippedTotal } = anyFlip ? await flippedCases(runId) : { flipped: [], flippedTotal: new Map<string, number>() };
  return { status, pairs, categories, tasks, orders, flipped, flippedTotal };
}

/** What of the spec the cells depend on, hashed into the stored entry's key. */
function specKey(spec: Spec): string {
  const used = { replicates: spec.replicates ?? 2, studies: spec.studies.map((s) => [s.id, s.conditions.map((c) => [c.id, c.baseline])]) };
  return createHash('sha256').update(JSON.stringify(used)).digest('hex').slice(0, 16);
}

/**
 * runCells, stored per results version (lib/db/result-cache.ts): a finished run is aggregated once and read
 * back after; a run in progress is aggregated again once per new version. aggregate.itest.ts holds the stored
 * cells equal to the computed ones.
 */
export async function storedRunCells(runId: string, spec: Spec, by: ClusterBy = 'case'): Promise<RunCells> {
  // `cells2`: the flipped trials carry orderNumber (from 1) since tclab.run/v2; cells stored before under `cells` are not read
  return cachedResult([runId], `cells2|${by}|${specKey(spec)}`, () => runCells(runId, spec, by), {
    // flippedTotal's keys hold U+0000, which jsonb cannot: stored as [study, condition, n]
    encode: (c) => ({ ...c, flippedTotal: [...c.flippedTotal].map(([k, n]) => [...k.split('\u0000'), n]) }),
    decode: (stored) => {
      const c = stored as Omit<RunCells, 'flippedTotal'> & { flippedTotal: [string, string, number][] };
      return { ...c, flippedTotal: new Map(c.flippedTotal.map(([study, condition, n]) => [`${study}\u0000${condition}`, n])) };
    },
  });
}
