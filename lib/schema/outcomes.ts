import { z } from 'zod';
import type { TrialPlace } from './trial-place';

// What a run adds to Table 1 beyond pass rates (docs/design.md#the-statistics-it-relies-on): the noise floor from
// replicates, cost as an outcome, what the run could detect, and the cases no condition passes. Computed by
// lib/analysis/outcomes.ts from one row per trial (TrialUsage), attached to each StudySummary.

/** One trial's outcome and what it spent (a row of lib/db/usage.ts). */
export interface TrialUsage extends Omit<TrialPlace, 'id'> {
  pairKey: string;
  status: string;
  /** Tokens the provider reported over every attempt of the trial; null when no attempt reported any. */
  inputTokens: number | null;
  outputTokens: number | null;
  /** Cached prompt tokens, where the provider reports them (null: not reported). */
  cachedTokens: number | null;
  /** Tool calls the model made (every turn). */
  toolCalls: number;
  /** Model answers: the stored turns of a conversation, 1 for a single answer, 0 without one. */
  turns: number;
}

const Ci = z.tuple([z.number(), z.number()]);

/** The noise of one condition from its replicates: tasks (a case in one order) with ≥ 2 decided replicates. */
export const ConditionNoise = z.object({
  condition: z.string(),
  /** Tasks with at least two decided replicates, and those whose replicates disagreed. */
  tasks: z.number().int(),
  flipped: z.number().int(),
  /** flipped / tasks (null without tasks). */
  flipRate: z.number().nullable(),
  /** ICC of pass/fail within a task (one-way ANOVA); null when it cannot be estimated. */
  icc: z.number().nullable(),
  /** Pooled within-task variance of pass/fail (the replicate noise of one trial). */
  withinVariance: z.number().nullable(),
  /** Decided trials of the condition. */
  n: z.number().int(),
  /** 1.96·√(2·within variance / n): the pass-rate difference two identical runs of this size reach 5% of the time. */
  noiseFloor: z.number().nullable(),
});
export type ConditionNoise = z.infer<typeof ConditionNoise>;

export const StudyNoise = z.object({
  /** Replicates per task in the design. */
  replicates: z.number().int(),
  conditions: z.array(ConditionNoise),
  /** For the baseline vs treatment difference: 1.96·√(σ²_B/n_B + σ²_T/n_T); null when either is unknown. */
  noiseFloor: z.number().nullable(),
  /** |paired difference| < noise floor (null: either unknown). */
  withinNoise: z.boolean().nullable(),
  /** Why there is no noise floor (null when there is one). */
  reason: z.string().nullable(),
});
export type StudyNoise = z.infer<typeof StudyNoise>;

export const COST_METRICS = ['inputTokens', 'outputTokens', 'cachedTokens', 'toolCalls', 'turns'] as const;
export type CostMetric = (typeof COST_METRICS)[number];

/** A metric's total over a condition's trials and its mean per trial (over trials that reported it). */
const MetricTotal = z.object({ total: z.number().nullable(), trials: z.number().int(), perTrial: z.number().nullable() });

/** Treatment − baseline of a metric per pair, mean over pairs where both sides reported it, CR1 interval by case. */
export const MetricDifference = z.object({
  estimate: z.number().nullable(),
  ci95: Ci.nullable(),
  ciReason: z.string().nullable(),
  pairs: z.number().int(),
  clusters: z.number().int(),
});
export type MetricDifference = z.infer<typeof MetricDifference>;

export const ConditionCost = z.object({
  condition: z.string(),
  baseline: z.boolean(),
  /** Trials that got an answer (passed, failed or untested). */
  trials: z.number().int(),
  metrics: z.record(z.enum(COST_METRICS), MetricTotal),
  /** Estimated cost of the condition's tokens at the price table's row for the run's model (null: not priced). */
  cost: z.number().nullable(),
  /** Against the baseline, per metric (absent for the baseline itself). */
  difference: z.record(z.enum(COST_METRICS), MetricDifference).optional(),
});
export type ConditionCost = z.infer<typeof ConditionCost>;

export const StudyCost = z.object({
  conditions: z.array(ConditionCost),
  /** The price row used (null: the price table has no row for the run's provider and model). */
  price: z.object({ provider: z.string(), model: z.string(), inputPerMTok: z.number(), outputPerMTok: z.number(), currency: z.string() }).nullable(),
});
export type StudyCost = z.infer<typeof StudyCost>;

/** What this run could detect: the minimum detectable difference of its pairs at α 0.05 and power 0.8. */
export const StudyPower = z.object({
  alpha: z.number(),
  power: z.number(),
  pairs: z.number().int(),
  psi: z.number().nullable(),
  icc: z.number().nullable(),
  pairsPerCluster: z.number(),
  designEffect: z.number(),
  /** Null when it has no answer (`reason`). */
  minimumDetectable: z.number().nullable(),
  reason: z.string().nullable(),
});
export type StudyPower = z.infer<typeof StudyPower>;

/** A case every condition failed (every decided trial failed): check its card before blaming the model. */
export const UnpassableCase = z.object({ scenario: z.string(), locale: z.string(), caseId: z.string(), trials: z.number().int() });
export type UnpassableCase = z.infer<typeof UnpassableCase>;
