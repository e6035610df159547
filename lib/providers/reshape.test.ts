import { describe, expect, it } from 'vitest';
import { interpretationRequest, selectionRequest, settingsFor } from '../testing/provider-fixtures';
import { reshapeAnthropicResponse } from './anthropic';
import { parseArguments } from './exchange';
import { buildGeminiRequest, needsThoughtSignature, reshapeGeminiResponse } from './gemini';
import { buildOpenAIBody, reshapeOpenAIResponse } from './openai';

// The pure halves of the adapters: request building and response reshaping (edge cases the loopback
// server does not produce). The SDK paths are covered by the *.itest.ts files.

const req = selectionRequest();

describe('parseArguments', () => {
  it('accepts JSON objects, treats empty text as no arguments, rejects anything else', () => {
    expect(parseArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseArguments('  ')).toEqual({});
    expect(parseArguments('[1]')).toBeNull();
    expect(parseArguments('"x"')).toBeNull();
    expect(parseArguments('{"a":')).toBeNull();
  });
});

describe('reshapeOpenAIResponse', () => {
  it('is null for bodies that are not a chat completion', () => {
    expect(reshapeOpenAIResponse('<html>', req)).toBeNull();
    expect(reshapeOpenAIResponse({ choices: [] }, req)).toBeNull();
    expect(reshapeOpenAIResponse({ error: { message: 'x' } }, req)).toBeNull();
  });
  it('flags the first problem among several calls', () => {
    const r = reshapeOpenAIResponse(
      {
        choices: [
          {
            finish_reason: 'tool_calls',
            message: {
              content: null,
              tool_calls: [
                { id: 'a', type: 'function', function: { name: 'lookup_invoice', arguments: '{"invoice_number":"1"}' } },
                { id: 'b', type: 'function', function: { name: 'nope', arguments: '{}' } },
                { id: 'c', type: 'function', function: { name: 'pay_invoice', arguments: 'oops' } },
              ],
            },
          },
        ],
      },
      req,
    );
    expect(r?.answer.malformed).toBe('unknown_tool:nope');
    expect(r?.answer.toolCalls).toHaveLength(3);
    expect(r?.usage).toBeNull();
  });
});

describe('reshapeGeminiResponse', () => {
  it('skips thought parts in the text and counts thinking tokens as output', () => {
    const r = reshapeGeminiResponse(
      {
        candidates: [{ finishReason: 'STOP', content: { parts: [{ text: 'thinking…', thought: true }, { text: 'STOP: ' }, { text: 'no tool voids invoices' }] } }],
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 7, thoughtsTokenCount: 30 },
      },
      req,
    );
    expect(r?.answer).toMatchObject({ text: 'STOP: no tool voids invoices', answerText: 'STOP: no tool voids invoices' });
    expect(r?.usage).toEqual({ inputTokens: 50, outputTokens: 37 });
  });
  it('a call without args has {} arguments; non-object args are unparseable', () => {
    const noArgs = reshapeGeminiResponse({ candidates: [{ content: { parts: [{ functionCall: { name: 'lookup_invoice' } }] } }] }, req);
    expect(noArgs?.answer.toolCalls[0].arguments).toEqual({});
    const list = reshapeGeminiResponse({ candidates: [{ content: { parts: [{ functionCall: { name: 'lookup_invoice', args: [1] } }] } }] }, req);
    expect(list?.answer).toMatchObject({ malformed: 'unparseable_arguments', toolCalls: [{ arguments: null, rawArguments: '[1]' }] });
  });
  it('is null for an empty object; a block reason without candidates is a refusal', () => {
    expect(reshapeGeminiResponse({}, req)).toBeNull();
    expect(reshapeGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' } }, req)?.answer.refusal).toBe(true);
  });
});

describe('request building', () => {
  it('omits tools when there are none; keeps a string tool result as the tool message content', () => {
    const body = buildOpenAIBody({ ...interpretationRequest('code 17'), tools: [] }, settingsFor({ provider: 'openai', model: 'm' }), 'max_tokens');
    expect(body).not.toHaveProperty('tools');
    expect(body.messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_0', content: 'code 17' });
  });
  it('thought signatures only for Gemini 3 and later', () => {
    expect(needsThoughtSignature('gemini-3.1-flash-lite')).toBe(true);
    expect(needsThoughtSignature('models/gemini-3-pro-preview')).toBe(true);
    expect(needsThoughtSignature('gemini-10-ultra')).toBe(true);
    expect(needsThoughtSignature('gemini-2.5-flash')).toBe(false);
    expect(needsThoughtSignature('gemma-3-27b-it')).toBe(false);
    const { contents } = buildGeminiRequest(interpretationRequest(), settingsFor({ provider: 'gemini', model: 'gemini-2.5-pro' }));
    expect(contents[1].parts?.[0]).not.toHaveProperty('thoughtSignature');
  });
});

describe('reshapeAnthropicResponse', () => {
  const req = selectionRequest();
  it('is null for a body that is not a message', () => {
    expect(reshapeAnthropicResponse({ hello: 'world' }, req)).toBeNull();
    expect(reshapeAnthropicResponse('<html>', req)).toBeNull();
  });
  it('joins text blocks, ignores thinking blocks, reads usage', () => {
    const r = reshapeAnthropicResponse(
      {
        content: [
          { type: 'thinking', thinking: 'hmm' },
          { type: 'text', text: 'STOP: ' },
          { type: 'text', text: 'no tool voids invoices' },
        ],
        stop_reason: 'end_turn',
        usage: { input_tokens: 7, output_tokens: 3 },
      },
      req,
    );
    expect(r?.answer).toMatchObject({ text: 'STOP: no tool voids invoices', answerText: 'STOP: no tool voids invoices', toolCalls: [], finishReason: 'end_turn' });
    expect(r?.usage).toEqual({ inputTokens: 7, outputTokens: 3 });
  });
});
