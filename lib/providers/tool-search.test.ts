import { describe, expect, it } from 'vitest';
import { DISTRACTORS, OPAQUE_LOOKUP, searchRequest } from '../testing/tool-search-fixtures';
import { INVOICE_TOOLS, selectionRequest } from '../testing/provider-fixtures';
import { simulatedProvider, throughToolSearch } from './simulated';
import { getDescriptor, PROVIDER_IDS } from './registry';
import { regexSearch, searchableText, terms, termSearch } from './tool-search';
import { settingsFor } from '../testing/provider-fixtures';

// The lexical stand-in for a vendor's tool search (lib/providers/tool-search.ts) and the simulated
// provider's view of a tool-search request.

const settings = settingsFor({ provider: 'simulated', model: 'simulated-lexical-v1' });

describe('lexical tool search', () => {
  it('splits names at _ . - and camelCase and reads parameter names and descriptions', () => {
    const text = searchableText({ name: 'getInvoice.status_v2', description: 'd', parameters: { properties: { invoiceNumber: { description: 'e.g. INV-1' } } } });
    expect(terms(text)).toEqual(expect.arrayContaining(['get', 'invoice', 'status', 'number', 'inv']));
  });

  it('term search: more shared terms first, ties in the given order, stop words ignored, nothing shared → left out', () => {
    const tools = [...DISTRACTORS, ...INVOICE_TOOLS, OPAQUE_LOOKUP];
    expect(termSearch(tools, 'What is the status of invoice INV-2041?').map((t) => t.name)).toEqual(['lookup_invoice', 'pay_invoice']);
    expect(termSearch(tools, 'the and what').map((t) => t.name)).toEqual([]);
    expect(termSearch(tools, 'github repository invoice', 2).map((t) => t.name)).toEqual(['create_issue', 'list_commits']);
  });

  it('regex search: case-insensitive, given order; a bad pattern finds nothing', () => {
    expect(regexSearch([...DISTRACTORS, ...INVOICE_TOOLS], 'GITHUB|payment').map((t) => t.name)).toEqual(['create_issue', 'list_commits', 'pay_invoice']);
    expect(regexSearch(INVOICE_TOOLS, '(')).toEqual([]);
  });
});

describe('the simulated provider under tool search', () => {
  it('sees the non-deferred tools and what a term search over the deferred ones returns for the task; reports it as visible', async () => {
    const seen = throughToolSearch(searchRequest('anthropic-bm25'));
    expect(seen.visible).toEqual(['pay_invoice', 'lookup_invoice']);
    expect(seen.request.tools.map((t) => t.name)).toEqual(['pay_invoice', 'lookup_invoice']);
    const r = await simulatedProvider.send(searchRequest('openai'), { settings });
    expect(r.outcome === 'ok' && r.visible).toEqual(['pay_invoice', 'lookup_invoice']);
    expect(r.outcome === 'ok' && r.answer.toolCalls.map((c) => c.name)).toEqual(['lookup_invoice']);
  });

  it('a needed tool the search misses is neither visible nor chosen', async () => {
    const r = await simulatedProvider.send(searchRequest('anthropic-regex', OPAQUE_LOOKUP), { settings });
    expect(r.outcome === 'ok' && r.visible).toEqual(['pay_invoice']);
    expect(r.outcome === 'ok' && r.answer.toolCalls.map((c) => c.name)).not.toContain('fetch_bill_state');
  });

  it('without toolSearch: every tool, no visible (as before)', async () => {
    expect(throughToolSearch(selectionRequest()).visible).toBeNull();
    const r = await simulatedProvider.send(selectionRequest(), { settings });
    expect(r.outcome === 'ok' && 'visible' in r).toBe(false);
  });
});

describe('which provider speaks which tool search (descriptor.toolSearch)', () => {
  it('OpenAI: tool_search; Anthropic: regex and BM25; Gemini and OpenAI-compatible servers: none; the simulator: all', () => {
    expect(Object.fromEntries(PROVIDER_IDS.map((id) => [id, [...getDescriptor(id).toolSearch]]))).toEqual({
      openai: ['openai'],
      anthropic: ['anthropic-regex', 'anthropic-bm25'],
      gemini: [],
      'openai-compatible': [],
      simulated: ['anthropic-regex', 'anthropic-bm25', 'openai'],
    });
  });
});
