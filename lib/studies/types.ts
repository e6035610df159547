import type { Case, Condition, ExperimentSpec, Study, ToolDefinition } from '../schema/experiment';
import type { Observation, ToolCall } from '../schema/observation';
import type { HistoryStep, ProviderRequest, WireToolResult } from '../schema/request';
import type { ScoreTrialInput, ScoringTool, TrialScore } from '../scoring/score';
import type { KindSpec } from './spec-types';
import type { StoredTurn } from '../schema/turn';

export type { StoredTurn } from '../schema/turn';

/** What building a trial's request gives a kind to work with. */
export interface RequestContext {
  kase: Case;
  condition: Condition;
  /** The condition's definitions for the case's scenario and locale, in the scenario's order. */
  definitions: ToolDefinition[];
}

interface KindBase {
  spec: KindSpec;
  /** One line shown with the study on pages and in docs. */
  summary: string;
  /** Add the kind's parts to the provider-neutral request (never anything from the case card). */
  extendRequest(request: ProviderRequest, ctx: RequestContext): void;
  /** The kind's own case fields for the trial page (shown as JSON text), or null when it has none. */
  caseDetails(kase: Case): Record<string, unknown> | null;
}

/** A kind whose trial is one model answer (selection, interpretation). */
export interface SingleTurnKind extends KindBase {
  turns: 'single';
  /** Score the model's answer against the case card. */
  score(input: ScoreTrialInput): TrialScore;
}

/** What a conversation kind needs to start one trial's conversation. */
export interface ConversationContext {
  spec: ExperimentSpec;
  study: Study;
  kase: Case;
  condition: string;
  /** The tools sent, in order, with their hidden metadata and the schema sent. */
  tools: ScoringTool[];
}

/** One trial's conversation in progress (task: the fixture back-end behind it). */
export interface Conversation {
  maxTurns: number;
  /** Execute one answer's calls (new or replayed from a stored turn), in order; the results go back to the model. */
  apply(calls: readonly (ToolCall & { id: string })[]): { results: HistoryStep['results']; evidence: unknown };
  /** Score the finished conversation (the last turn's answer has no calls, or the turn limit was reached). */
  score(turns: readonly StoredTurn[]): ConversationScore;
}

/** A finished conversation's formal result: verdicts, checkpoints, the observation stored, the kind's details. */
export interface ConversationScore extends TrialScore {
  /** The whole conversation as one observation (every call, the final answer's text and markers). */
  observation: Observation;
  details: unknown;
}

/** A kind whose trial is a conversation of several turns (task). */
export interface ConversationKind extends KindBase {
  turns: 'conversation';
  start(ctx: ConversationContext): Conversation;
}

export type KindModule = SingleTurnKind | ConversationKind;
export type { WireToolResult };
