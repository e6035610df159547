import { z } from 'zod';
import { Difference, McNemarResult, RunSummary } from './table1';

// Runs of the same experiment version side by side (issue 10 item 4): Table 1 per model, each model's
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

export const RunComparison = z.object({
  format: z.literal(COMPARE_FORMAT),
  experimentId: z.string(),
  clusterBy: z.enum(['case', 'scenario']),
  /** The first run is the reference every other run is compared with. */
  runs: z.array(ComparedRun),
  differences: z.array(ModelDifference),
});
export type RunComparison = z.infer<typeof RunComparison>;
