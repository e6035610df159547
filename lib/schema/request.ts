import type { Markers } from './experiment';
import type { ModelAnswer, Observation } from './observation';
import type { TransportErrorKind } from './run';

// The provider-neutral request and result: what lib/design builds from a trial, what lib/runner hands to a
// provider and gets back, and what lib/db stores as an attempt. Every adapter in lib/providers turns a
// ProviderRequest into its own wire format and its answer into an AdapterResult; scoring reads the
// protocol's markers from it (lib/scoring/answer.ts), which makes the ProviderResult the engine records.
// Nothing here is a vendor's type, and nothing here comes from the case card (providers never see expectations).

/** A tool as sent over the wire: hidden metadata (effect, scenario tool id) already stripped. */
export interface WireTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/**
 * One formal request or pre-check, provider-neutral: a transcript. The protocol (system), the user's task,
 * then `history` — the steps before the answer asked for, oldest first (a study's injected call and its
 * result, a conversation's earlier turns) — and the tools the model may call. Adapters turn it into their
 * wire format knowing messages, tools and tool results only.
 */
export interface ProviderRequest {
  /**
   * Whether the answer's calls are run and their results given back to the model (a conversation in which the
   * model acts: lib/studies, a kind whose `turns` is 'conversation'), or are the answer itself, run by nothing.
   * No real wire carries it (a model learns it from the protocol); the simulated models read it
   * (docs/design.md#providers-and-the-simulated-models).
   */
  callsRun: boolean;
  locale: string;
  /** The study's response protocol (system instruction). */
  system: string;
  markers: Markers;
  /** Labels the protocol allows after the status marker. */
  labels: string[];
  /** The candidate tools, in the trial's order. */
  tools: WireTool[];
  /** The user's task text. */
  task: string;
  /** The transcript after the user's task, oldest first (empty: the model answers the task itself). */
  history: HistoryStep[];
  /** The turn of a trial's conversation this request asks for (set by the conversation loop; absent: a pre-check). */
  turn?: number;
  /** The provider's own tool search (absent: every tool is sent and visible). See ToolSearchRequest. */
  toolSearch?: ToolSearchRequest;
}

/**
 * Which vendor tool search a request uses: Anthropic's tool search tool (regex or BM25 variant, with
 * `defer_loading` tools) or OpenAI's `tool_search` (Responses API, deferred functions).
 */
export type ToolSearchMechanism = 'anthropic-regex' | 'anthropic-bm25' | 'openai';
export const TOOL_SEARCH_MECHANISMS: readonly ToolSearchMechanism[] = ['anthropic-regex', 'anthropic-bm25', 'openai'];

/**
 * A discovery part of a request: the mechanism, and the names of the tools (of `tools`) that are deferred —
 * sent, but loaded into the model's context only when the provider's search returns them. Tools not named
 * here are loaded up front as always.
 */
export interface ToolSearchRequest {
  mechanism: ToolSearchMechanism;
  deferred: string[];
}

/** Prefix of the call ids the engine makes up when a provider's call has none (Gemini often gives none). */
export const GENERATED_CALL_ID = 'tclab_';

/** A tool result as sent back to the model: structured JSON with an `isError` flag, as MCP does. */
export interface WireToolResult {
  isError: boolean;
  content: Record<string, unknown>;
}

/**
 * One assistant tool call in a transcript. `id` absent: a call given with none (an injected call); the
 * adapter names it in its own format, and a result without an id answers the call at its position.
 */
export interface HistoryCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | null;
  /** The arguments' text as the model sent it, when it sent text. */
  rawArguments?: string;
}

/**
 * One tool result in a transcript: any JSON value (a string is sent as it is, anything else as its JSON
 * text). `isError` set: the result says whether the call failed (sent where the wire has a field for it).
 */
export interface HistoryResult {
  id?: string;
  name: string;
  result: unknown;
  isError?: boolean;
}

/** One step of a transcript: what the assistant answered — its text and tool calls — and the results of those calls. */
export interface HistoryStep {
  text: string | null;
  calls: HistoryCall[];
  results: HistoryResult[];
}

/** A tool result of a conversation turn as stored (task studies: the fixture back-end's answer, MCP-shaped). */
export interface TurnToolResult {
  id: string;
  name: string;
  result: WireToolResult;
}

/** Why an exchange produced no model answer (docs/design.md#vocabulary), in words; retryAfterMs only for http_429. */
export interface TransportFailure {
  kind: TransportErrorKind;
  message: string;
  retryAfterMs?: number | null;
}

export interface TokenUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

/** What is stored of one exchange, whatever its outcome. */
export interface ExchangeRecord {
  /** The request body as sent, secrets redacted; for the simulator, the neutral request. */
  request: unknown;
  /** The response body as received: parsed JSON, or `{ text }` when it was not JSON; null when none came. */
  response: unknown;
  /** `request` as JSON text, when the adapter already holds it (the redacted wire body): stored as is. */
  requestJson?: string;
  /** `response` as JSON text, when the adapter already holds it (see requestJson). */
  responseJson?: string;
  /** The body's bytes as received, when `response` cannot hold them exactly (not UTF-8): stored beside it. */
  responseRaw?: Uint8Array;
  httpStatus: number | null;
  latencyMs: number;
}

/** What any answer carries besides what the model did: what it cost, and what it could see. */
interface AnswerRecord extends ExchangeRecord {
  outcome: 'ok';
  usage: TokenUsage | null;
  /**
   * Observed visibility, set only for a request with `toolSearch`: the tools the model could see before it
   * decided — the non-deferred tools in the request's order, then the tools the provider's search returned
   * (tool references / loaded tools), in the rank order returned, each name once.
   */
  visible?: string[];
}

/**
 * A model answered, as the adapter returns it: what the model answered (ModelAnswer: calls, text, refusal,
 * malformed, finish reason; no markers read) and what it cost. `observeResult` (lib/scoring/answer.ts) turns
 * it into a ProviderAnswer.
 */
export interface AdapterAnswer extends AnswerRecord {
  answer: ModelAnswer;
}

/** A model answered, with its observation (what it did, the protocol's markers read) and what it cost. */
export interface ProviderAnswer extends AnswerRecord {
  observation: Observation;
}

/** No model answer: the transport failure, never scored as a model failure. */
export interface ProviderTransportError extends ExchangeRecord {
  outcome: 'transport_error';
  error: TransportFailure;
  usage: null;
}

/** What one HTTP exchange produced, as the adapter returns it. Failures are values, not exceptions (promptfoo's habit). */
export type AdapterResult = AdapterAnswer | ProviderTransportError;

/** An exchange's result with the answer observed (lib/scoring/answer.ts observeResult): what the engine records. */
export type ProviderResult = ProviderAnswer | ProviderTransportError;

/** The failure of a result, or null for an answer (for code that stores both alike). */
export function transportFailureOf(result: ProviderResult | AdapterResult): TransportFailure | null {
  return result.outcome === 'transport_error' ? result.error : null;
}
