// OpenAI Chat Completions request/response logs → candidates (docs/traces.md).
import type { CandidateMessage } from '../schema/trace-candidate';
import { arr, call, isObj, nonNull, num, str, textOf, toolsOf, type Line } from './common';
import { readExchangeLog, type ExchangeMapper } from './exchange-log';

const mapOpenAI: ExchangeMapper = (request, response) => {
  const system: string[] = [];
  const conversation: CandidateMessage[] = [];
  for (const m of arr(request.messages)) {
    if (!isObj(m)) continue;
    const role = str(m.role);
    if (role === 'system' || role === 'developer') {
      const t = textOf(m.content);
      if (t !== null) system.push(t);
    } else if (role === 'user') conversation.push({ role: 'user', text: textOf(m.content) });
    else if (role === 'assistant') {
      const calls = arr(m.tool_calls)
        .map((tc) => (isObj(tc) && isObj(tc.function) ? call(tc.id, tc.function.name, tc.function.arguments) : null))
        .filter(nonNull);
      conversation.push({ role: 'assistant', text: textOf(m.content), ...(calls.length > 0 ? { calls } : {}) });
    } else if (role === 'tool') conversation.push({ role: 'tool', text: textOf(m.content), callId: str(m.tool_call_id) });
  }
  const choice = isObj(arr(response.choices)[0]) ? (arr(response.choices)[0] as Record<string, unknown>) : {};
  const message = isObj(choice.message) ? choice.message : {};
  const calls = arr(message.tool_calls)
    .map((tc) => (isObj(tc) && isObj(tc.function) ? call(tc.id, tc.function.name, tc.function.arguments) : null))
    .filter(nonNull);
  const usage = isObj(response.usage) ? response.usage : null;
  return {
    conversation,
    system: system.length > 0 ? system.join('\n') : null,
    tools: toolsOf([...arr(request.tools), ...arr(request.functions)]),
    observed: { calls, text: textOf(message.content), finishReason: str(choice.finish_reason) },
    model: str(response.model) ?? str(request.model),
    provider: 'openai',
    usage: usage ? { inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens) } : null,
  };
};

export const readOpenAILog = (lines: AsyncIterable<Line>, file: string) => readExchangeLog(lines, file, 'openai-log', mapOpenAI);
