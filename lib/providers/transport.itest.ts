import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer, type Reply } from '../testing/loopback-server';
import { FAKE_KEY, failure, MARKERS, selectionRequest, setProviderEnv, settingsFor } from '../testing/provider-fixtures';
import { anthropicProvider } from './anthropic';
import { geminiProvider } from './gemini';
import { openaiProvider } from './openai';
import { describeProviderFailure } from './precheck';
import type { AdapterResult, ProviderResult } from '../schema/request';
import { observeResult } from '../scoring/answer';
import type { Provider } from './types';

// Transport failures end as the right TransportErrorKind, for both SDKs, against a real HTTP server;
// and the key is sent over the wire but stored nowhere.

let server: LoopbackServer;
let restoreEnv: () => void;

beforeAll(async () => {
  server = await startLoopbackServer();
  restoreEnv = setProviderEnv({
    OPENAI_API_KEY: FAKE_KEY,
    GEMINI_API_KEY: FAKE_KEY,
    ANTHROPIC_API_KEY: FAKE_KEY,
    GOOGLE_API_KEY: undefined,
    OPENAI_BASE_URL: undefined,
    GEMINI_BASE_URL: undefined,
    ANTHROPIC_BASE_URL: undefined,
    // the runs below name the loopback server, and an unresolvable host for the dns case
    TCLAB_ALLOWED_BASE_URLS: `${server.url} http://nonexistent.invalid`,
  });
});
afterAll(async () => {
  await server.close();
  restoreEnv();
});

