import type { Case, Condition, ToolDefinition } from '../schema/experiment';
import type { ProviderRequest } from '../schema/request';
import type { ScoreTrialInput, TrialScore } from '../scoring/score';
import type { KindSpec } from './spec-types';

/** What building a trial's request gives a kind to work with. */
export interface RequestContext {
  kase: Case;
  condition: Condition;
  /** The condition's definitions for the case's scenario and locale, in the scenario's order. */
  definitions: ToolDefinition[];
}

/**
 * One study kind (DESIGN §2 "One module per kind"): its spec fields and validation, how its requests are
 * built, how its answers are scored, what the trial page shows of it. lib/studies/registry.ts holds them.
 */
export interface KindModule {
  spec: KindSpec;
  /** One line shown with the study on pages and in docs. */
  summary: string;
  /** Add the kind's parts to the provider-neutral request (never anything from the case card). */
  extendRequest(request: ProviderRequest, ctx: RequestContext): void;
  /** Score a single model answer against the case card. */
  score(input: ScoreTrialInput): TrialScore;
  /** The kind's own case fields for the trial page (shown as JSON text), or null when it has none. */
  caseDetails(kase: Case): Record<string, unknown> | null;
}
