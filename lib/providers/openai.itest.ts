import { describe, expect, it } from 'vitest';
import { failure, FAKE_KEY, MARKERS, observed, providerOverLoopback } from '../testing/provider-fixtures';
import { interpretationRequest, INVOICE_TOOLS, selectionRequest, setProviderEnv, settingsFor } from '../testing/provider-fixtures';
import { openaiProvider } from './openai';
import { openaiCompatibleProvider } from './openai-compatible';
import { observeResult } from '../scoring/answer';

// The real openai SDK against the loopback server: what the model did ends as the right observation,
// and the request on the wire has the study's form.

const wire = providerOverLoopback({
  provider: openaiProvider,
  env: { OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: undefined },
  settings: (server) => ({ provider: 'openai', model: 'gpt-test', baseUrl: server.openaiBaseUrl }),
});
const { send, lastBody } = wire;

describe('openai adapter: observations', () => {
  it('one tool call → parsed call, usage, status; key sent as Bearer', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }] });
    expect(r.outcome).toBe('ok');
    expect(r.httpStatus).toBe(200);
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(observed(r)).toMatchObject({
      toolCalls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' }, rawArguments: '{"invoice_number":"INV-2041"}' }],
      marker: null,
      malformed: null,
      refusal: false,
      finishReason: 'tool_calls',
    });
    expect(wire.server.requests[0].headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
  });

  it('two tool calls → both, in order', async () => {
    const r = await send({
      kind: 'toolCalls',
      calls: [
        { name: 'lookup_invoice', arguments: { invoice_number: 'INV-1' } },
        { name: 'pay_invoice', arguments: { invoice_number: 'INV-1', amount: 12.5 } },
      ],
    });
    expect(observed(r).toolCalls.map((c) => c.name)).toEqual(['lookup_invoice', 'pay_invoice']);
    expect(observed(r).toolCalls[1].arguments).toEqual({ invoice_number: 'INV-1', amount: 12.5 });
  });

  it('text with CLARIFY → marker, no calls', async () => {
    const r = await send({ kind: 'text', text: 'CLARIFY: which invoice number do you mean?' });
    expect(observed(r)).toMatchObject({ toolCalls: [], marker: 'CLARIFY', label: null, text: 'CLARIFY: which invoice number do you mean?' });
  });

  it('text with STATUS → label', async () => {
    const r = await send({ kind: 'text', text: 'The lookup returned code 17.\nSTATUS: cannot_determine' }, interpretationRequest());
    expect(observed(r)).toMatchObject({ marker: null, label: 'CANNOT_DETERMINE' });
  });

  it('arguments that are not valid JSON → unparseable_arguments, raw text kept', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: '{"invoice_number": "INV-2041"' }] });
    expect(r.outcome).toBe('ok');
    expect(observed(r).malformed).toBe('unparseable_arguments');
    expect(observed(r).toolCalls[0]).toEqual({ id: 'call_1', name: 'lookup_invoice', arguments: null, rawArguments: '{"invoice_number": "INV-2041"' });
  });

  it('a tool name not among the tools sent → unknown_tool:<name>', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'void_invoice', arguments: {} }] });
    expect(observed(r).malformed).toBe('unknown_tool:void_invoice');
    expect(observed(r).toolCalls[0].name).toBe('void_invoice');
  });

  it('message.refusal → refusal', async () => {
    const r = await send({ kind: 'refusal' });
    expect(r.outcome).toBe('ok');
    expect(observed(r)).toMatchObject({ refusal: true, toolCalls: [], text: expect.stringContaining("can't help") });
  });

  it('the malformed-call reply (broken argument JSON on OpenAI) → unparseable_arguments', async () => {
    const r = await send({ kind: 'malformedFunctionCall' });
    expect(observed(r).malformed).toBe('unparseable_arguments');
  });
});

