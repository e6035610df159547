import { summarizeCells, type SummarySpec } from '../analysis/summary';
import type { ClusterBy, RunSummary } from '../schema/table1';
import { storedRunCells } from '../db/aggregate';
import { trialOutcomes } from '../db/results';
import { reviewedCheckStatuses, reviewedPairPlaces, withReviewedStatuses } from '../db/reviews';
import { cellsWithStatusChanges, type RunCells } from '../analysis/cells';
import { trialKeyOf } from '../design/matrix';

// Use case: a run's Table 1 and its reviewed view. The cells come from grouped queries in PostgreSQL (lib/db,
// stored per results version, so a finished run is aggregated once); lib/analysis (pure) turns them into Table 1.

type Spec = SummarySpec & { replicates?: number };

/** Table 1 of a run, for the run's experiment spec (the caller has loaded the experiment once). */
export async function loadRunSummary(runId: string, spec: Spec, clusterBy: ClusterBy = 'case'): Promise<RunSummary> {
  return summarizeCells(spec, await storedRunCells(runId, spec, clusterBy), { clusterBy });
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
