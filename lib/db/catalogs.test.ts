import { describe, expect, it } from 'vitest';
import { catalogRefOf, joinCatalog, MIN_CATALOG_CHARS, splitCatalog } from './catalogs';

const tools = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    type: 'function',
    function: { name: `tool_${i}`, description: `Tool ${i} — “quoted”, emoji 🧪, "escaped" \\ done.`, parameters: { type: 'object', properties: {} } },
  }));

describe('splitCatalog', () => {
  it('cuts the top-level tools value out of the text, keyed by the sha256 of its text, and joins back byte for byte', () => {
    const catalog = JSON.stringify(tools(3));
    const text = `{"model":"m","messages":[{"role":"user","content":"ünïcödé 🧪 \\"tools\\": [1] {\\"tools\\":[]}"}],"tools":${catalog},"tool_choice":"auto"}`;
    const s = splitCatalog(text);
    expect(s.catalog).not.toBeNull();
    expect(s.catalog!.body).toBe(catalog);
    expect(s.catalog!.ref).toBe(catalogRefOf(catalog));
    expect(s.catalog!.ref).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(JSON.parse(s.request)).toEqual({ ...JSON.parse(text), tools: null });
    // characters before the placeholder as PostgreSQL counts them (code points, the emoji is one)
    expect(s.catalog!.at).toBe([...text.slice(0, text.indexOf(`"tools":[`) + 8)].length);
    expect(joinCatalog(s.request, s.catalog)).toBe(text);
  });

  it('finds tools after nested objects, strings with brackets and whitespace, and ignores a nested tools key', () => {
    const catalog = JSON.stringify(tools(2), null, 2);
    const text = `{ "contents" : [ { "parts": [ { "text": "} ] { [ \\" ," } ] } ],\n "config": {"tools": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28]},\n "tools" :\n ${catalog} }`;
    const s = splitCatalog(text);
    expect(s.catalog!.body).toBe(catalog);
    expect(JSON.parse(s.request).config).toEqual(JSON.parse(text).config);
    expect(joinCatalog(s.request, s.catalog)).toBe(text);
  });

  it('keeps the request whole without a top-level tools array, with a short one, or with text that is not a JSON object', () => {
    for (const text of [
      '{"model":"m","messages":[]}',
      '{"model":"m","tools":[]}',
      `{"model":"m","tools":${JSON.stringify('x'.repeat(MIN_CATALOG_CHARS * 2))}}`,
      '{"note":"sent; the request is stored with its answer"}',
      '[1,2,3]',
      '{"text":"not json',
      '',
    ])
      expect(splitCatalog(text)).toEqual({ request: text, catalog: null });
  });

  it('gives the same key for the same text, another for a catalog differing in one byte', () => {
    const a = JSON.stringify(tools(5));
    const b = a.replace('tool_4', 'tool_5');
    const req = (c: string) => `{"model":"m","tools":${c}}`;
    expect(splitCatalog(req(a)).catalog!.ref).toBe(splitCatalog(`{"model":"other","tools":${a}}`).catalog!.ref);
    expect(splitCatalog(req(a)).catalog!.ref).not.toBe(splitCatalog(req(b)).catalog!.ref);
  });
});