/** A port with nothing listening: bind one, then close it. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const address = s.address();
  const port = address && typeof address === 'object' ? address.port : 0;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function expectNoKey(result: AdapterResult): void {
  expect(JSON.stringify(result)).not.toContain(FAKE_KEY);
  if (result.outcome === 'transport_error') expect(result.error.message).not.toContain(FAKE_KEY);
}

const cases: { name: 'openai' | 'gemini' | 'anthropic'; provider: Provider; keyHeader: (h: Record<string, unknown>) => unknown }[] = [
  { name: 'openai', provider: openaiProvider, keyHeader: (h) => h.authorization },
  { name: 'gemini', provider: geminiProvider, keyHeader: (h) => h['x-goog-api-key'] },
  // the SDK (1.10.0) sends the key as a bearer token; the API also accepts x-api-key
  { name: 'anthropic', provider: anthropicProvider, keyHeader: (h) => h.authorization ?? h['x-api-key'] },
];

describe.each(cases)('$name transport taxonomy', ({ name, provider, keyHeader }) => {
  const wire = provider.descriptor.wire!;
  const baseUrl = () => server.baseUrlFor(wire);
  /** The same base path on another origin. */
  const elsewhere = (origin: string) => `${origin}${baseUrl().slice(server.url.length)}`;
  const send = async (reply: Reply, overrides: { timeoutMs?: number; baseUrl?: string } = {}): Promise<ProviderResult> => {
    server.setScript(() => reply);
    const settings = settingsFor({ provider: name, model: 'test-model', baseUrl: overrides.baseUrl ?? baseUrl(), timeoutMs: overrides.timeoutMs ?? 10_000 });
    const request = selectionRequest();
    const result = await provider.send(request, { settings });
    expectNoKey(result);
    return observeResult(result, MARKERS);
  };

  it('429 with Retry-After in seconds → http_429 with retryAfterMs', async () => {
    const r = await send({ kind: 'http', status: 429, headers: { 'retry-after': '7' } });
    expect(r.outcome).toBe('transport_error');
    expect(failure(r)).toMatchObject({ kind: 'http_429', retryAfterMs: 7000 });
    expect(r.httpStatus).toBe(429);
    expect(r.response).toMatchObject({ error: expect.anything() });
    expect(describeProviderFailure(r, name)).toMatch(/rate-limited/);
  });

  it('429 with Retry-After as an HTTP-date → retryAfterMs from the date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    const r = await send({ kind: 'http', status: 429, headers: { 'retry-after': at } });
    expect(failure(r).kind).toBe('http_429');
    expect(failure(r).retryAfterMs).toBeGreaterThan(25_000);
    expect(failure(r).retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('is one attempt: no SDK retry on 429 or 500', async () => {
    server.clearRequests();
    await send({ kind: 'http', status: 500 });
    await send({ kind: 'http', status: 429 });
    expect(server.requests).toHaveLength(2);
  });

  it('500 → http_5xx', async () => {
    const r = await send({ kind: 'http', status: 500 });
    expect(failure(r).kind).toBe('http_5xx');
    expect(r.httpStatus).toBe(500);
    expect(failure(r).message).toMatch(/HTTP 500/);
  });

  it('401 → http_4xx, described as a rejected key', async () => {
    const r = await send({ kind: 'http', status: 401 });
    expect(failure(r).kind).toBe('http_4xx');
    expect(r.httpStatus).toBe(401);
    expect(describeProviderFailure(r, name)).toMatch(/API key was rejected/);
  });

  it('404 → http_4xx, described as unknown model or wrong base URL', async () => {
    const r = await send({ kind: 'http', status: 404 });
    expect(failure(r).kind).toBe('http_4xx');
    expect(describeProviderFailure(r, name, { model: 'test-model' })).toMatch(/unknown model or wrong base URL.*test-model/);
  });

  it('a reset connection → reset', async () => {
    const r = await send({ kind: 'reset' });
    expect(failure(r).kind).toBe('reset');
    expect(r.httpStatus).toBeNull();
    expect(r.response).toBeNull();
  });

  it('no answer before timeoutMs → timeout', async () => {
    // the server never answers: only the timeout can end the attempt
    const r = await send({ kind: 'hang' }, { timeoutMs: 300 });
    expect(failure(r).kind).toBe('timeout');
  });

  it('a slow answer within the timeout is fine, and its latency is measured', async () => {
    const r = await send({ kind: 'delay', ms: 150, then: { kind: 'text', text: 'STOP: nothing to do' } });
    expect(r.outcome).toBe('ok');
    expect(r.latencyMs).toBeGreaterThanOrEqual(140);
  });

  it('200 with an HTML body → malformed_body, body stored as text', async () => {
    const r = await send({ kind: 'nonJson' });
    expect(failure(r).kind).toBe('malformed_body');
    expect(r.httpStatus).toBe(200);
    expect(r.response).toEqual({ text: expect.stringContaining('<html>') });
  });

  it('200 with non-JSON served as application/json → malformed_body', async () => {
    const r = await send({ kind: 'nonJson', body: '{"choices": [', contentType: 'application/json' });
    expect(failure(r).kind).toBe('malformed_body');
  });

  it('200 with JSON of the wrong shape → malformed_body', async () => {
    const r = await send({ kind: 'http', status: 200, body: { hello: 'world' } });
    expect(failure(r).kind).toBe('malformed_body');
    expect(r.response).toEqual({ hello: 'world' });
  });

  it('an unresolvable host → dns', async () => {
    const r = await send({ kind: 'text', text: 'unused' }, { baseUrl: elsewhere('http://nonexistent.invalid') });
    expect(failure(r).kind).toBe('dns');
    expect(describeProviderFailure(r, name)).toMatch(/could not reach nonexistent\.invalid/);
  });

  it('a closed port → connect', async () => {
    const port = await closedPort();
    const base = `http://127.0.0.1:${port}`;
    const undo = setProviderEnv({ TCLAB_ALLOWED_BASE_URLS: base });
    const r = await send({ kind: 'text', text: 'unused' }, { baseUrl: elsewhere(base) }).finally(undo);
    expect(failure(r).kind).toBe('connect');
    expect(describeProviderFailure(r, name, { baseUrl: base })).toMatch(new RegExp(`could not reach 127\\.0\\.0\\.1:${port}`));
  });

  it("an abort through the caller's signal → lost", async () => {
    const controller = new AbortController();
    server.setScript(() => {
      controller.abort(); // once the request is out and has reached the server
      return { kind: 'hang' };
    });
    const settings = settingsFor({ provider: name, model: 'test-model', baseUrl: baseUrl() });
    const r = await provider.send(selectionRequest(), { settings, signal: controller.signal });
    expect(failure(r).kind).toBe('lost');
  });

  it('sends the key over the wire, stores it nowhere — even when the server echoes it', async () => {
    server.clearRequests();
    const echoed = `Incorrect API key provided: ${FAKE_KEY}. Get one at https://example.test/keys?key=${FAKE_KEY}`;
    const r = await send({ kind: 'http', status: 401, body: { error: { message: echoed, code: 401 } }, headers: { 'x-echo': FAKE_KEY } });
    expect(String(keyHeader(server.requests[0].headers))).toContain(FAKE_KEY);
    expect(JSON.stringify(r.response)).toContain('[REDACTED]');
    expect(failure(r).message).toContain('[REDACTED]');
    expect(describeProviderFailure(r, name)).not.toContain(FAKE_KEY);

    const ok = await send({ kind: 'text', text: `STOP: my key is ${FAKE_KEY}` });
    expect(ok.outcome).toBe('ok');
    expect(JSON.stringify(ok.response)).toContain('[REDACTED]');
  });
});
