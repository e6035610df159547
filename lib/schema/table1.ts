import { z } from 'zod';
import { StudyKind } from './study-kind';
import type { TrialPlace } from './trial-place';
import { StudyCost, StudyNoise, StudyPower, UnpassableCase } from './outcomes';

/** `{pass, n}` — n excludes unresolved and untested trials, which are counted beside it. */
export const PassCount = z.object({ pass: z.number().int(), n: z.number().int(), unresolved: z.number().int().default(0), untested: z.number().int().default(0) });
export type PassCount = z.infer<typeof PassCount>;

/** How trials are grouped into clusters for the cluster-robust statistics: the case (default) or the scenario. */
export const ClusterBy = z.enum(['case', 'scenario']);
export type ClusterBy = z.infer<typeof ClusterBy>;

const Ci = z.tuple([z.number(), z.number()]);

/** A pass rate's cluster-robust (CR1) SE, its t interval on G − 1 df and the design effect (lib/stats/clustered.ts). */
export const Clustered = z.object({
  estimate: z.number().nullable(),
  se: z.number().nullable(),
  ci95: Ci.nullable(),
  clusters: z.number().int(),
  df: z.number().int(),
  designEffect: z.number().nullable(),
});
export type Clustered = z.infer<typeof Clustered>;

/** Treatment − baseline pass rate over complete pairs, with its CR1 SE and t interval. */
export const Difference = z.object({
  estimate: z.number().nullable(),
  se: z.number().nullable(),
  ci95: Ci.nullable(),
  pairs: z.number().int(),
  clusters: z.number().int(),
  df: z.number().int(),
});
export type Difference = z.infer<typeof Difference>;

/** McNemar on b improved and c regressed pairs: the exact test and its mid-p variant. */
export const McNemarResult = z.object({ b: z.number().int(), c: z.number().int(), pExact: z.number(), pMid: z.number() });
export type McNemarResult = z.infer<typeof McNemarResult>;

/**
 * Order consistency of one condition (cases run in more than one candidate order): `cases` are the case ×
 * replicate units with a decision in every order, `consistent` those whose decision (tool chosen, marker,
 * label or no call) was the same in every order; the first-position pick rate is over trials that called a
 * tool: the share that picked whichever tool was listed first, with its Wilson and clustered intervals.
 */
export const OrderConsistency = z.object({
  cases: z.number().int(),
  consistent: z.number().int(),
  flipRate: z.number().nullable(),
  calls: z.number().int(),
  firstPicks: z.number().int(),
  firstPositionRate: z.number().nullable(),
  firstPositionCi95: Ci.nullable(),
  firstPositionClustered: Clustered,
});
export type OrderConsistency = z.infer<typeof OrderConsistency>;

const PairCounts = z.object({ improved: z.number().int(), same: z.number().int(), regressed: z.number().int(), incomplete: z.number().int().default(0) });

const PerCondition = <T extends z.ZodType>(t: T) => z.object({ baseline: t, treatment: t });

export const SummaryRow = z.object({
  scenario: z.string(),
  locale: z.string(),
  baseline: PassCount,
  treatment: PassCount,
  clustered: PerCondition(Clustered).optional(),
  pairs: PairCounts.optional(),
  difference: Difference.optional(),
  mcnemar: McNemarResult.optional(),
  orderConsistency: PerCondition(OrderConsistency.nullable()).optional(),
});
export type SummaryRow = z.infer<typeof SummaryRow>;

/** pass^k of one condition (lib/stats/pass-k.ts): the chance that k replicates of a task all pass. */
export const PassK = z.object({ passHatK: z.number().nullable(), rate: z.number().nullable(), tasks: z.number().int(), skipped: z.number().int() });
export type PassK = z.infer<typeof PassK>;

/** One column of Table 1. */
export const StudySummary = z.object({
  study: z.string(),
  kind: StudyKind,
  baseline: z.string(),
  treatment: z.string(),
  rows: z.array(SummaryRow),
  total: z.object({ baseline: PassCount, treatment: PassCount }),
  pairs: PairCounts,
  /** The exact McNemar p (as `mcnemar.pExact`); null when no pair is complete. */
  mcnemarP: z.number().nullable(),
  /** What the clusters of `clustered` and `difference` are. */
  clusterBy: ClusterBy.optional(),
  clustered: PerCondition(Clustered).optional(),
  difference: Difference.optional(),
  mcnemar: McNemarResult.nullable().optional(),
  /** Present when some case ran in more than one candidate order. */
  orderConsistency: PerCondition(OrderConsistency.nullable()).optional(),
  /** Cases whose decision changed with the order (up to 100 per condition; `flippedTotal` counts all). */
  flipped: z
    .array(
      z.object({
        condition: z.string(),
        scenario: z.string(),
        locale: z.string(),
        caseId: z.string(),
        replicate: z.number().int(),
        trials: z.array(z.object({ id: z.string(), orderNumber: z.number().int().min(1), decision: z.string() })),
      }),
    )
    .optional(),
  flippedTotal: z.number().int().optional(),
  /** failure category → count, per condition (e.g. unwanted_write 12 → 0). */
  categories: z.record(z.string(), z.object({ baseline: z.number().int(), treatment: z.number().int() })).default({}),
  /** With replicates (k > 1): pass^k beside the plain rate, per condition. */
  passK: z.object({ k: z.number().int().min(2), baseline: PassK, treatment: PassK }).optional(),
  /** The noise floor from replicates: per condition flip rate and ICC, and the difference noise alone reaches (docs/statistics.md). */
  noise: StudyNoise.optional(),
  /** Cost as an outcome: tokens, tool calls and turns per condition, paired against the baseline, priced. */
  cost: StudyCost.optional(),
  /** The minimum detectable difference of this run's pairs (α 0.05, power 0.8, design effect included). */
  power: StudyPower.optional(),
  /** Cases every condition failed: check the case card. */
  unpassable: z.array(UnpassableCase).optional(),
});
export type StudySummary = z.infer<typeof StudySummary>;

/** Studies with more than two conditions: each condition's paired effect against the baseline, sorted by effect (largest first). */
export const Ablation = z.object({
  study: z.string(),
  baseline: z.string(),
  conditions: z.array(
    z.object({ condition: z.string(), baseline: PassCount, treatment: PassCount, pairs: PairCounts, difference: Difference, mcnemar: McNemarResult.nullable() }),
  ),
});
export type Ablation = z.infer<typeof Ablation>;

export const RunSummary = z.object({ studies: z.array(StudySummary), ablations: z.array(Ablation).optional() });
export type RunSummary = z.infer<typeof RunSummary>;

/** The minimal per-trial facts analysis needs (a row of the trials table). */
export interface TrialOutcome extends TrialPlace {
  /** Trials sharing it form a pair (lib/design/matrix.ts pairKeyOf); compared whole, never read apart. */
  pairKey: string;
  status: string; // passed | failed | untested | unresolved | queued | running | cancelled
  categories?: string[];
  /** What the model decided (order consistency): `call <tool>`, a marker, `label <L>` or `no call`; absent without an observation. */
  decision?: string;
  /** Whether the first tool called was the one listed first (absent: no tool called). */
  firstPick?: boolean;
}

export const RUN_EXPORT_FORMAT = 'tclab.run/v2';
