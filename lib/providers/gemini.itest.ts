import { describe, expect, it } from 'vitest';
import { failure, FAKE_KEY, observed, providerOverLoopback } from '../testing/provider-fixtures';
import { interpretationRequest, INVOICE_TOOLS, selectionRequest, setProviderEnv, settingsFor } from '../testing/provider-fixtures';
import { SKIP_THOUGHT_SIGNATURE, geminiProvider } from './gemini';

// The real @google/genai SDK against the loopback server.

const MODEL = 'gemini-2.5-flash';

const wire = providerOverLoopback({
  provider: geminiProvider,
  env: { GEMINI_API_KEY: FAKE_KEY, GOOGLE_API_KEY: undefined, GEMINI_BASE_URL: undefined },
  settings: (server) => ({ provider: 'gemini', model: MODEL, baseUrl: server.geminiBaseUrl }),
});
const { send, lastBody } = wire;

describe('gemini adapter: observations', () => {
  it('one function call → parsed call, usage; key sent as x-goog-api-key; model in the path', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }] });
    expect(r.outcome).toBe('ok');
    expect(r.httpStatus).toBe(200);
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(observed(r)).toMatchObject({
      toolCalls: [{ name: 'lookup_invoice', arguments: { invoice_number: 'INV-2041' } }],
      marker: null,
      malformed: null,
      refusal: false,
      finishReason: 'STOP',
    });
    expect(wire.server.requests[0].headers['x-goog-api-key']).toBe(FAKE_KEY);
    expect(wire.server.requests[0].model).toBe(MODEL);
    expect(wire.server.requests[0].path).not.toContain('key=');
  });

  it('two function calls → both, in order', async () => {
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
    const r = await send({ kind: 'text', text: 'Clarify: which invoice number?' });
    expect(observed(r)).toMatchObject({ toolCalls: [], marker: 'CLARIFY', text: 'Clarify: which invoice number?' });
  });

  it('text with STATUS → label', async () => {
    const r = await send({ kind: 'text', text: 'STATUS: **CANNOT_DETERMINE** — no meaning given for 17' }, interpretationRequest());
    expect(observed(r)).toMatchObject({ marker: null, label: 'CANNOT_DETERMINE' });
  });

  it('args that are not a JSON object (a broken JSON string) → unparseable_arguments', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: '{"invoice_number": ' }] });
    expect(r.outcome).toBe('ok');
    expect(observed(r).malformed).toBe('unparseable_arguments');
    expect(observed(r).toolCalls[0]).toEqual({ name: 'lookup_invoice', arguments: null, rawArguments: '{"invoice_number": ' });
  });

  it('a function name not among the declarations → unknown_tool:<name>', async () => {
    const r = await send({ kind: 'toolCalls', calls: [{ name: 'void_invoice', arguments: { invoice_number: 'INV-1' } }] });
    expect(observed(r).malformed).toBe('unknown_tool:void_invoice');
  });

  it('finishReason SAFETY → refusal', async () => {
    const r = await send({ kind: 'refusal' });
    expect(r.outcome).toBe('ok');
    expect(observed(r)).toMatchObject({ refusal: true, toolCalls: [], finishReason: 'SAFETY' });
  });

  it('promptFeedback.blockReason without candidates → refusal, not a transport error', async () => {
    const r = await send({ kind: 'http', status: 200, body: { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' } } });
    expect(r.outcome).toBe('ok');
    expect(observed(r)).toMatchObject({ refusal: true, finishReason: 'PROHIBITED_CONTENT' });
  });

  it('finishReason MALFORMED_FUNCTION_CALL → malformed', async () => {
    const r = await send({ kind: 'malformedFunctionCall' });
    expect(r.outcome).toBe('ok');
    expect(observed(r)).toMatchObject({ malformed: 'MALFORMED_FUNCTION_CALL', toolCalls: [], finishReason: 'MALFORMED_FUNCTION_CALL' });
  });
});

describe('gemini adapter: the request on the wire', () => {
  it('selection: systemInstruction, user task, declarations in the request order; settings mapped', async () => {
    const reversed = selectionRequest([...INVOICE_TOOLS].reverse());
    const r = await send({ kind: 'text', text: 'STOP: x' }, reversed, { temperature: 0.3, maxOutputTokens: 99, seed: 42 });
    const stored = r.request as { tools: { functionDeclarations: { name: string; parametersJsonSchema: unknown }[] }[] };
    expect(stored.tools[0].functionDeclarations.map((d) => d.name)).toEqual(['pay_invoice', 'lookup_invoice']);
    expect(stored.tools[0].functionDeclarations[1].parametersJsonSchema).toEqual(INVOICE_TOOLS[0].parameters);
    expect(r.request).toEqual(lastBody());
    expect(lastBody()).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: reversed.task }] }],
      systemInstruction: { parts: [{ text: reversed.system }] },
      generationConfig: { temperature: 0.3, maxOutputTokens: 99, seed: 42 },
    });
  });

  it('interpretation: model turn with functionCall + user turn with functionResponse, then the label', async () => {
    const r = await send({ kind: 'text', text: 'STATUS: TIMEOUT' }, interpretationRequest({ invoice_number: 'INV-2041', status_code: 17 }));
    expect(observed(r).label).toBe('TIMEOUT');
    const contents = lastBody().contents as { role: string; parts: Record<string, unknown>[] }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1].parts).toEqual([{ functionCall: { name: 'lookup_invoice', args: { invoice_number: 'INV-2041' } } }]);
    expect(contents[2].parts).toEqual([{ functionResponse: { name: 'lookup_invoice', response: { invoice_number: 'INV-2041', status_code: 17 } } }]);
  });

  it('interpretation on Gemini 3: the injected call carries the documented skip signature', async () => {
    await send({ kind: 'text', text: 'STATUS: TIMEOUT' }, interpretationRequest('code 17'), { model: 'gemini-3.1-flash-lite' });
    const contents = lastBody().contents as { parts: Record<string, unknown>[] }[];
    expect(contents[1].parts[0]).toMatchObject({ thoughtSignature: SKIP_THOUGHT_SIGNATURE });
    // a result that is not an object goes under `output`
    expect(contents[2].parts[0]).toEqual({ functionResponse: { name: 'lookup_invoice', response: { output: 'code 17' } } });
  });

  it('GEMINI_BASE_URL and GOOGLE_API_KEY are used when the run sets neither', async () => {
    const undo = setProviderEnv({ GEMINI_API_KEY: undefined, GOOGLE_API_KEY: `${FAKE_KEY}-google`, GEMINI_BASE_URL: wire.server.geminiBaseUrl });
    try {
      wire.server.setScript(() => ({ kind: 'text', text: 'STOP: x' }));
      wire.server.clearRequests();
      const r = await geminiProvider.send(selectionRequest(), { settings: settingsFor({ provider: 'gemini', model: MODEL }) });
      expect(r.outcome).toBe('ok');
      expect(wire.server.requests[0].headers['x-goog-api-key']).toBe(`${FAKE_KEY}-google`);
    } finally {
      undo();
    }
  });

  it('without a key nothing is sent: a configuration error', async () => {
    const undo = setProviderEnv({ GEMINI_API_KEY: undefined, GOOGLE_API_KEY: undefined });
    try {
      wire.server.clearRequests();
      const r = await geminiProvider.send(selectionRequest(), { settings: settingsFor({ provider: 'gemini', model: MODEL, baseUrl: wire.server.geminiBaseUrl }) });
      expect(failure(r)).toMatchObject({ kind: 'http_4xx', message: expect.stringContaining('GEMINI_API_KEY') });
      expect(wire.server.requests).toHaveLength(0);
    } finally {
      undo();
    }
  });
});
