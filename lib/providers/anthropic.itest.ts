import { describe, expect, it } from 'vitest';
import { failure, FAKE_KEY, observed, providerOverLoopback } from '../testing/provider-fixtures';
import { interpretationRequest, INVOICE_TOOLS, selectionRequest, setProviderEnv, settingsFor } from '../testing/provider-fixtures';
import { anthropicProvider, DEFAULT_MAX_TOKENS } from './anthropic';
import { describeProviderFailure } from './precheck';

// The real @anthropic-ai/sdk against the loopback server's Messages wire: what the model did ends as the
// right observation, and the request on the wire has the study's form in Anthropic's own tool-use shape.

const wire = providerOverLoopback({
  provider: anthropicProvider,
  env: { ANTHROPIC_API_KEY: FAKE_KEY, ANTHROPIC_BASE_URL: undefined },
  settings: (server) => ({ provider: 'anthropic', model: 'claude-test', baseUrl: server.anthropicBaseUrl }),
});
const { send, lastBody } = wire;
const settings = wire.settings;

describe('anthropic adapter: observations', () => {
  it('a tool_use block → parsed call, usage, status; POST /v1/messages with the key and a version header', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }] });
    expect(r.outcome).toBe('ok');
    expect(r.httpStatus).toBe(200);
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(observed(r)).toEqual({
      toolCalls: [{ id: 'toolu_1', name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }],
      marker: null,
      label: null,
      text: null,
      malformed: null,
      refusal: false,
      finishReason: 'tool_use',
    });
    const q = wire.server.requests[0];
    expect(q.path).toBe('/v1/messages');
    expect(q.wire).toBe('anthropic-messages');
    expect(q.headers.authorization ?? q.headers['x-api-key']).toContain(FAKE_KEY);
    expect(q.headers['anthropic-version']).toEqual(expect.any(String));
  });

  it('two tool_use blocks → both, in order', async () => {
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

  it('a text block with CLARIFY → marker, no calls; text beside a call is kept', async () => {
    const r = await send({ kind: 'text', text: 'CLARIFY: which invoice number do you mean?' });
    expect(observed(r)).toMatchObject({ toolCalls: [], marker: 'CLARIFY', text: 'CLARIFY: which invoice number do you mean?', finishReason: 'end_turn' });
    const both = await send({ kind: 'toolCalls', text: 'Looking it up.', calls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }] });
    expect(observed(both)).toMatchObject({ text: 'Looking it up.', toolCalls: [{ name: 'lookup_invoice' }] });
  });

  it('STATUS in a text block → label', async () => {
    const r = await send({ kind: 'text', text: 'The lookup returned code 17.\nSTATUS: cannot_determine' }, interpretationRequest());
    expect(observed(r)).toMatchObject({ marker: null, label: 'CANNOT_DETERMINE' });
  });

  it('tool_use input that is not an object → unparseable_arguments, raw kept', async () => {
    const r = await send({ kind: 'malformedFunctionCall' });
    expect(observed(r).malformed).toBe('unparseable_arguments');
    expect(observed(r).toolCalls[0]).toEqual({ id: 'toolu_1', name: 'lookup_invoice', arguments: null, rawArguments: JSON.stringify('{"broken": ') });
  });

  it('a tool name not among the tools sent → unknown_tool:<name>', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'void_invoice', arguments: {} }] });
    expect(observed(r).malformed).toBe('unknown_tool:void_invoice');
  });

  it('stop_reason refusal → refusal', async () => {
    const r = await send({ kind: 'refusal' });
    expect(observed(r)).toMatchObject({ refusal: true, toolCalls: [], finishReason: 'refusal' });
  });
});

describe('anthropic adapter: the request on the wire', () => {
  it('selection: system protocol, user task, tools with input_schema in the request order', async () => {
    const reversed = selectionRequest([...INVOICE_TOOLS].reverse());
    const r = await send({ kind: 'text', text: 'STOP: x' }, reversed, { maxOutputTokens: 99, temperature: 0.3, seed: 42 });
    expect(r.request).toEqual(lastBody());
    expect(lastBody()).toEqual({
      model: 'claude-test',
      max_tokens: 99,
      system: reversed.system,
      messages: [{ role: 'user', content: reversed.task }],
      tools: [
        { name: 'pay_invoice', description: INVOICE_TOOLS[1].description, input_schema: INVOICE_TOOLS[1].parameters },
        { name: 'lookup_invoice', description: INVOICE_TOOLS[0].description, input_schema: INVOICE_TOOLS[0].parameters },
      ],
    });
  });

  it('the API requires max_tokens: a run without an output limit sends the default', async () => {
    await send({ kind: 'text', text: 'STOP: x' }, selectionRequest(), { maxOutputTokens: null });
    expect(lastBody().max_tokens).toBe(DEFAULT_MAX_TOKENS);
  });

  it('interpretation: an assistant tool_use block, then a user tool_result with its tool_use_id', async () => {
    const request = interpretationRequest({ invoice_number: 'INV-2041', status_code: 17 });
    const r = await send({ kind: 'text', text: 'STATUS: TIMEOUT' }, request);
    expect(observed(r).label).toBe('TIMEOUT');
    expect(lastBody().messages).toEqual([
      { role: 'user', content: request.task },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_0', name: 'lookup_invoice', input: { invoice_number: 'INV-2041' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0', content: '{"invoice_number":"INV-2041","status_code":17}' }] },
    ]);
  });

  it('ANTHROPIC_BASE_URL is used when the run has no base URL', async () => {
    const undo = setProviderEnv({ ANTHROPIC_BASE_URL: wire.server.anthropicBaseUrl });
    try {
      wire.server.setScript(() => ({ kind: 'text', text: 'STOP: x' }));
      wire.server.clearRequests();
      const r = await anthropicProvider.send(selectionRequest(), { settings: settingsFor({ provider: 'anthropic', model: 'claude-test' }) });
      expect(r.outcome).toBe('ok');
      expect(wire.server.requests).toHaveLength(1);
    } finally {
      undo();
    }
  });

  it('without ANTHROPIC_API_KEY nothing is sent: a configuration error naming the variable', async () => {
    const undo = setProviderEnv({ ANTHROPIC_API_KEY: undefined });
    try {
      wire.server.clearRequests();
      const r = await anthropicProvider.send(selectionRequest(), { settings: settings() });
      expect(failure(r)).toMatchObject({ kind: 'http_4xx', message: expect.stringContaining('ANTHROPIC_API_KEY') });
      expect(wire.server.requests).toHaveLength(0);
    } finally {
      undo();
    }
  });

  it("Anthropic's error body: its message is read into the error; 529 overloaded → http_5xx; 401 names ANTHROPIC_API_KEY", async () => {
    const overloaded = await send({ kind: 'http', status: 529 });
    expect(failure(overloaded).kind).toBe('http_5xx');
    expect(overloaded.response).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
    const denied = await send({ kind: 'http', status: 401 });
    expect(failure(denied).message).toBe(`HTTP 401 from 127.0.0.1:${wire.server.port}: Incorrect API key provided.`);
    expect(describeProviderFailure(denied, 'anthropic')).toMatch(/check ANTHROPIC_API_KEY/);
  });
});
