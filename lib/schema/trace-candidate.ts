// The candidate record: one model call that offered tools, as an importer read it from a trace or a
// request/response log (docs/traces.md). Every importer in lib/traces maps to this shape and nothing else.

export const TRACE_FORMATS = ['otlp', 'openinference', 'openllmetry', 'openai-log', 'anthropic-log', 'gemini-log'] as const;
export type TraceFormat = (typeof TRACE_FORMATS)[number];

/** `full`: every tool has a name and a parameter schema; `names-only`: some tool lacks its schema; `missing`: no catalog in the trace. */
export type CatalogCompleteness = 'full' | 'names-only' | 'missing';

export interface CandidateTool {
  name: string;
  description: string | null;
  /** The JSON schema of the arguments, as the trace held it (null: the trace did not say). */
  parameters: unknown;
}

export interface CandidateCall {
  id: string | null;
  name: string;
  /** Parsed when the trace held JSON; the text as received otherwise. */
  arguments: unknown;
}

export interface CandidateMessage {
  role: 'user' | 'assistant' | 'tool';
  text: string | null;
  /** Assistant turns: the calls the model proposed earlier in the conversation. */
  calls?: CandidateCall[];
  /** Tool turns: the call this result answers. */
  callId?: string | null;
}

export interface CandidateUsage {
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface Provenance {
  format: TraceFormat;
  file: string;
  /** 1-based line of the file the call was read from. */
  line: number;
  traceId: string | null;
  spanId: string | null;
}

export interface TraceCandidate {
  /** The conversation up to the decision (system instructions apart). */
  conversation: CandidateMessage[];
  system: string | null;
  tools: CandidateTool[];
  catalogCompleteness: CatalogCompleteness;
  /** What the model did at the decision: its calls, its text, its finish reason. */
  observed: { calls: CandidateCall[]; text: string | null; finishReason: string | null };
  /** Results of the observed calls when the trace holds them (execute_tool / TOOL spans). */
  results: { callId: string | null; name: string | null; result: unknown }[];
  model: string | null;
  provider: string | null;
  usage: CandidateUsage | null;
  provenance: Provenance;
}

/** The reviewer's card: the call that should happen (its tool's effect: read or write), or a marker. */
export type CaseCard = { decision: 'call'; tool: string; effect: 'read' | 'write'; arguments: Record<string, unknown> } | { decision: 'clarify' } | { decision: 'stop' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored candidate as the importers write it (checked where it is read back: lib/db/trace-candidates.ts). */
export function isTraceCandidate(v: unknown): v is TraceCandidate {
  return (
    isObject(v) &&
    Array.isArray(v.conversation) &&
    Array.isArray(v.tools) &&
    Array.isArray(v.results) &&
    isObject(v.observed) &&
    Array.isArray(v.observed.calls) &&
    (v.catalogCompleteness === 'full' || v.catalogCompleteness === 'names-only' || v.catalogCompleteness === 'missing') &&
    isObject(v.provenance)
  );
}

/** A stored card as the review writes it. */
export function isCaseCard(v: unknown): v is CaseCard {
  if (!isObject(v)) return false;
  if (v.decision === 'clarify' || v.decision === 'stop') return true;
  return v.decision === 'call' && typeof v.tool === 'string' && (v.effect === 'read' || v.effect === 'write') && isObject(v.arguments);
}

export const REFUSAL_REASONS = ['aborted', 'truncated', 'no-user-turn', 'no-catalog', 'unparseable'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Read but not a candidate, and not wrong: a call that offered no tools, a span that is no model call. */
export const SKIP_REASONS = ['no-tools-offered', 'not-a-model-call'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** What an importer yields for each record it read (a line of a log, a span of a trace). */
export type ImportItem =
  | { kind: 'candidate'; candidate: TraceCandidate }
  | { kind: 'refused'; reason: RefusalReason; where: string; detail: string }
  | { kind: 'skipped'; reason: SkipReason; where: string };
