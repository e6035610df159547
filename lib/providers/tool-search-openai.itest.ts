import { describe, expect, it } from 'vitest';
import { FAKE_KEY, observed, providerOverLoopback, selectionRequest } from '../testing/provider-fixtures';
import { OPAQUE_LOOKUP, searchRequest } from '../testing/tool-search-fixtures';
import { openaiProvider } from './openai';

// Vendor tool search end to end (docs/discovery.md): the real SDK sends deferred tools and the vendor's search
// tool in its own wire format to the loopback server, which runs a real search over the deferred tools and
// answers with the vendor's search blocks / items and a call. What the adapter reports as `visible` is
// exactly what the search returned (after the non-deferred tools), in rank order.

const openai = providerOverLoopback({
  provider: openaiProvider,
  env: { OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: undefined },
  settings: (server) => ({ provider: 'openai', model: 'gpt-test', baseUrl: server.openaiBaseUrl }),
});

describe('openai tool_search over the Responses wire', () => {
  it('POST /v1/responses with a tool_search tool and deferred functions; the tool_search_output is visible', async () => {
    const r = await openai.send({ kind: 'text', text: 'unused' }, searchRequest('openai'));
    expect(r.outcome).toBe('ok');
    const q = openai.server.toolSearchRequests[0]!;
    expect(q.path).toBe('/v1/responses');
    expect(q.headers?.authorization).toBe(`Bearer ${FAKE_KEY}`);
    const body = q.body as { tools: Record<string, unknown>[]; instructions: string; input: unknown[] };
    expect(body.tools[0]).toEqual({ type: 'tool_search' });
    expect(body.tools.slice(1).map((t) => [t.type, t.name, t.defer_loading ?? false])).toEqual([
      ['function', 'pay_invoice', false],
      ['function', 'create_issue', true],
      ['function', 'list_commits', true],
      ['function', 'lookup_invoice', true],
    ]);
    expect(body.instructions).toBe(selectionRequest().system);
    expect(body.input).toEqual([{ role: 'user', content: selectionRequest().task }]);
    expect(openai.server.requests).toEqual([]); // nothing went to chat completions
    if (r.outcome !== 'ok') return;
    expect(r.visible).toEqual(['pay_invoice', 'lookup_invoice']);
    expect(observed(r).toolCalls).toEqual([{ id: 'call_1', name: 'lookup_invoice', arguments: {}, rawArguments: '{}' }]);
    expect(r.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(JSON.stringify(r.response)).toContain('"tool_search_output"');
  });

  it('the search does not return the needed tool: it is not visible', async () => {
    const r = await openai.send({ kind: 'text', text: 'unused' }, searchRequest('openai', OPAQUE_LOOKUP));
    expect(openai.server.toolSearchRequests[0]!.found).toEqual([]);
    expect(r.outcome === 'ok' && r.visible).toEqual(['pay_invoice']);
  });

  it('without toolSearch the chat-completions path is used as before', async () => {
    const r = await openai.send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: {} }] });
    expect(openai.server.toolSearchRequests).toEqual([]);
    expect(openai.server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(r.outcome === 'ok' && 'visible' in r).toBe(false);
  });
});
