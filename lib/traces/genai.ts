// OpenTelemetry GenAI conventions → candidates (docs/traces.md). Inference spans carry
// `gen_ai.input.messages` / `gen_ai.output.messages` / `gen_ai.tool.definitions` / `gen_ai.system_instructions`
// as JSON; older emitters put the messages in event records (`gen_ai.user.message`, `gen_ai.choice`, …) and
// name the provider `gen_ai.system` instead of `gen_ai.provider.name`. `execute_tool` spans carry a result.
import type { CandidateCall, CandidateMessage } from '../schema/trace-candidate';
import { arr, call, isObj, nonNull, num, parseJsonText, str, textOf, toolsOf, type Line, type Obj } from './common';
import { partCalls, readOtlp, type LogEvent, type OtlpDialect, type SpanReading, type SpanView } from './otlp';

const MODEL_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content']);

const partsText = (parts: unknown[]): string | null => {
  const t = parts.map((p) => (isObj(p) && p.type === 'text' ? str(p.content) : null)).filter(nonNull);
  return t.length > 0 ? t.join('') : null;
};

/** The conventions' input messages → the conversation and any system text found among them. */
export function conversationOfMessages(messages: unknown[]): { conversation: CandidateMessage[]; system: string[] } {
  const conversation: CandidateMessage[] = [];
  const system: string[] = [];
  for (const m of messages) {
    if (!isObj(m)) continue;
    const parts = arr(m.parts);
    const role = str(m.role);
    if (role === 'system' || role === 'developer') {
      const t = partsText(parts);
      if (t !== null) system.push(t);
    } else if (role === 'user') {
      for (const p of parts)
        if (isObj(p) && p.type === 'tool_call_response')
          conversation.push({ role: 'tool', text: typeof p.response === 'string' ? p.response : JSON.stringify(p.response ?? null), callId: str(p.id) });
      const t = partsText(parts);
      if (t !== null) conversation.push({ role: 'user', text: t });
    } else if (role === 'assistant') {
      const calls = partCalls(parts, call);
      conversation.push({ role: 'assistant', text: partsText(parts), ...(calls.length > 0 ? { calls } : {}) });
    } else if (role === 'tool') {
      for (const p of parts)
        if (isObj(p) && p.type === 'tool_call_response')
          conversation.push({ role: 'tool', text: typeof p.response === 'string' ? p.response : JSON.stringify(p.response ?? null), callId: str(p.id) });
    }
  }
  return { conversation, system };
}

export const providerOf = (a: Obj): string | null => str(a['gen_ai.provider.name']) ?? str(a['gen_ai.system']);

export function usageOf(a: Obj) {
  const input = num(a['gen_ai.usage.input_tokens']) ?? num(a['gen_ai.usage.prompt_tokens']);
  const output = num(a['gen_ai.usage.output_tokens']) ?? num(a['gen_ai.usage.completion_tokens']);
  return input === null && output === null ? null : { inputTokens: input, outputTokens: output };
}

export function readGenAiSpan(span: SpanView): SpanReading {
  const a = span.attrs;
  const op = str(a['gen_ai.operation.name']);
  if (op === 'execute_tool')
    return {
      kind: 'result',
      callId: str(a['gen_ai.tool.call.id']),
      name: str(a['gen_ai.tool.name']),
      result: parseJsonText(a['gen_ai.tool.call.result']) ?? a['gen_ai.tool.call.result'] ?? null,
    };
  const hasMessages = a['gen_ai.input.messages'] !== undefined;
  if (!hasMessages && !(op !== null && MODEL_OPERATIONS.has(op))) return { kind: 'other' };
  const input = parseJsonText(a['gen_ai.input.messages']);
  const output = parseJsonText(a['gen_ai.output.messages']);
  if (hasMessages && !Array.isArray(input)) throw new Error('gen_ai.input.messages is not a JSON array');
  const { conversation, system } = conversationOfMessages(arr(input));
  const instructions = parseJsonText(a['gen_ai.system_instructions']);
  if (Array.isArray(instructions)) {
    const t = partsText(instructions);
    if (t !== null) system.unshift(t);
  } else if (typeof a['gen_ai.system_instructions'] === 'string' && instructions === null) system.unshift(a['gen_ai.system_instructions']);
  const out = isObj(arr(output)[0]) ? (arr(output)[0] as Obj) : null;
  const outParts = out ? arr(out.parts) : [];
  const finishReasons = arr(a['gen_ai.response.finish_reasons']);
  const defs = parseJsonText(a['gen_ai.tool.definitions']);
  return {
    kind: 'call',
    fromEvents: !hasMessages,
    call: {
      conversation,
      system: system.length > 0 ? system.join('\n') : null,
      tools: toolsOf(arr(defs)),
      observed: { calls: partCalls(outParts, call), text: partsText(outParts), finishReason: str(out?.finish_reason) ?? str(finishReasons[0]) },
      results: [],
      model: str(a['gen_ai.response.model']) ?? str(a['gen_ai.request.model']),
      provider: providerOf(a),
      usage: usageOf(a),
    },
  };
}

const eventCalls = (v: unknown): CandidateCall[] =>
  arr(v)
    .map((tc) => (isObj(tc) && isObj(tc.function) ? call(tc.id, tc.function.name, tc.function.arguments) : null))
    .filter(nonNull);

/** Event records of the older conventions: one per message sent, `gen_ai.choice` for the answer. */
export function applyGenAiEvents(c: Parameters<NonNullable<OtlpDialect['applyEvents']>>[0], events: LogEvent[]) {
  const conversation: CandidateMessage[] = [];
  const system: string[] = [];
  let observed = c.observed;
  for (const ev of events) {
    const body = isObj(ev.body) ? ev.body : {};
    if (ev.name === 'gen_ai.system.message') {
      const t = textOf(body.content);
      if (t !== null) system.push(t);
    } else if (ev.name === 'gen_ai.user.message') conversation.push({ role: 'user', text: textOf(body.content) });
    else if (ev.name === 'gen_ai.assistant.message') {
      const calls = eventCalls(body.tool_calls);
      conversation.push({ role: 'assistant', text: textOf(body.content), ...(calls.length > 0 ? { calls } : {}) });
    } else if (ev.name === 'gen_ai.tool.message') conversation.push({ role: 'tool', text: textOf(body.content), callId: str(body.id) });
    else if (ev.name === 'gen_ai.choice' && (num(body.index) ?? 0) === 0) {
      const msg = isObj(body.message) ? body.message : {};
      observed = { calls: eventCalls(msg.tool_calls), text: textOf(msg.content), finishReason: str(body.finish_reason) ?? observed.finishReason };
    }
  }
  return { ...c, conversation, system: system.length > 0 ? system.join('\n') : c.system, observed };
}

export const genAiDialect: OtlpDialect = { format: 'otlp', readSpan: readGenAiSpan, applyEvents: applyGenAiEvents };

export const readGenAiOtlp = (lines: AsyncIterable<Line>, file: string) => readOtlp(lines, file, genAiDialect);
