// A tiny valid experiment shared by the end-to-end specs and the export tests.
import type { ExperimentSpecInput } from '../schema/experiment';

/** A tiny valid experiment (one scenario, one locale, one case, two conditions); `task` may carry hostile text. */
export function tinyExperiment(id: string, task = 'Show invoice INV-7.'): ExperimentSpecInput & Record<string, unknown> {
  const tools = (clear: boolean) => ({
    invoice: {
      en: [
        {
          tool: 'lookup',
          name: 'get_invoice',
          description: clear ? 'Read-only: looks up an invoice.' : 'Handles invoice-related requests.',
          parameters: { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_id'] },
        },
        {
          tool: 'pay',
          name: 'pay_invoice',
          description: clear ? 'Writes: submits a payment for an invoice.' : 'Handles invoice-related requests.',
          parameters: { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_id'] },
        },
      ],
    },
  });
  return {
    format: 'tclab.experiment/v1',
    id,
    name: `Tiny experiment ${id}`,
    locales: ['en'],
    scenarios: [
      {
        id: 'invoice',
        title: 'Invoice',
        tools: [
          { id: 'lookup', effect: 'read' },
          { id: 'pay', effect: 'write' },
        ],
      },
    ],
    studies: [
      {
        id: 'selection',
        kind: 'selection',
        title: 'Selection',
        protocol: { system: { en: 'Use a tool, or answer CLARIFY: / STOP:.' } },
        conditions: [
          { id: 'overlapping', label: 'Overlapping', baseline: true, tools: tools(false) },
          { id: 'clear', label: 'Clear', tools: tools(true) },
        ],
        cases: [
          {
            id: 'read-1',
            scenario: 'invoice',
            locale: 'en',
            task,
            checks: [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: 'read', tool: 'lookup', call_count: 1 } }],
          },
        ],
      },
    ],
  };
}
