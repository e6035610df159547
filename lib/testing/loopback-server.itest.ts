import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geminiProvider } from '../providers/gemini';
import { openaiProvider } from '../providers/openai';
import { DESCRIPTORS } from '../providers/registry';
import { defaultErrorBody, echoScript, LOOPBACK_WIRES, startLoopbackServer } from './loopback-server';
import { FAKE_KEY, INVOICE_TOOLS, interpretationRequest, observed, selectionRequest, setProviderEnv, settingsFor } from './provider-fixtures';
import { observeResult } from '../scoring/answer';

let restoreEnv: () => void;
beforeAll(() => {
  restoreEnv = setProviderEnv({ OPENAI_API_KEY: FAKE_KEY, GEMINI_API_KEY: FAKE_KEY, GOOGLE_API_KEY: undefined });
});
afterAll(() => restoreEnv());

describe('loopback server', () => {
  it('echoScript: selection calls the first tool listed with {}, interpretation reports CANNOT_DETERMINE — both formats', async () => {
    const server = await startLoopbackServer({ script: echoScript });
    const undo = setProviderEnv({ TCLAB_ALLOWED_BASE_URLS: server.url });
    try {
      for (const [provider, baseUrl] of [
        [openaiProvider, server.openaiBaseUrl],
        [geminiProvider, server.geminiBaseUrl],
      ] as const) {
        const settings = settingsFor({ provider: provider.descriptor.id, model: 'm', baseUrl });
        const selection = selectionRequest([...INVOICE_TOOLS].reverse());
        const sel = observeResult(await provider.send(selection, { settings }), selection.markers);
        expect(observed(sel).toolCalls).toEqual([expect.objectContaining({ name: 'pay_invoice', arguments: {} })]);
        const interpretation = interpretationRequest();
        const interp = observeResult(await provider.send(interpretation, { settings }), interpretation.markers);
        expect(observed(interp)).toMatchObject({ toolCalls: [], label: 'CANNOT_DETERMINE' });
      }
      expect(server.requests.map((r) => r.wire)).toEqual(['openai-chat', 'openai-chat', 'gemini-generate-content', 'gemini-generate-content']);
      expect(server.count).toBe(4);
    } finally {
      undo();
      await server.close();
    }
  });

  it('record: false keeps nothing but still counts; latencyMs delays every answer', async () => {
    const server = await startLoopbackServer({ record: false, latencyMs: 120 });
    const undo = setProviderEnv({ TCLAB_ALLOWED_BASE_URLS: server.url });
    try {
      const settings = settingsFor({ provider: 'openai', model: 'm', baseUrl: server.openaiBaseUrl });
      const r = await openaiProvider.send(selectionRequest(), { settings });
      expect(r.outcome).toBe('ok');
      expect(r.latencyMs).toBeGreaterThanOrEqual(110);
      expect(server.requests).toHaveLength(0);
      expect(server.count).toBe(1);
    } finally {
      undo();
      await server.close();
    }
  });

  it('unknown routes answer 404; a failing script answers 500; close() ends hanging requests', async () => {
    const server = await startLoopbackServer({
      script: () => {
        throw new Error('no reply scripted');
      },
    });
    const notFound = await fetch(`${server.url}/v2/nothing`, { method: 'POST', body: '{}' });
    expect(notFound.status).toBe(404);
    const failing = await fetch(`${server.openaiBaseUrl}/chat/completions`, { method: 'POST', body: '{"model":"m"}' });
    expect(failing.status).toBe(500);
    expect(await failing.text()).toContain('no reply scripted');
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    server.setScript(() => {
      arrived();
      return { kind: 'hang' };
    });
    const hanging = fetch(`${server.geminiBaseUrl}/v1beta/models/m:generateContent`, { method: 'POST', body: '{}' }).then(
      () => 'answered',
      () => 'closed',
    );
    await received; // the request hangs at the server
    await server.close();
    expect(await hanging).toBe('closed');
  });
});

describe('the loopback wire list', () => {
  it('serves the wire of every provider descriptor, with that provider’s error body', async () => {
    for (const d of DESCRIPTORS) {
      if (d.wire === null) continue;
      expect(LOOPBACK_WIRES).toContain(d.wire);
      expect(d.errorShape?.message(defaultErrorBody(d.wire, 401))).toBe('Incorrect API key provided.');
    }
  });
});
