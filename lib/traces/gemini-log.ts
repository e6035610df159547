// Gemini generateContent request/response logs → candidates (docs/traces.md). The model is in the URL on
// this wire: the log line's `model` names it, else the response's `modelVersion`.
import type { CandidateCall, CandidateMessage } from '../schema/trace-candidate';
import { arr, call, isObj, nonNull, num, str, toolsOf, type Line } from './common';
import { readExchangeLog, type ExchangeMapper } from './exchange-log';

const partsText = (parts: unknown[]): string | null => {
  const t = parts.map((p) => (isObj(p) && typeof p.text === 'string' && p.thought !== true ? p.text : null)).filter(nonNull);
  return t.length > 0 ? t.join('') : null;
};
const partsCalls = (parts: unknown[]): CandidateCall[] =>
  parts.map((p) => (isObj(p) && isObj(p.functionCall) ? call(p.functionCall.id, p.functionCall.name, p.functionCall.args) : null)).filter(nonNull);

const mapGemini: ExchangeMapper = (request, response, line) => {
  const conversation: CandidateMessage[] = [];
  for (const c of arr(request.contents)) {
    if (!isObj(c)) continue;
    const parts = arr(c.parts);
    if (c.role === 'model') {
      const calls = partsCalls(parts);
      conversation.push({ role: 'assistant', text: partsText(parts), ...(calls.length > 0 ? { calls } : {}) });
      continue;
    }
    for (const p of parts)
      if (isObj(p) && isObj(p.functionResponse))
        conversation.push({ role: 'tool', text: JSON.stringify(p.functionResponse.response ?? null), callId: str(p.functionResponse.id) });
    const text = partsText(parts);
    if (text !== null) conversation.push({ role: 'user', text });
  }
  const cand = isObj(arr(response.candidates)[0]) ? (arr(response.candidates)[0] as Record<string, unknown>) : {};
  const parts = isObj(cand.content) ? arr(cand.content.parts) : [];
  const usage = isObj(response.usageMetadata) ? response.usageMetadata : null;
  const sys = isObj(request.systemInstruction) ? partsText(arr(request.systemInstruction.parts)) : null;
  return {
    conversation,
    system: sys,
    tools: toolsOf(arr(request.tools)),
    observed: { calls: partsCalls(parts), text: partsText(parts), finishReason: str(cand.finishReason) },
    model: str(line.model) ?? str(response.modelVersion),
    provider: 'gemini',
    usage: usage ? { inputTokens: num(usage.promptTokenCount), outputTokens: num(usage.candidatesTokenCount) } : null,
  };
};

export const readGeminiLog = (lines: AsyncIterable<Line>, file: string) => readExchangeLog(lines, file, 'gemini-log', mapGemini);
