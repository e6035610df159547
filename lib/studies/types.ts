import type { z } from 'zod';
import type { Case, Condition, ExperimentSpec, Scenario, Study, ToolDefinition } from '../schema/experiment';
import type { EvidenceGateItem, TccCheck, TccObservations } from '../schema/tcc';
import type { Observation, ToolCall } from '../schema/observation';
import type { ProviderRequest, TurnToolResult, WireToolResult } from '../schema/request';
import type { ScoringTool, TrialScore } from '../scoring/score';
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

/** What a kind needs to start one trial's conversation. */
export interface ConversationContext {
  spec: ExperimentSpec;
  study: Study;
  kase: Case;
  condition: string;
  /** The tools sent, in order, with their hidden metadata and the schema sent. */
  tools: ScoringTool[];
  /**
   * Names the model could see before it decided, as observed (the tools sent, a retriever's top-k); absent:
   * every tool sent; `unknown`: it cannot be known (lib/scoring/visibility.ts).
   */
  visible?: readonly string[] | 'unknown';
}

/**
 * One trial's conversation in progress (the shape Inspect uses: build a transcript, score the final state).
 * Every kind's trial is one: a single-answer kind is a conversation with a turn limit of 1 whose calls are
 * the answer; a task's calls run against the scenario's fixture back-end and their results go back.
 */
export interface Conversation {
  maxTurns: number;
  /**
   * Execute one answer's calls (new or replayed from a stored turn), in order; the results go back to the
   * model. Absent: the calls are the answer — nothing runs them, and the conversation's turns are not stored
   * beside its attempts (the one attempt is the whole transcript).
   */
  apply?(calls: readonly (ToolCall & { id: string })[]): { results: TurnToolResult[]; evidence: unknown };
  /** Score the finished conversation (the last turn's answer has no calls, or the turn limit was reached). */
  score(turns: readonly StoredTurn[]): ConversationScore;
}

/** A finished conversation's formal result: verdicts, checkpoints, the observation stored, the kind's details. */
export interface ConversationScore extends TrialScore {
  /** The whole conversation as one observation (every call, the final answer's text and markers). */
  observation: Observation;
  /** The kind's own result, stored with the trial (task: the fixture states and log); null when it has none. */
  details: unknown;
  /** What the provider reported the model could see (vendor tool search), to be stored as the trial's `visible`. */
  visible?: readonly string[];
}

/** A study kind: one module (spec fields and validation, the start of its transcript, its conversation, its page). */
export interface KindModule {
  spec: KindSpec;
  /** One line shown with the study on pages and in docs. */
  summary: string;
  /** 'conversation': its trials can take several turns, its calls run (the request's `callsRun`; the trial page shows them); 'single': one answer. */
  turns: 'single' | 'conversation';
  /** Add the kind's parts to the provider-neutral request — e.g. an injected step of history (never anything from the case card). */
  extendRequest(request: ProviderRequest, ctx: RequestContext): void;
  /** Start one trial's conversation. */
  start(ctx: ConversationContext): Conversation;
  /** The kind's own case fields for the trial page (shown as JSON text), or null when it has none. */
  caseDetails(kase: Case): Record<string, unknown> | null;
  /**
   * The kind's own parts of a stored trial's TCC case card and observation file (docs/export.md); absent, or
   * null for a trial: the card every kind shares (the checks as the case states them, mode "proposal").
   */
  tcc?(trial: TrialForTcc): KindTcc | null;
}

/** A stored trial as a kind's TCC part reads it. */
export interface TrialForTcc {
  id: string;
  /** The kind's details stored with the trial (ConversationScore.details); null when none were stored. */
  details: unknown;
  /** The case's checks for the trial's condition. */
  checks: TccCheck[];
  observation: Observation | null;
  tools: readonly ScoringTool[];
  scenario: Scenario | undefined;
}

/** A kind's TCC part: the card's checks and extra evidence-gate items, its fixture reference and mode, the observations. */
export interface KindTcc {
  checks: TccCheck[];
  evidenceGate: z.infer<typeof EvidenceGateItem>[];
  fixtureRef: string;
  mode: 'fixture';
  observations: TccObservations;
}

export type { WireToolResult };
