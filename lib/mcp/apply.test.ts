import { describe, expect, it } from 'vitest';
import { tinyExperiment } from '../testing/tiny-experiment';
import { parseSpecValue } from '../experiments/parse';
import { applyToolsToConditions, ApplyToolsError } from './apply';
import { readToolFile } from './tools';

const spec = () => {
  const r = parseSpecValue(tinyExperiment('apply-test'));
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.value;
};
const listed = (read: string, write: string, extra: string[] = []) =>
  readToolFile({
    tools: [
      { name: 'get_invoice', description: read, inputSchema: { type: 'object', properties: { invoice_id: { type: 'string', description: 'INV-…' } } } },
      { name: 'pay_invoice', description: write, inputSchema: { type: 'object', properties: { invoice_id: { type: 'string' } } } },
      ...extra.map((name) => ({ name, description: 'x', inputSchema: { type: 'object' } })),
    ],
  }).tools;

describe('applyToolsToConditions', () => {
  it("sets the condition's descriptions and schemas from the listed tools by name, and nothing else", () => {
    const before = spec();
    const r = applyToolsToConditions(before, { clear: listed('Reads one invoice.', 'Pays an invoice: a write.', ['refund_invoice']) });
    expect(r.missing).toEqual([]);
    expect(r.unused).toEqual([{ condition: 'clear', name: 'refund_invoice' }]);
    expect(r.changed).toEqual({ clear: 2 });
    const clear = r.spec.studies[0].conditions.find((c) => c.id === 'clear')!;
    expect(clear.tools.invoice.en.map((d) => [d.tool, d.name, d.description])).toEqual([
      ['lookup', 'get_invoice', 'Reads one invoice.'],
      ['pay', 'pay_invoice', 'Pays an invoice: a write.'],
    ]);
    expect(clear.tools.invoice.en[0].parameters).toEqual({ type: 'object', properties: { invoice_id: { type: 'string', description: 'INV-…' } } });
    // the other condition and the input are untouched
    expect(r.spec.studies[0].conditions.find((c) => c.id === 'overlapping')).toEqual(before.studies[0].conditions.find((c) => c.id === 'overlapping'));
    expect(before.studies[0].conditions.find((c) => c.id === 'clear')!.tools.invoice.en[0].description).toBe('Read-only: looks up an invoice.');
  });

  it('names the tools a condition sends that the server does not list, and applies nothing then', () => {
    const before = spec();
    const tools = listed('a', 'b').filter((t) => t.name !== 'pay_invoice');
    const r = applyToolsToConditions(before, { clear: tools });
    expect(r.missing).toEqual([{ condition: 'clear', name: 'pay_invoice' }]);
    expect(r.spec).toBe(before);
  });

  it('refuses a condition no study has, naming the ones there are', () => {
    expect(() => applyToolsToConditions(spec(), { nope: listed('a', 'b') })).toThrow(
      new ApplyToolsError('condition "nope": no study has it (conditions: overlapping, clear)'),
    );
  });
});
