import type { ModelPairCell } from '../schema/compare';
import type { ClusterBy } from '../schema/table1';
import { createHash } from 'node:crypto';
import { clusterSql, DECISION_SQL } from './aggregate';
import { pool } from './client';
import { cachedResult } from './result-cache';

// Rows for comparing two runs (lib/runs/compare.ts composes them): identical trials — same study, scenario,
// locale, case, condition, candidate order and replicate (the trial key) — both runs decided, optionally only
// those of the given (study, case) pairs: the unchanged cases of two versions of one experiment.

export interface CaseRef {
  study: string;
  caseId: string;
}

/** `AND (o.study, o.case_id) IN (…)` over arrays $n, $n+1, or nothing when every case pairs. */
function caseFilter(cases: readonly CaseRef[] | null, first: number): { sql: string; params: unknown[] } {
  if (!cases) return { sql: '', params: [] };
  return {
    sql: `AND (o.study, o.case_id) IN (SELECT * FROM unnest($${first}::text[], $${first + 1}::text[]))`,
    params: [cases.map((c) => c.study), cases.map((c) => c.caseId)],
  };
}

/**
 * The run-vs-run cells of two runs in one grouped query, counted per study, condition and cluster. The same
 * cells as lib/analysis/compare-runs.ts modelPairCells (aggregate.itest.ts).
 */
export async function modelPairCellsSql(
  referenceRunId: string,
  otherRunId: string,
  clusterBy: ClusterBy = 'case',
  cases: readonly CaseRef[] | null = null,
): Promise<ModelPairCell[]> {
  const f = caseFilter(cases, 3);
  const r = await pool().query(
    `SELECT o.study, o.condition, ${clusterSql(clusterBy, 'o')} AS cluster, count(*) AS pairs,
            count(*) FILTER (WHERE o.status = 'passed' AND f.status = 'failed') AS improved,
            count(*) FILTER (WHERE o.status = 'failed' AND f.status = 'passed') AS regressed,
            count(*) FILTER (WHERE f.status = 'passed') AS ref_pass, count(*) FILTER (WHERE o.status = 'passed') AS other_pass
       FROM trials o JOIN trials f ON f.run_id = $1 AND f.trial_key = o.trial_key
      WHERE o.run_id = $2 AND o.status IN ('passed', 'failed') AND f.status IN ('passed', 'failed') ${f.sql}
      GROUP BY 1, 2, 3`,
    [referenceRunId, otherRunId, ...f.params],
  );
  return r.rows.map((x) => ({
    study: x.study,
    condition: x.condition,
    cluster: x.cluster,
    pairs: Number(x.pairs),
    improved: Number(x.improved),
    regressed: Number(x.regressed),
    refPass: Number(x.ref_pass),
    otherPass: Number(x.other_pass),
  }));
}

/**
 * Condition against condition across runs (run A's `refCondition` against run B's `otherCondition`): trials
 * paired by the pair key (study, scenario, locale, case, order, replicate) both decided, per study and cluster;
 * each cell's `condition` is `otherCondition`.
 */
export async function conditionPairCellsSql(
  ref: { runId: string; condition: string },
  other: { runId: string; condition: string },
  clusterBy: ClusterBy = 'case',
  cases: readonly CaseRef[] | null = null,
): Promise<ModelPairCell[]> {
  const f = caseFilter(cases, 5);
  const r = await pool().query(
    `SELECT o.study, ${clusterSql(clusterBy, 'o')} AS cluster, count(*) AS pairs,
            count(*) FILTER (WHERE o.status = 'passed' AND f.status = 'failed') AS improved,
            count(*) FILTER (WHERE o.status = 'failed' AND f.status = 'passed') AS regressed,
            count(*) FILTER (WHERE f.status = 'passed') AS ref_pass, count(*) FILTER (WHERE o.status = 'passed') AS other_pass
       FROM trials o JOIN trials f ON f.run_id = $1 AND f.pair_key = o.pair_key AND f.condition = $3
      WHERE o.run_id = $2 AND o.condition = $4 AND o.status IN ('passed', 'failed') AND f.status IN ('passed', 'failed') ${f.sql}
      GROUP BY 1, 2`,
    [ref.runId, other.runId, ref.condition, other.condition, ...f.params],
  );
  return r.rows.map((x) => ({
    study: x.study,
    condition: other.condition,
    cluster: x.cluster,
    pairs: Number(x.pairs),
    improved: Number(x.improved),
    regressed: Number(x.regressed),
    refPass: Number(x.ref_pass),
    otherPass: Number(x.other_pass),
  }));
}

