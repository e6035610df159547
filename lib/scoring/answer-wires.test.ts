import { describe, expect, it } from 'vitest';
import { reshapeAnthropicResponse } from '../providers/anthropic';
import { reshapeGeminiResponse } from '../providers/gemini';
import { reshapeOpenAIResponse, reshapeOpenAIResponsesResponse } from '../providers/openai';
import { MARKERS, selectionRequest } from '../testing/provider-fixtures';
import { observeAnswer } from './answer';

// Each wire's answer, as its adapter reshapes it, read by scoring (docs/architecture.md#answer-markers).
const req = selectionRequest();

// Which text the markers are read from differs by wire (lib/scoring/answer.ts): OpenAI sends a refusal as its
// own string, shown as the text when there is no content but never read for markers; Anthropic's text blocks
// are read whatever the stop reason. The adapters say which text in `answerText`; observeAnswer reads it.
describe('answer markers: which text they are read from, per wire', () => {
  const stop = `${MARKERS.stop} I will not void invoices.`;
  it('OpenAI chat: a refusal only, starting with the stop marker, is shown as the text but gives no marker', () => {
    const r = reshapeOpenAIResponse({ choices: [{ finish_reason: 'stop', message: { content: null, refusal: stop } }] }, req);
    expect(r?.answer).toMatchObject({ text: stop, answerText: null, refusal: true });
    expect(observeAnswer(r!.answer, MARKERS)).toEqual({ toolCalls: [], marker: null, label: null, text: stop, refusal: true, malformed: null, finishReason: 'stop' });
  });
  it('OpenAI chat: content beside a refusal is what the markers are read from', () => {
    const r = reshapeOpenAIResponse({ choices: [{ finish_reason: 'stop', message: { content: `${MARKERS.clarify} which invoice?`, refusal: stop } }] }, req);
    expect(observeAnswer(r!.answer, MARKERS)).toMatchObject({ marker: 'CLARIFY', refusal: true });
  });
  it('OpenAI Responses: a refusal part only gives no marker either', () => {
    const r = reshapeOpenAIResponsesResponse(
      { status: 'completed', output: [{ type: 'message', content: [{ type: 'refusal', refusal: stop }] }] },
      { ...req, toolSearch: { mechanism: 'openai', deferred: [] } },
    );
    expect(r?.answer).toMatchObject({ text: stop, answerText: null, refusal: true });
    expect(observeAnswer(r!.answer, MARKERS)).toMatchObject({ marker: null, label: null, text: stop, refusal: true });
  });
  it("Anthropic: stop_reason 'refusal' with text starting with the stop marker gives marker STOP", () => {
    const r = reshapeAnthropicResponse({ content: [{ type: 'text', text: stop }], stop_reason: 'refusal' }, req);
    expect(r?.answer).toMatchObject({ text: stop, answerText: stop, refusal: true });
    expect(observeAnswer(r!.answer, MARKERS)).toEqual({
      toolCalls: [],
      marker: 'STOP',
      label: null,
      text: stop,
      refusal: true,
      malformed: null,
      finishReason: 'refusal',
    });
  });
  it('Gemini: a SAFETY finish with text starting with the stop marker gives marker STOP', () => {
    const r = reshapeGeminiResponse({ candidates: [{ finishReason: 'SAFETY', content: { parts: [{ text: stop }] } }] }, req);
    expect(observeAnswer(r!.answer, MARKERS)).toMatchObject({ marker: 'STOP', text: stop, refusal: true });
  });
  it('the helper field is not part of the Observation', () => {
    const r = reshapeAnthropicResponse({ content: [{ type: 'text', text: stop }], stop_reason: 'end_turn' }, req);
    expect(Object.keys(observeAnswer(r!.answer, MARKERS))).toEqual(['toolCalls', 'marker', 'label', 'text', 'refusal', 'malformed', 'finishReason']);
  });
});
