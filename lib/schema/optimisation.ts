// The stored record of one run of the improve-descriptions loop (docs/optimise.md): what lib/db/optimisations.ts
// returns and lib/optimise/loop.ts writes. Plain types: the record is written by the loop alone, never parsed
// from a door's input.

import type { Actor } from './actor';
import type { RunSettingsInput } from './run';

/** The rule that picks the winner(s) from the select split (lib/analysis/optimise.ts SelectionRule). */
export type StoredSelectionRule = { kind: 'best' } | { kind: 'top'; m: number };

/** How far the loop got: select is running; frozen: the winner(s) are fixed, the confirmation may run. */
export const OPTIMISATION_STAGES = ['select', 'frozen', 'confirmed', 'no-winner', 'failed'] as const;
export type OptimisationStage = (typeof OPTIMISATION_STAGES)[number];

export interface SplitShares {
  tune: number;
  select: number;
  confirm: number;
}

/** A candidate condition of the select run, with where it came from (`variant.kind`: rule:…, hand, placebo…). */
export interface OptimisationCandidate {
  condition: string;
  label: string;
  /** `rule:<lint rule>`, `hand`, `model:<provider>:<model>` or `placebo`. */
  provenance: string;
  /** The condition it was made from (the baseline for rule fixes and the placebo). */
  of: string | null;
  placebo: boolean;
  /** Tools whose definition the candidate changes, with the text before and after. */
  changes: { scenario: string; locale: string; tool: string; before: string; after: string }[];
}

export interface StoredDifference {
  estimate: number | null;
  se: number | null;
  ci95: [number, number] | null;
  ciReason: string | null;
  pairs: number;
  clusters: number;
  df: number;
}

/** Pairs the baseline got right that a candidate sends to another tool it was sent (lib/analysis/side-effects.ts). */
export interface StoredConfusion {
  /** What the card expects (the tool's name as sent, CLARIFY, STOP or a label). */
  expected: string;
  /** The tool the candidate's trial called instead (its name as sent). */
  chosen: string;
  pairs: number;
  /** The case ids it happened in. */
  cases: string[];
}

/** A condition's tokens and cost per request on the select split (means over the requests that reported tokens). */
export interface StoredPerRequest {
  requests: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** At the price table's row for the select target (null without one). */
  cost: number | null;
}

/** One stage of a candidate's funnel pairs: against the baseline, over the pairs where both trials reached the stage. */
export interface StoredStageShift {
  improved: number;
  same: number;
  regressed: number;
  pExact: number | null;
}

/**
 * A candidate's funnel on the select split, per discovery × N (catalog studies only; lib/analysis/funnel.ts): stage 1,
 * the needed tool visible; stage 2, chosen once visible on both sides; and the pair's reading in words.
 */
export interface StoredFunnelShift {
  discovery: string | null;
  catalogSize: number | null;
  visible: StoredStageShift;
  chosen: StoredStageShift;
  reading: string;
}

export interface StoredRanked {
  candidate: string;
  placebo: boolean;
  rank: number;
  difference: StoredDifference;
  improved: number;
  regressed: number;
  pExact: number;
  beatsPlacebo: boolean | null;
  /** What else the candidate changes on the select split (absent in records stored before it was kept). */
  sideEffects?: {
    newConfusions: StoredConfusion[];
    perRequest: StoredPerRequest;
    /** Absent in records stored before it was kept; empty for a study with no catalog. */
    funnel?: StoredFunnelShift[];
  };
}

export interface StoredConfirm {
  candidate: string;
  selectEstimate: number | null;
  difference: StoredDifference;
  improved: number;
  regressed: number;
  pExact: number;
  pHolm: number;
  claims: number;
  vsPlacebo: { difference: StoredDifference; pExact: number } | null;
  reading: 'confirmed' | 'not-confirmed' | 'no-better-than-placebo';
  /** The reading in words (lib/analysis/optimise.ts confirmSentence). */
  sentence: string;
}

export interface StoredHeterogeneity {
  q: number;
  df: number;
  p: number;
  i2: number;
  pooled: number;
  k: number;
}

export interface OptimisationResult {
  select: {
    runId: string;
    ranked: StoredRanked[];
    /** The baseline's tokens and cost per request, beside each candidate's (absent in older records). */
    baseline?: { condition: string; perRequest: StoredPerRequest };
    /** The price table's currency for the costs (null without a price row for the select target). */
    currency?: string | null;
  } | null;
  /** One entry per target, in the order given. */
  confirm: { target: string; runId: string; readings: StoredConfirm[] }[];
  /** Per winner: its confirm difference on each target and Cochran's Q across targets (null with fewer than two). */
  transfer: { candidate: string; perTarget: { target: string; difference: StoredDifference }[]; heterogeneity: StoredHeterogeneity | null }[];
  /** The p-values of earlier looks at the same confirm split that Holm counted. */
  earlierLookPs: number[];
}

export interface OptimisationRow {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  actor: string;
  experimentId: string;
  studyId: string;
  splitSeed: number;
  splitShares: SplitShares;
  sealed: { count: number; sha256: string };
  rule: StoredSelectionRule;
  /** `provider:model`, the first one runs the select stage. */
  targets: string[];
  candidates: OptimisationCandidate[];
  stage: OptimisationStage;
  selectExperimentId: string | null;
  selectRunId: string | null;
  winners: string[] | null;
  frozenAt: Date | null;
  look: number | null;
  confirmExperimentId: string | null;
  confirmRunIds: string[] | null;
  result: OptimisationResult | null;
  error: string | null;
}

/**
 * What the worker needs to continue a record besides what the record holds (docs/optimise.md "The loop,
 * stored"): who started it (the runs are started as them), the settings of every run besides provider and
 * model, the spend confirmation, and the candidate bound the candidates were gathered under.
 */
export interface OptimisationRequest {
  actor: Actor;
  settings: Omit<RunSettingsInput, 'provider' | 'model'>;
  /** lib/runner/spend.ts SpendConfirmation */
  confirm: { yes?: boolean; maxRequests?: number | null } | null;
  maxCandidates: number;
  /**
   * What the loop's runs may still spend once the rewriter's request is paid (lib/optimise/budget.ts): the
   * select run's budget, and what the confirmation's runs share (absent or null: no budget).
   */
  budget?: { requests: number | null; tokens: number | null; cost: number | null } | null;
}