/** modelPairCellsSql, stored per the two runs' results versions (lib/db/result-cache.ts). */
export async function storedModelPairCells(
  referenceRunId: string,
  otherRunId: string,
  clusterBy: ClusterBy = 'case',
  cases: readonly CaseRef[] | null = null,
): Promise<ModelPairCell[]> {
  const scope = cases
    ? `|${createHash('sha256')
        .update(JSON.stringify(cases.map((c) => [c.study, c.caseId])))
        .digest('hex')
        .slice(0, 16)}`
    : '';
  return cachedResult([referenceRunId, otherRunId], `compare|${otherRunId}|${clusterBy}${scope}`, () => modelPairCellsSql(referenceRunId, otherRunId, clusterBy, cases), {
    encode: (cells) => cells,
    decode: (stored) => stored as ModelPairCell[],
  });
}

export type PairChange = 'improved' | 'same' | 'regressed';

export interface ComparedTrial {
  trialId: string;
  status: string;
  /** `call <tool>`, a marker, `label <L>` or `no call` (lib/db/aggregate.ts DECISION_SQL). */
  decision: string | null;
}

export interface ComparedTrialPair {
  scenario: string;
  locale: string;
  caseId: string;
  orderIndex: number;
  replicate: number;
  reference: ComparedTrial;
  other: ComparedTrial;
}

const CHANGE_SQL: Record<PairChange, string> = {
  improved: `o.status = 'passed' AND f.status = 'failed'`,
  regressed: `o.status = 'failed' AND f.status = 'passed'`,
  same: `o.status = f.status`,
};

/** At most this many pairs listed at once. */
export const MAX_LISTED_PAIRS = 500;

/** The identical trials of one study and condition both runs decided, of one kind of change, in trial-key order. */
export async function comparedTrialPairs(
  referenceRunId: string,
  otherRunId: string,
  where: { study: string; condition: string; change: PairChange },
  cases: readonly CaseRef[] | null = null,
): Promise<ComparedTrialPair[]> {
  const f = caseFilter(cases, 6);
  const decision = (alias: string) => DECISION_SQL.replaceAll('o.', `${alias}.`);
  const r = await pool().query(
    `SELECT o.scenario, o.locale, o.case_id, o.order_index, o.replicate,
            f.id AS ref_id, f.status AS ref_status, CASE WHEN fo.trial_id IS NULL THEN NULL ELSE ${decision('fo')} END AS ref_decision,
            o.id AS other_id, o.status AS other_status, CASE WHEN oo.trial_id IS NULL THEN NULL ELSE ${decision('oo')} END AS other_decision
       FROM trials o JOIN trials f ON f.run_id = $1 AND f.trial_key = o.trial_key
       LEFT JOIN observations oo ON oo.trial_id = o.id LEFT JOIN observations fo ON fo.trial_id = f.id
      WHERE o.run_id = $2 AND o.study = $3 AND o.condition = $4 AND o.status IN ('passed', 'failed') AND f.status IN ('passed', 'failed')
        AND ${CHANGE_SQL[where.change]} ${f.sql}
      ORDER BY o.trial_key LIMIT $5`,
    [referenceRunId, otherRunId, where.study, where.condition, MAX_LISTED_PAIRS, ...f.params],
  );
  return r.rows.map((x) => ({
    scenario: x.scenario,
    locale: x.locale,
    caseId: x.case_id,
    orderIndex: x.order_index,
    replicate: x.replicate,
    reference: { trialId: x.ref_id, status: x.ref_status, decision: x.ref_decision },
    other: { trialId: x.other_id, status: x.other_status, decision: x.other_decision },
  }));
}
