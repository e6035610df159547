// Anthropic Messages request/response logs → candidates (docs/traces.md).
import type { CandidateCall, CandidateMessage } from '../schema/trace-candidate';
import { arr, call, isObj, nonNull, num, str, textOf, toolsOf, type Line } from './common';
import { readExchangeLog, type ExchangeMapper } from './exchange-log';

const callsOf = (content: unknown): CandidateCall[] =>
  arr(content)
    .map((b) => (isObj(b) && b.type === 'tool_use' ? call(b.id, b.name, b.input) : null))
    .filter(nonNull);

const mapAnthropic: ExchangeMapper = (request, response) => {
  const conversation: CandidateMessage[] = [];
  for (const m of arr(request.messages)) {
    if (!isObj(m)) continue;
    if (m.role === 'assistant') {
      const calls = callsOf(m.content);
      conversation.push({
        role: 'assistant',
        text: textOf(typeof m.content === 'string' ? m.content : arr(m.content).filter((b) => isObj(b) && b.type === 'text')),
        ...(calls.length > 0 ? { calls } : {}),
      });
      continue;
    }
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') {
      conversation.push({ role: 'user', text: m.content });
      continue;
    }
    const texts: string[] = [];
    for (const b of arr(m.content)) {
      if (!isObj(b)) continue;
      if (b.type === 'tool_result') conversation.push({ role: 'tool', text: textOf(b.content), callId: str(b.tool_use_id) });
      else if (b.type === 'text' && typeof b.text === 'string') texts.push(b.text);
    }
    if (texts.length > 0) conversation.push({ role: 'user', text: texts.join('') });
  }
  const usage = isObj(response.usage) ? response.usage : null;
  const text = textOf(arr(response.content).filter((b) => isObj(b) && b.type === 'text'));
  return {
    conversation,
    system: textOf(request.system),
    tools: toolsOf(arr(request.tools)),
    observed: { calls: callsOf(response.content), text, finishReason: str(response.stop_reason) },
    model: str(response.model) ?? str(request.model),
    provider: 'anthropic',
    usage: usage ? { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) } : null,
  };
};

export const readAnthropicLog = (lines: AsyncIterable<Line>, file: string) => readExchangeLog(lines, file, 'anthropic-log', mapAnthropic);
