import { summarizeCells, type SummarySpec } from '../analysis/summary';
import type { ClusterBy, RunSummary } from '../schema/table1';
import { storedRunCells } from '../db/aggregate';
import { getRun, type RunRow } from '../db/runs';
import { storedTrialUsage } from '../db/usage';
import { getPriceTable } from '../runner/price-table';
import { trialOutcomes } from '../db/results';
import { reviewedCheckStatuses, reviewedPairPlaces, withReviewedStatuses } from '../db/reviews';
import { cellsWithStatusChanges, type RunCells } from '../analysis/cells';
import { trialKeyOf } from '../design/matrix';
import { cachedJsonText } from '../db/result-cache';
import { canonicalJson, sha256 } from '../hash';

// Use case: a run's Table 1 and its reviewed view. The cells come from grouped queries in PostgreSQL (lib/db,
// stored per results version, so a finished run is aggregated once); lib/analysis (pure) turns them into Table 1.

type Spec = SummarySpec & { replicates?: number };

/** Table 1 alone (the cells from PostgreSQL, no outcomes beside them): what the in-memory path computes too. */
export async function loadTable1(runId: string, spec: Spec, clusterBy: ClusterBy = 'case'): Promise<RunSummary> {
  return summarizeCells(spec, await storedRunCells(runId, spec, clusterBy), { clusterBy });
}

/**
 * Table 1 of a run, for the run's experiment spec (the caller has loaded the experiment once), with each
 * study's outcomes beside it (noise floor, cost, power, cards no one passes: lib/analysis/outcomes.ts). `run`:
 * its id, or the row when the caller has loaded it (then it is not read again).
 */
export async function loadRunSummary(run: string | Pick<RunRow, 'id' | 'provider' | 'model'>, spec: Spec, clusterBy: ClusterBy = 'case'): Promise<RunSummary> {
  const runId = typeof run === 'string' ? run : run.id;
  const [row, table] = await Promise.all([typeof run === 'string' ? getRun(runId) : run, getPriceTable()]);
  const price = row ? { table, provider: row.provider, model: row.model } : null;
  // the outcomes are computed from every trial's usage (a million trials: 36 s, loaded), so the summary is stored
  // once the run is completed, as the JSON text it is written as (for the spec and prices it was computed with)
  return cachedJsonText(
    [runId],
    `summary|${clusterBy}|${sha256(canonicalJson({ spec, price }))}`,
    async (): Promise<RunSummary> => {
      const [cells, trials] = await Promise.all([storedRunCells(runId, spec, clusterBy), storedTrialUsage(runId)]);
      return summarizeCells(spec, cells, { clusterBy, outcomes: { trials, replicates: spec.replicates ?? 1, price } });
    },
    { onlyCompleted: true },
  );
}

/**
 * The cells of Table 1 with the reviewers' readings applied (the view of lib/db/reviews.ts reviewedOutcomes),
 * without loading every trial: the run's (stored) cells, moved by the trials of the pairs that hold a reviewed
 * trial (lib/analysis/cells.ts cellsWithStatusChanges). aggregate.itest.ts holds it equal to the in-memory view.
 */
export async function reviewedCells(runId: string, spec: Spec, by: ClusterBy = 'case'): Promise<{ cells: RunCells; changed: number }> {
  const byTrial = await reviewedCheckStatuses(runId);
  // every trial of the pairs that hold a reviewed trial: their trial keys, one per condition of the study
  const places = await reviewedPairPlaces(runId, [...byTrial.keys()]);
  const conditionsOf = new Map(spec.studies.map((s) => [s.id, s.conditions.map((c) => c.id)]));
  const keys = places.flatMap((p) => (conditionsOf.get(p.study) ?? []).map((condition) => trialKeyOf({ ...p, condition })));
  const [cells, before] = await Promise.all([storedRunCells(runId, spec, by), keys.length > 0 ? trialOutcomes(runId, { trialKeys: keys }) : []]);
  const { outcomes: after, changed } = withReviewedStatuses(before, byTrial);
  return { cells: changed > 0 ? cellsWithStatusChanges(spec, cells, before, after, by) : cells, changed };
}
