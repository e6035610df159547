// OpenLLMetry (Traceloop) spans → candidates (docs/traces.md). Its older attributes are indexed:
// `gen_ai.prompt.{i}.{role,content,tool_calls.{j}.*,tool_call_id}`, `gen_ai.completion.{i}.{content,finish_reason,
// tool_calls.{j}.{id,name,arguments}}`, `llm.request.functions.{i}.{name,description,parameters}`; its newer
// releases write the official GenAI attributes, which are read as genai.ts reads them.
import type { CandidateCall, CandidateMessage } from '../schema/trace-candidate';
import { arr, call, isObj, nonNull, parseJsonText, str, type Line, type Obj } from './common';
import { providerOf, readGenAiSpan, usageOf } from './genai';
import { readOtlp, unflatten, type OtlpDialect, type SpanReading, type SpanView } from './otlp';

const callsOf = (m: Obj): CandidateCall[] =>
  arr(m.tool_calls)
    .map((tc) => (isObj(tc) ? call(tc.id, tc.name, tc.arguments) : null))
    .filter(nonNull);

function readSpan(span: SpanView): SpanReading {
  const a = span.attrs;
  if (a['gen_ai.input.messages'] !== undefined || str(a['gen_ai.operation.name']) === 'execute_tool') return readGenAiSpan(span);
  const prompts = arr(unflatten(a, 'gen_ai.prompt'));
  const kindOfRequest = str(a['llm.request.type']);
  if (prompts.length === 0 && kindOfRequest !== 'chat') return { kind: 'other' };
  const system: string[] = [];
  const conversation: CandidateMessage[] = [];
  for (const raw of prompts) {
    const m = isObj(raw) ? raw : {};
    const role = str(m.role);
    const text = str(m.content);
    if (role === 'system' || role === 'developer') {
      if (text !== null) system.push(text);
    } else if (role === 'user') conversation.push({ role: 'user', text });
    else if (role === 'assistant') {
      const calls = callsOf(m);
      conversation.push({ role: 'assistant', text, ...(calls.length > 0 ? { calls } : {}) });
    } else if (role === 'tool') conversation.push({ role: 'tool', text, callId: str(m.tool_call_id) });
  }
  const out = isObj(arr(unflatten(a, 'gen_ai.completion'))[0]) ? (arr(unflatten(a, 'gen_ai.completion'))[0] as Obj) : {};
  const tools = arr(unflatten(a, 'llm.request.functions'))
    .map((f) => (isObj(f) && str(f.name) ? { name: str(f.name)!, description: str(f.description), parameters: parseJsonText(f.parameters) ?? null } : null))
    .filter(nonNull);
  return {
    kind: 'call',
    call: {
      conversation,
      system: system.length > 0 ? system.join('\n') : null,
      tools,
      observed: { calls: callsOf(out), text: str(out.content), finishReason: str(out.finish_reason) ?? str(arr(a['gen_ai.response.finish_reasons'])[0]) },
      results: [],
      model: str(a['gen_ai.response.model']) ?? str(a['gen_ai.request.model']),
      provider: providerOf(a),
      usage: usageOf(a),
    },
  };
}

export const openLlmetryDialect: OtlpDialect = { format: 'openllmetry', readSpan };

export const readOpenLlmetryOtlp = (lines: AsyncIterable<Line>, file: string) => readOtlp(lines, file, openLlmetryDialect);
