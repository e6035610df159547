import { ExperimentSpec, type ExperimentSpecInput } from '../spec/experiment';
import type { TrialExportRow } from '../spec/run-export';

/** Test data for the export tests: a small valid experiment and trials shaped like the JSON export's. */

const tools = (clear: boolean) => ({
  invoice: {
    en: [
      { tool: 'lookup', name: 'get_invoice', description: clear ? 'Read-only lookup.' : 'Handles invoices.', parameters: { type: 'object', properties: { invoice_id: { type: 'string' } } } },
      { tool: 'pay', name: 'pay_invoice', description: clear ? 'Submits a payment (writes).' : 'Handles invoices.', parameters: { type: 'object', properties: { invoice_id: { type: 'string' } } } },
    ],
  },
});

const experimentInput: ExperimentSpecInput = {
  format: 'tclab.experiment/v1',
  id: 'fixture',
  name: 'Fixture experiment',
  locales: ['en'],
  scenarios: [{ id: 'invoice', title: 'Invoice', tools: [{ id: 'lookup', effect: 'read' }, { id: 'pay', effect: 'write' }] }],
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
      cases: [{ id: 'read-1', scenario: 'invoice', locale: 'en', task: 'Show invoice INV-7.', checks: [{ id: 'tool-choice', axis: 'task_fit', expected: { decision: 'read', call_count: 1 } }] }],
    },
  ],
};
export const fixtureExperiment: ExperimentSpec = ExperimentSpec.parse(experimentInput);

/** Trial i of the fixture: alternating conditions; `text` and overrides let tests inject hostile output. */
export function fixtureTrial(i: number, overrides: Partial<TrialExportRow> = {}): TrialExportRow {
  const condition = i % 2 ? 'clear' : 'overlapping';
  const pairKey = `selection|invoice|en|read-1|o0|r${Math.floor(i / 2) + 1}`;
  return {
    id: `t_${String(i).padStart(6, '0')}`,
    study: 'selection',
    kind: 'selection',
    scenario: 'invoice',
    locale: 'en',
    caseId: 'read-1',
    condition,
    order: ['get_invoice', 'pay_invoice'],
    replicate: Math.floor(i / 2) + 1,
    pairKey,
    status: i % 2 ? 'passed' : 'failed',
    toolSetRef: `sha256:${condition}`,
    attempts: [
      { n: 1, outcome: 'transport_error', errorKind: 'http_429', httpStatus: 429, latencyMs: 12, request: { model: 'm' }, response: { error: 'rate' } },
      { n: 2, outcome: 'ok', errorKind: null, httpStatus: 200, latencyMs: 345, request: { model: 'm' }, response: { ok: true } },
    ],
    observation: {
      toolCalls: [{ name: i % 2 ? 'get_invoice' : 'pay_invoice', arguments: { invoice_id: 'INV-7' } }],
      marker: null,
      label: null,
      text: 'Done, "quoted", comma, and\nnew line — 發票',
    },
    verdicts: [
      i % 2
        ? { checkId: 'tool-choice', axis: 'task_fit', checkpoint: 'selection', status: 'pass', category: null, reason: 'first call get_invoice' }
        : { checkId: 'tool-choice', axis: 'task_fit', checkpoint: 'selection', status: 'fail', category: 'unwanted_write', reason: 'write tool pay_invoice proposed' },
    ],
    ...overrides,
  };
}
