// A tiny valid experiment shared by the end-to-end specs, the export tests, the hostile inputs' base spec and
// the prototype-key test (which names every id after an Object.prototype member).
import type { ExperimentSpecInput } from '../schema/experiment';

/** The ids and texts of the tiny experiment; each defaults to the invoice scenario's. */
export interface TinyOptions {
  scenario?: string;
  /** The scenario's tool ids: the one that reads, the one that writes. */
  tools?: { read: string; write: string };
  /** The tools' wire names (read, write). */
  names?: { read: string; write: string };
  /** The parameters schema both tools take. */
  parameters?: Record<string, unknown>;
  /** A tool's description in a condition (clear: the treatment's, else the baseline's). */
  description?: (effect: 'read' | 'write', clear: boolean) => string;
  study?: string;
  /** The condition ids: the baseline (vague descriptions) and the treatment (clear ones). */
  conditions?: { baseline: string; treatment: string };
  caseId?: string;
  system?: string;
}

const invoiceDescription = (effect: 'read' | 'write', clear: boolean) =>
  !clear ? 'Handles invoice-related requests.' : effect === 'read' ? 'Read-only: looks up an invoice.' : 'Writes: submits a payment for an invoice.';

/** A tiny valid experiment (one scenario, one locale, one case, two conditions); `task` may carry hostile text. */
export function tinyExperiment(id: string, task = 'Show invoice INV-7.', o: TinyOptions = {}): ExperimentSpecInput & Record<string, unknown> {
  const scenario = o.scenario ?? 'invoice';
  const ids = o.tools ?? { read: 'lookup', write: 'pay' };
  const names = o.names ?? { read: 'get_invoice', write: 'pay_invoice' };
  const parameters = o.parameters ?? { type: 'object', properties: { invoice_id: { type: 'string' } }, required: ['invoice_id'] };
  const description = o.description ?? invoiceDescription;
  const conditions = o.conditions ?? { baseline: 'overlapping', treatment: 'clear' };
  // every tool gets objects of its own: tests mutate one and expect the others untouched
  const tools = (clear: boolean) => ({
    [scenario]: {
      en: [
        { tool: ids.read, name: names.read, description: description('read', clear), parameters: structuredClone(parameters) },
        { tool: ids.write, name: names.write, description: description('write', clear), parameters: structuredClone(parameters) },
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
        id: scenario,
        title: 'Invoice',
        tools: [
          { id: ids.read, effect: 'read' },
          { id: ids.write, effect: 'write' },
        ],
      },
    ],
    studies: [
      {
        id: o.study ?? 'selection',
        kind: 'selection',
        title: 'Selection',
        protocol: { system: { en: o.system ?? 'Use a tool, or answer CLARIFY: / STOP:.' } },
        conditions: [
          { id: conditions.baseline, label: 'Overlapping', baseline: true, tools: tools(false) },
          { id: conditions.treatment, label: 'Clear', tools: tools(true) },
        ],
        cases: [
          {
            id: o.caseId ?? 'read-1',
            scenario,
            locale: 'en',
            task,
            checks: [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: 'read', tool: ids.read, call_count: 1 } }],
          },
        ],
      },
    ],
  };
}
