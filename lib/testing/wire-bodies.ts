import { DESCRIPTORS } from '../providers/registry';
import type { WireId } from '../providers/types';

// Success and error bodies in each provider's wire format, as the real APIs send them (the minimal shapes
// the official SDKs accept, plus usage). Used by the loopback server and by tests that script a body.

export interface WireCall {
  /** The call's id on the wire (OpenAI tool_calls[].id, Gemini functionCall.id); default OpenAI `call_<i>`, Gemini none. */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent verbatim (e.g. arguments that are not valid JSON). */
  arguments: Record<string, unknown> | string;
}

export interface WireUsage {
  inputTokens: number;
  outputTokens: number;
}

const DEFAULT_USAGE: WireUsage = { inputTokens: 100, outputTokens: 10 };

export interface OpenAIBodyOptions {
  model?: string;
  calls?: WireCall[];
  text?: string | null;
  refusal?: string | null;
  finishReason?: string;
  usage?: WireUsage;
  id?: string;
}

/** A Chat Completions response (`object: "chat.completion"`). */
export function openaiChatCompletionBody(opts: OpenAIBodyOptions = {}): Record<string, unknown> {
  const calls = opts.calls ?? [];
  const usage = opts.usage ?? DEFAULT_USAGE;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: opts.text ?? null,
    refusal: opts.refusal ?? null,
  };
  if (calls.length > 0) {
    message.tool_calls = calls.map((c, i) => ({
      id: c.id ?? `call_${i + 1}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }));
  }
  return {
    id: opts.id ?? 'chatcmpl-loopback',
    object: 'chat.completion',
    created: 1_780_000_000,
    model: opts.model ?? 'loopback-model',
    choices: [{ index: 0, message, finish_reason: opts.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop'), logprobs: null }],
    usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens },
  };
}

export interface GeminiBodyOptions {
  model?: string;
  calls?: WireCall[];
  text?: string | null;
  finishReason?: string;
  /** Leave the candidate without content (safety block, malformed function call). */
  noContent?: boolean;
  usage?: WireUsage;
}

/** A generateContent response. A string `arguments` is sent as a JSON string where an object belongs. */
export function geminiGenerateContentBody(opts: GeminiBodyOptions = {}): Record<string, unknown> {
  const usage = opts.usage ?? DEFAULT_USAGE;
  const parts: Record<string, unknown>[] = [];
  if (opts.text != null) parts.push({ text: opts.text });
  for (const c of opts.calls ?? []) parts.push({ functionCall: { ...(c.id !== undefined && { id: c.id }), name: c.name, args: c.arguments } });
  const candidate: Record<string, unknown> = { finishReason: opts.finishReason ?? 'STOP', index: 0 };
  if (!opts.noContent) candidate.content = { role: 'model', parts };
  return {
    candidates: [candidate],
    usageMetadata: {
      promptTokenCount: usage.inputTokens,
      candidatesTokenCount: usage.outputTokens,
      totalTokenCount: usage.inputTokens + usage.outputTokens,
    },
    modelVersion: opts.model ?? 'loopback-model',
    responseId: 'loopback',
  };
}

export interface AnthropicBodyOptions {
  model?: string;
  calls?: WireCall[];
  text?: string | null;
  stopReason?: string;
  usage?: WireUsage;
}

/** A Messages API response (`type: "message"`): text blocks first, then tool_use blocks. A string
 * `arguments` is sent as a JSON string where the input object belongs. */
export function anthropicMessageBody(opts: AnthropicBodyOptions = {}): Record<string, unknown> {
  const usage = opts.usage ?? DEFAULT_USAGE;
  const content: Record<string, unknown>[] = [];
  if (opts.text != null) content.push({ type: 'text', text: opts.text });
  (opts.calls ?? []).forEach((c, i) => content.push({ type: 'tool_use', id: `toolu_${i + 1}`, name: c.name, input: c.arguments }));
  return {
    id: 'msg_loopback',
    type: 'message',
    role: 'assistant',
    model: opts.model ?? 'loopback-model',
    content,
    stop_reason: opts.stopReason ?? ((opts.calls ?? []).length > 0 ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
  };
}

const DEFAULT_MESSAGES: Record<number, string> = {
  401: 'Incorrect API key provided.',
  403: 'Permission denied.',
  404: 'The model does not exist.',
  429: 'Rate limit reached. Please try again later.',
  500: 'The server had an error while processing your request.',
};

/** An error body as the API of this wire sends it: the error shape its providers' descriptors declare. */
export function errorBodyFor(wire: WireId, status: number, message: string): Record<string, unknown> {
  const shape = DESCRIPTORS.find((d) => d.wire === wire)?.errorShape;
  if (!shape) throw new Error(`no provider descriptor declares the wire ${wire}`);
  return shape.body(status, message);
}

export function defaultErrorBody(wire: WireId, status: number): Record<string, unknown> {
  return errorBodyFor(wire, status, DEFAULT_MESSAGES[status] ?? `HTTP ${status}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Tool names in a request body, in the order they were sent. */
export function wireToolNames(wire: WireId, body: unknown): string[] {
  if (!isRecord(body) || !Array.isArray(body.tools)) return [];
  const names: string[] = [];
  for (const tool of body.tools) {
    if (!isRecord(tool)) continue;
    if (wire === 'openai-chat') {
      if (isRecord(tool.function) && typeof tool.function.name === 'string') names.push(tool.function.name);
    } else if (wire === 'anthropic-messages') {
      if (typeof tool.name === 'string') names.push(tool.name);
    } else if (Array.isArray(tool.functionDeclarations)) {
      for (const d of tool.functionDeclarations) if (isRecord(d) && typeof d.name === 'string') names.push(d.name);
    }
  }
  return names;
}

/** Whether a request body carries an injected tool result (the interpretation study's multi-turn form). */
export function isInterpretationBody(wire: WireId, body: unknown): boolean {
  if (!isRecord(body)) return false;
  if (wire === 'openai-chat') {
    return Array.isArray(body.messages) && body.messages.some((m) => isRecord(m) && m.role === 'tool');
  }
  if (wire === 'anthropic-messages') {
    return (
      Array.isArray(body.messages) && body.messages.some((m) => isRecord(m) && Array.isArray(m.content) && m.content.some((b) => isRecord(b) && b.type === 'tool_result'))
    );
  }
  return (
    Array.isArray(body.contents) && body.contents.some((c) => isRecord(c) && Array.isArray(c.parts) && c.parts.some((p) => isRecord(p) && isRecord(p.functionResponse)))
  );
}

/** One round of tool results a request carries back to the model (task conversations), in its wire's form. */
export interface WireToolRound {
  /** The calls the assistant made in that round, as sent back (OpenAI tool_calls, Gemini functionCall parts). */
  calls: { id: string | null; name: string }[];
  /** The results, in order (OpenAI role:"tool" messages with tool_call_id, Gemini functionResponse parts). */
  results: { id: string | null; name: string | null; content: unknown }[];
}

/** The rounds of earlier tool calls and their results a request carries, oldest first. */
export function wireToolRounds(wire: WireId, body: unknown): WireToolRound[] {
  const rounds: WireToolRound[] = [];
  if (!isRecord(body)) return rounds;
  if (wire === 'openai-chat') {
    for (const m of Array.isArray(body.messages) ? body.messages : []) {
      if (!isRecord(m)) continue;
      if (m.role === 'assistant' && Array.isArray(m.tool_calls))
        rounds.push({
          calls: m.tool_calls.filter(isRecord).map((c) => ({ id: typeof c.id === 'string' ? c.id : null, name: isRecord(c.function) ? String(c.function.name) : '' })),
          results: [],
        });
      else if (m.role === 'tool' && rounds.length > 0) {
        let content: unknown = m.content;
        try {
          content = typeof m.content === 'string' ? JSON.parse(m.content) : m.content;
        } catch {
          // not JSON: kept as the text it is
        }
        rounds[rounds.length - 1].results.push({ id: typeof m.tool_call_id === 'string' ? m.tool_call_id : null, name: null, content });
      }
    }
    return rounds;
  }
  if (wire === 'anthropic-messages') {
    for (const m of Array.isArray(body.messages) ? body.messages : []) {
      if (!isRecord(m) || !Array.isArray(m.content)) continue;
      const blocks = m.content.filter(isRecord);
      const uses = blocks.filter((b) => b.type === 'tool_use');
      const results = blocks.filter((b) => b.type === 'tool_result');
      if (m.role === 'assistant' && uses.length > 0)
        rounds.push({ calls: uses.map((u) => ({ id: typeof u.id === 'string' ? u.id : null, name: String(u.name) })), results: [] });
      else if (m.role === 'user' && results.length > 0 && rounds.length > 0) {
        for (const r of results) {
          let content: unknown = r.content;
          try {
            content = typeof r.content === 'string' ? JSON.parse(r.content) : r.content;
          } catch {
            // not JSON: kept as the text it is
          }
          rounds[rounds.length - 1].results.push({ id: typeof r.tool_use_id === 'string' ? r.tool_use_id : null, name: null, content });
        }
      }
    }
    return rounds;
  }
  for (const c of Array.isArray(body.contents) ? body.contents : []) {
    if (!isRecord(c) || !Array.isArray(c.parts)) continue;
    const calls = c.parts.filter((p) => isRecord(p) && isRecord(p.functionCall)).map((p) => (p as { functionCall: Record<string, unknown> }).functionCall);
    const responses = c.parts
      .filter((p) => isRecord(p) && isRecord(p.functionResponse))
      .map((p) => (p as { functionResponse: Record<string, unknown> }).functionResponse);
    if (c.role === 'model' && calls.length > 0)
      rounds.push({ calls: calls.map((f) => ({ id: typeof f.id === 'string' ? f.id : null, name: String(f.name) })), results: [] });
    else if (c.role === 'user' && responses.length > 0 && rounds.length > 0)
      rounds[rounds.length - 1].results.push(
        ...responses.map((f) => ({ id: typeof f.id === 'string' ? f.id : null, name: typeof f.name === 'string' ? f.name : null, content: f.response })),
      );
  }
  return rounds;
}