describe('openai adapter: the request on the wire', () => {
  it('selection: system protocol, user task, tools in the request order; settings mapped', async () => {
    const reversed = selectionRequest([...INVOICE_TOOLS].reverse());
    const r = await send({ kind: 'text', text: 'STOP: x' }, reversed, { temperature: 0.3, maxOutputTokens: 99, seed: 42 });
    const stored = r.request as { tools: { function: { name: string } }[] };
    expect(stored.tools.map((t) => t.function.name)).toEqual(['pay_invoice', 'lookup_invoice']);
    expect(r.request).toEqual(lastBody());
    expect(lastBody()).toMatchObject({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: reversed.system },
        { role: 'user', content: reversed.task },
      ],
      temperature: 0.3,
      max_completion_tokens: 99,
      seed: 42,
    });
    expect(lastBody()).not.toHaveProperty('max_tokens');
  });

  it('interpretation: assistant tool_calls + tool message with tool_call_id, then the label', async () => {
    const request = interpretationRequest({ invoice_number: 'INV-2041', status_code: 17 });
    const r = await send({ kind: 'text', text: 'STATUS: TIMEOUT' }, request);
    expect(observed(r).label).toBe('TIMEOUT');
    const messages = lastBody().messages as Record<string, unknown>[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(messages[2]).toMatchObject({
      tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup_invoice', arguments: '{"invoice_number":"INV-2041"}' } }],
    });
    expect(messages[3]).toEqual({ role: 'tool', tool_call_id: 'call_0', content: '{"invoice_number":"INV-2041","status_code":17}' });
    expect(lastBody().tools).toHaveLength(2);
  });

  it('null settings are left out of the body', async () => {
    await send({ kind: 'text', text: 'STOP: x' }, selectionRequest(), { temperature: null, maxOutputTokens: null, seed: null });
    expect(Object.keys(lastBody()).sort()).toEqual(['messages', 'model', 'tools']);
  });

  it('OPENAI_BASE_URL is used when the run has no base URL', async () => {
    const undo = setProviderEnv({ OPENAI_BASE_URL: wire.server.openaiBaseUrl });
    try {
      wire.server.setScript(() => ({ kind: 'text', text: 'STOP: x' }));
      const r = await openaiProvider.send(selectionRequest(), { settings: settingsFor({ provider: 'openai', model: 'gpt-test' }) });
      expect(r.outcome).toBe('ok');
    } finally {
      undo();
    }
  });

  it('without OPENAI_API_KEY nothing is sent: a configuration error', async () => {
    const undo = setProviderEnv({ OPENAI_API_KEY: undefined });
    try {
      wire.server.clearRequests();
      const r = await openaiProvider.send(selectionRequest(), { settings: settingsFor({ provider: 'openai', model: 'gpt-test', baseUrl: wire.server.openaiBaseUrl }) });
      expect(failure(r)).toMatchObject({ kind: 'http_4xx', message: expect.stringContaining('OPENAI_API_KEY') });
      expect(wire.server.requests).toHaveLength(0);
    } finally {
      undo();
    }
  });
});

describe('openai-compatible adapter', () => {
  it('sends max_tokens, and no Authorization header when there is no key', async () => {
    const undo = setProviderEnv({ OPENAI_API_KEY: undefined });
    try {
      wire.server.setScript(() => ({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-9' } }] }));
      wire.server.clearRequests();
      const settings = settingsFor({ provider: 'openai-compatible', model: 'qwen3:8b', baseUrl: wire.server.openaiBaseUrl, maxOutputTokens: 64 });
      const request = selectionRequest();
      const r = observeResult(await openaiCompatibleProvider.send(request, { settings }), MARKERS);
      expect(r.outcome).toBe('ok');
      expect(observed(r).toolCalls[0].arguments).toEqual({ invoice_number: 'INV-9' });
      expect(wire.server.requests[0].headers.authorization).toBeUndefined();
      expect(lastBody()).toMatchObject({ max_tokens: 64 });
      expect(lastBody()).not.toHaveProperty('max_completion_tokens');
    } finally {
      undo();
    }
  });

  it('sends its own key (OPENAI_COMPATIBLE_API_KEY), never the OpenAI key', async () => {
    const undo = setProviderEnv({ OPENAI_COMPATIBLE_API_KEY: FAKE_KEY, OPENAI_API_KEY: 'sk-real-openai-key-must-stay-home' });
    try {
      wire.server.setScript(() => ({ kind: 'text', text: 'STOP: x' }));
      wire.server.clearRequests();
      const settings = settingsFor({ provider: 'openai-compatible', model: 'm', baseUrl: wire.server.openaiBaseUrl });
      const r = await openaiCompatibleProvider.send(selectionRequest(), { settings });
      expect(wire.server.requests[0].headers.authorization).toBe(`Bearer ${FAKE_KEY}`);
      expect(JSON.stringify(r)).not.toContain(FAKE_KEY);
    } finally {
      undo();
    }
  });

  it('without any base URL nothing is sent: a configuration error', async () => {
    const r = await openaiCompatibleProvider.send(selectionRequest(), { settings: settingsFor({ provider: 'openai-compatible', model: 'm' }) });
    expect(failure(r)).toMatchObject({ kind: 'http_4xx', message: expect.stringContaining('base URL') });
  });
});
