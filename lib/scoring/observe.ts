import type { Observation, ToolCall } from '../schema/observation';
import type { TccCheck, TccObservations, TccObservedEntry } from '../schema/tcc';

/** A tool as sent in a trial, with its hidden metadata (never sent to the model). */
export interface ScoringTool {
  /** Scenario tool id (the `tool` of a case card's expectation). */
  id: string;
  /** The function name the model saw. */
  name: string;
  effect: 'read' | 'write';
  parameters: Record<string, unknown>;
  /** A catalog distractor (issue 23): never a card's expected tool; its effect is read from its MCP annotations. */
  distractor?: boolean;
}

/** What the model decided: a TCC decision, or no decision (`none`), an unusable call, or a refusal. */
export type ObservedDecision = 'read' | 'write' | 'clarify' | 'stop' | 'none' | 'malformed' | 'refusal';

export interface DerivedDecision {
  decision: ObservedDecision;
  /** Where the decision was read: `toolCalls[0].name`, `toolCalls[0].arguments` or `text`. */
  part: string | null;
  /** Why the first call is unusable: `unknown_tool:<name>`, `unparseable_arguments`, or the provider's reason. */
  malformed: string | null;
  firstCall: ToolCall | null;
  /** The sent tool the first call names, if any. */
  firstTool: ScoringTool | null;
}

/**
 * Decision from the observation (DESIGN §6): the first call's tool effect (read/write); without a call, the
 * CLARIFY / STOP marker; a first call naming no sent tool, or with unparseable arguments, is `malformed`.
 */
export function deriveDecision(observation: Observation, tools: readonly ScoringTool[]): DerivedDecision {
  const firstCall = observation.toolCalls[0] ?? null;
  if (firstCall) {
    const firstTool = tools.find((t) => t.name === firstCall.name) ?? null;
    if (!firstTool) return { decision: 'malformed', part: 'toolCalls[0].name', malformed: `unknown_tool:${firstCall.name}`, firstCall, firstTool };
    if (firstCall.arguments === null)
      return { decision: 'malformed', part: 'toolCalls[0].arguments', malformed: observation.malformed ?? 'unparseable_arguments', firstCall, firstTool };
    return { decision: firstTool.effect, part: 'toolCalls[0].name', malformed: null, firstCall, firstTool };
  }
  const none = { firstCall: null, firstTool: null };
  if (observation.malformed) return { decision: 'malformed', part: 'toolCalls', malformed: observation.malformed, ...none };
  if (observation.marker === 'CLARIFY') return { decision: 'clarify', part: 'text', malformed: null, ...none };
  if (observation.marker === 'STOP') return { decision: 'stop', part: 'text', malformed: null, ...none };
  if (observation.refusal) return { decision: 'refusal', part: 'refusal', malformed: null, ...none };
  return { decision: 'none', part: 'text', malformed: null, ...none };
}

/** Fields of `expected` we can observe from a model answer; anything else (write_count, …) needs a back-end. */
const OBSERVABLE = new Set(['decision', 'tool', 'call_count', 'arguments', 'label']);

/**
 * The observation file of a trial (TCC v0.1, keyed by check id). A check gets `null` (→ untested) when
 * there is no model answer, or when it expects anything only a fixture back-end could show (`write_count`).
 * Otherwise its entry holds, for each expected field, what was observed: `decision`, `tool` (scenario tool
 * id of the first call; absent without a call), `call_count`, `arguments` (of the first call; null without
 * a usable call — none, or one naming no sent tool, or unparseable), `label` (null when none was reported).
 * An unusable first call adds `malformed` (its reason).
 */
export function observationToTcc(checks: readonly TccCheck[], observation: Observation | null, tools: readonly ScoringTool[]): TccObservations {
  const out = Object.create(null) as TccObservations; // keyed by check ids: no prototype to find
  const d = observation ? deriveDecision(observation, tools) : null;
  for (const check of checks) {
    const keys = Object.keys(check.expected).filter((k) => check.expected[k] !== undefined);
    if (!observation || !d || keys.some((k) => !OBSERVABLE.has(k))) {
      out[check.id] = null;
      continue;
    }
    const entry: TccObservedEntry = {};
    for (const key of keys) {
      if (key === 'decision') entry.decision = d.decision;
      else if (key === 'tool') {
        if (d.firstCall) entry.tool = d.firstTool?.id ?? d.firstCall.name;
      } else if (key === 'call_count') entry.call_count = observation.toolCalls.length;
      else if (key === 'arguments') entry.arguments = d.decision === 'malformed' ? null : (d.firstCall?.arguments ?? null);
      else if (key === 'label') entry.label = observation.label;
    }
    if (d.malformed && keys.some((k) => k !== 'label')) entry.malformed = d.malformed;
    out[check.id] = entry;
  }
  return out;
}
