import { UnpassableCase } from './outcomes';
import { z } from 'zod';
import { Difference, McNemarResult, RunSummary } from './table1';

// Runs of one experiment (any of its versions) side by side (docs/compare.md): Table 1 per model, each model's
// paired effect of the definitions (inside its Table 1), and model-vs-model paired differences on
// identical trials (same study, scenario, locale, case, condition, order, replicate). The format of
// `tclab runs compare --json` and of the compare page.

export const COMPARE_FORMAT = 'tclab.compare/v1';

export const ComparedRun = z.object({
  runId: z.string(),
  provider: z.string(),
  model: z.string(),
  /** "simulated/simulated-lexical-v1"; `simulated` marks a heuristic, not a language model. */
  label: z.string(),
  simulated: z.boolean(),
  status: z.string(),
  /** The experiment version the run ran: runs of different versions of one experiment compare on their unchanged cases. */
  experimentId: z.string(),
  version: z.number().int(),
  /** Every condition id of the run's version (for condition against condition). */
  conditions: z.array(z.string()),
  summary: RunSummary,
});
export type ComparedRun = z.infer<typeof ComparedRun>;

/** One model against the reference model on the trials both decided (passed or failed) in one condition. */
export const ModelDifferenceCell = z.object({
  condition: z.string(),
  /** Identical trials decided in both runs. */
  pairs: z.number().int(),
  referencePass: z.number().int(),
  otherPass: z.number().int(),
  /** b: the other model passed where the reference failed; c: the reverse. */
  otherBetter: z.number().int(),
  /** Pairs both passed or both failed. */
  same: z.number().int(),
  referenceBetter: z.number().int(),
  /** other − reference pass rate over those trials, its cluster-robust SE and t interval (clusters: cases). */
  difference: Difference,
  mcnemar: McNemarResult.nullable(),
});
export type ModelDifferenceCell = z.infer<typeof ModelDifferenceCell>;

export const ModelDifference = z.object({
  study: z.string(),
  referenceRunId: z.string(),
  otherRunId: z.string(),
  /** One cell per condition of the study (baseline first). */
  conditions: z.array(ModelDifferenceCell),
});
export type ModelDifference = z.infer<typeof ModelDifference>;

/** A change between the two versions by JSON path (lib/design/spec-diff.ts). */
export const VersionChange = z.object({
  path: z.string(),
  kind: z.enum(['added', 'removed', 'changed']),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});

/** A case kept out of the paired counts, with why (e.g. "task text changed", "card changed", "only in v2"). */
export const ExcludedCase = z.object({ study: z.string(), caseId: z.string(), scenario: z.string(), locale: z.string(), reason: z.string() });
export type ExcludedCase = z.infer<typeof ExcludedCase>;

/** What separates the reference run's version from another run's: the spec diff and the cases that do not pair. */
export const VersionComparison = z.object({
  referenceRunId: z.string(),
  otherRunId: z.string(),
  from: z.string(),
  to: z.string(),
  /** Empty when both runs ran the same version. */
  changes: z.array(VersionChange),
  /** Cases whose trials pair (unchanged between the versions). */
  pairedCases: z.number().int(),
  excludedCases: z.array(ExcludedCase),
});
export type VersionComparison = z.infer<typeof VersionComparison>;

export const RunComparison = z.object({
  format: z.literal(COMPARE_FORMAT),
  experimentId: z.string(),
  clusterBy: z.enum(['case', 'scenario']),
  /** The first run is the reference every other run is compared with. */
  runs: z.array(ComparedRun),
  differences: z.array(ModelDifference),
  /** One per run after the first: its version against the reference's. */
  versions: z.array(VersionComparison),
  /** Per study, cases failed by every condition of every run: check the case card (docs/statistics.md). */
  unpassable: z.array(z.object({ study: z.string(), cases: z.array(UnpassableCase) })).optional(),
  /**
   * Runs compared across versions although they differ beyond their descriptions (model, temperature, case
   * set, …; lib/analysis/comparability.ts): the override's reason and what it let through, per other run.
   */
  guardOverrides: z
    .array(
      z.object({
        runId: z.string(),
        reason: z.string(),
        differences: z.array(z.object({ field: z.string(), study: z.string().optional(), a: z.string(), b: z.string() })),
      }),
    )
    .optional(),
});
export type RunComparison = z.infer<typeof RunComparison>;

/** One side of a condition-against-condition comparison: a run and one of its conditions. */
export const RunCondition = z.object({ runId: z.string(), condition: z.string() });
export type RunCondition = z.infer<typeof RunCondition>;

/** Run B's condition against run A's on trials paired by study, scenario, locale, case, order and replicate. */
export const ConditionComparison = z.object({
  a: RunCondition,
  b: RunCondition,
  version: VersionComparison,
  /** Per study holding both conditions, one cell: B's condition − A's. */
  differences: z.array(ModelDifference),
});
export type ConditionComparison = z.infer<typeof ConditionComparison>;

/** Identical trials of one study, condition and cluster decided in both runs, counted (the compare page's cells). */
export interface ModelPairCell {
  study: string;
  condition: string;
  cluster: string;
  pairs: number;
  /** b: the other model passed where the reference failed; c (`regressed`): the reverse. */
  improved: number;
  regressed: number;
  refPass: number;
  otherPass: number;
}
