import type { ExperimentSpecInput } from '../schema/experiment';

/**
 * A synthetic experiment of exactly `n` formal trials (n a multiple of 2): one selection study, two
 * conditions, fixed order, cases × replicates = n / 2. For benchmarks and load tests. `tools`: the size of
 * the catalog sent (default 2; more adds read-only distractors of ~400 bytes each, as a discovery study's).
 * `replicates`: at most this many replicates (default 100); fewer gives more distinct cases for the same n.
 */
export function benchSpec(n: number, opts: { orderPolicy?: 'fixed' | 'reverse-swap'; tools?: number; replicates?: number } = {}): ExperimentSpecInput {
  const distractors = Array.from({ length: Math.max(0, (opts.tools ?? 2) - 2) }, (_, i) => `d${i}`);
  const orders = opts.orderPolicy === 'reverse-swap' ? 2 : 1;
  const perCondition = n / 2 / orders;
  if (!Number.isInteger(perCondition)) throw new Error(`n must be a multiple of ${2 * orders}`);
  const replicates = Math.min(opts.replicates ?? 100, perCondition);
  const cases = perCondition / replicates;
  if (!Number.isInteger(cases)) throw new Error(`n/2 must be a multiple of ${replicates}`);
  const tools = (desc: string) => ({
    shop: {
      en: [
        { tool: 'lookup', name: 'lookup_order', description: desc, parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } },
        {
          tool: 'refund',
          name: 'refund_order',
          description: `${desc} Writes.`,
          parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        },
        ...distractors.map((id, i) => ({
          tool: id,
          name: `inventory_report_${i}`,
          description: `${desc} Reports stock level ${i} for one warehouse: the quantity on hand, reserved and in transit for each SKU, as of the last nightly count. Read-only; it never changes stock, orders or refunds.`,
          parameters: {
            type: 'object',
            properties: {
              warehouse_id: { type: 'string', description: 'The warehouse, e.g. W-12.' },
              sku: { type: 'string', description: 'One SKU; all when omitted.' },
            },
            required: ['warehouse_id'],
          },
        })),
      ],
    },
  });
  return {
    format: 'tclab.experiment/v1',
    id: `bench-${n}`,
    name: `Benchmark, ${n} trials`,
    locales: ['en'],
    scenarios: [
      {
        id: 'shop',
        title: 'Shop',
        tools: [{ id: 'lookup', effect: 'read' }, { id: 'refund', effect: 'write' }, ...distractors.map((id) => ({ id, effect: 'read' as const }))],
      },
    ],
    replicates,
    studies: [
      {
        id: 'selection',
        kind: 'selection',
        title: 'Selection',
        orderPolicy: opts.orderPolicy ?? 'fixed',
        protocol: { system: { en: 'Use a tool, or reply CLARIFY: / STOP:.' } },
        conditions: [
          { id: 'vague', label: 'Vague', baseline: true, tools: tools('Handles orders.') },
          { id: 'clear', label: 'Clear', tools: tools('Looks up an order by id. Read-only.') },
        ],
        cases: Array.from({ length: cases }, (_, i) =>
          // with orders swapped, every third case asks for a confirmed write (refund), so outcomes and decisions vary
          orders > 1 && i % 3 === 2
            ? {
                id: `c${i}`,
                scenario: 'shop',
                locale: 'en',
                task: `Please refund order A-${1000 + i}; I confirm the refund.`,
                checks: [{ id: 'tool-choice', axis: 'task_fit' as const, expected: { decision: 'write' as const, tool: 'refund', call_count: 1 } }],
              }
            : {
                id: `c${i}`,
                scenario: 'shop',
                locale: 'en',
                task: `Where is order A-${1000 + i}?`,
                checks: [{ id: 'tool-choice', axis: 'task_fit' as const, expected: { decision: 'read' as const, tool: 'lookup', call_count: 1 } }],
              },
        ),
      },
    ],
  };
}
