// OpenInference spans (Phoenix) → candidates (docs/traces.md): LLM spans carry `llm.input_messages.{i}.message.*`,
// `llm.output_messages.{i}.message.tool_calls.{j}.tool_call.{id,function.name,function.arguments}`,
// `llm.tools.{i}.tool.json_schema` (newer: `.tool.name` / `.tool.description`), `llm.finish_reason`;
// TOOL spans carry a call's result.
import type { CandidateCall, CandidateMessage, CandidateTool } from '../schema/trace-candidate';
import { arr, call, isObj, nonNull, num, parseJsonText, str, toolOf, type Line, type Obj } from './common';
import { readOtlp, unflatten, type OtlpDialect, type SpanReading, type SpanView } from './otlp';

const message = (v: unknown): Obj => (isObj(v) && isObj(v.message) ? v.message : {});

const callsOf = (m: Obj): CandidateCall[] =>
  arr(m.tool_calls)
    .map((tc) => {
      const t = isObj(tc) && isObj(tc.tool_call) ? tc.tool_call : null;
      const f = t && isObj(t.function) ? t.function : null;
      return t && f ? call(t.id, f.name, f.arguments) : null;
    })
    .filter(nonNull);

const contentOf = (m: Obj): string | null => {
  if (typeof m.content === 'string') return m.content;
  const parts = arr(m.contents)
    .map((c) => (isObj(c) && isObj(c.message_content) && c.message_content.type === 'text' ? str(c.message_content.text) : null))
    .filter(nonNull);
  return parts.length > 0 ? parts.join('') : null;
};

function toolsOf(a: Obj): CandidateTool[] {
  return arr(unflatten(a, 'llm.tools'))
    .map((t) => {
      const tool = isObj(t) && isObj(t.tool) ? t.tool : {};
      const schema = parseJsonText(tool.json_schema);
      if (isObj(schema)) return toolOf(schema);
      const name = str(tool.name);
      return name ? { name, description: str(tool.description), parameters: parseJsonText(tool.parameters) ?? null } : null;
    })
    .filter(nonNull);
}

function readSpan(span: SpanView): SpanReading {
  const a = span.attrs;
  const kind = str(a['openinference.span.kind']);
  if (kind === 'TOOL')
    return {
      kind: 'result',
      callId: str(a['tool_call.id']) ?? str(a['tool.id']),
      name: str(a['tool.name']),
      result: parseJsonText(a['output.value']) ?? a['output.value'] ?? null,
    };
  if (kind !== 'LLM') return { kind: 'other' };
  const system: string[] = [];
  const conversation: CandidateMessage[] = [];
  for (const raw of arr(unflatten(a, 'llm.input_messages'))) {
    const m = message(raw);
    const role = str(m.role);
    const text = contentOf(m);
    if (role === 'system' || role === 'developer') {
      if (text !== null) system.push(text);
    } else if (role === 'user') conversation.push({ role: 'user', text });
    else if (role === 'assistant') {
      const calls = callsOf(m);
      conversation.push({ role: 'assistant', text, ...(calls.length > 0 ? { calls } : {}) });
    } else if (role === 'tool') conversation.push({ role: 'tool', text, callId: str(m.tool_call_id) });
  }
  const out = message(arr(unflatten(a, 'llm.output_messages'))[0]);
  let finishReason = str(a['llm.finish_reason']);
  if (finishReason === null) {
    const body = parseJsonText(a['output.value']);
    const choice = isObj(body) ? arr(body.choices)[0] : null;
    finishReason = isObj(choice) ? str(choice.finish_reason) : null;
  }
  const input = num(a['llm.token_count.prompt']);
  const output = num(a['llm.token_count.completion']);
  return {
    kind: 'call',
    call: {
      conversation,
      system: system.length > 0 ? system.join('\n') : null,
      tools: toolsOf(a),
      observed: { calls: callsOf(out), text: contentOf(out), finishReason },
      results: [],
      model: str(a['llm.model_name']),
      provider: str(a['llm.provider']) ?? str(a['llm.system']),
      usage: input === null && output === null ? null : { inputTokens: input, outputTokens: output },
    },
  };
}

export const openInferenceDialect: OtlpDialect = { format: 'openinference', readSpan };

export const readOpenInferenceOtlp = (lines: AsyncIterable<Line>, file: string) => readOtlp(lines, file, openInferenceDialect);
