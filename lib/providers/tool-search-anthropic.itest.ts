import { describe, expect, it } from 'vitest';
import { FAKE_KEY, observed, providerOverLoopback } from '../testing/provider-fixtures';
import { OPAQUE_LOOKUP, searchRequest } from '../testing/tool-search-fixtures';
import { anthropicProvider } from './anthropic';

// Vendor tool search end to end (docs/discovery.md): the real SDK sends deferred tools and the vendor's search
// tool in its own wire format to the loopback server, which runs a real search over the deferred tools and
// answers with the vendor's search blocks / items and a call. What the adapter reports as `visible` is
// exactly what the search returned (after the non-deferred tools), in rank order.

const anthropic = providerOverLoopback({
  provider: anthropicProvider,
  env: { ANTHROPIC_API_KEY: FAKE_KEY, ANTHROPIC_BASE_URL: undefined },
  settings: (server) => ({ provider: 'anthropic', model: 'claude-test', baseUrl: server.anthropicBaseUrl }),
});

describe('anthropic tool search over the Messages wire', () => {
  for (const [mechanism, type, name] of [
    ['anthropic-regex', 'tool_search_tool_regex_20251119', 'tool_search_tool_regex'],
    ['anthropic-bm25', 'tool_search_tool_bm25_20251119', 'tool_search_tool_bm25'],
  ] as const) {
    it(`${mechanism}: the search tool first, deferred tools with defer_loading; the tool_references returned are visible`, async () => {
      const r = await anthropic.send({ kind: 'text', text: 'unused' }, searchRequest(mechanism));
      expect(r.outcome).toBe('ok');
      const q = anthropic.server.toolSearchRequests[0]!;
      expect(q.path).toBe('/v1/messages');
      expect(q.headers?.['anthropic-beta']).toBeUndefined();
      const body = q.body as { tools: Record<string, unknown>[] };
      expect(body.tools[0]).toEqual({ type, name });
      expect(body.tools.slice(1).map((t) => [t.name, t.defer_loading ?? false])).toEqual([
        ['pay_invoice', false],
        ['create_issue', true],
        ['list_commits', true],
        ['lookup_invoice', true],
      ]);
      expect(q.found).toEqual(['lookup_invoice']);
      if (r.outcome !== 'ok') return;
      expect(r.visible).toEqual(['pay_invoice', 'lookup_invoice']);
      // the server's own search call is no tool call of the model's
      expect(observed(r).toolCalls).toEqual([{ id: 'toolu_1', name: 'lookup_invoice', arguments: {} }]);
      expect(observed(r).malformed).toBeNull();
      // the stored response holds the search blocks as received
      expect(JSON.stringify(r.response)).toContain('"tool_search_tool_result"');
    });
  }

  it('regex search with a pattern the model chose: rank order as returned (the given order for regex)', async () => {
    anthropic.server.setToolSearchQuery('github|invoice');
    try {
      const r = await anthropic.send({ kind: 'text', text: 'unused' }, searchRequest('anthropic-regex'));
      expect(r.outcome === 'ok' && r.visible).toEqual(['pay_invoice', 'create_issue', 'list_commits', 'lookup_invoice']);
      expect(observed(r).toolCalls.map((c) => c.name)).toEqual(['create_issue']);
    } finally {
      anthropic.server.setToolSearchQuery(null);
    }
  });

  it('the search does not return the needed tool: it is not visible', async () => {
    const r = await anthropic.send({ kind: 'text', text: 'unused' }, searchRequest('anthropic-bm25', OPAQUE_LOOKUP));
    expect(r.outcome).toBe('ok');
    expect(anthropic.server.toolSearchRequests[0]!.found).toEqual([]);
    expect(r.outcome === 'ok' && r.visible).toEqual(['pay_invoice']);
    expect(observed(r).toolCalls.map((c) => c.name)).toEqual(['pay_invoice']);
  });

  it('without toolSearch nothing changes: no search tool, no defer_loading, no visible', async () => {
    const r = await anthropic.send({ kind: 'toolCalls', calls: [{ name: 'lookup_invoice', arguments: {} }] });
    expect(anthropic.server.toolSearchRequests).toEqual([]);
    expect(JSON.stringify(anthropic.lastBody().tools)).not.toMatch(/tool_search|defer_loading/);
    expect(r.outcome === 'ok' && 'visible' in r).toBe(false);
  });
});
