import { ExperimentSpec } from '../design/experiment-spec';
import { tinyExperiment } from './tiny-experiment';
import type { TrialExportRow } from '../schema/run-export';
import { pairKeyOf } from '../design/matrix';

/** Test data for the export tests: a small valid experiment and trials shaped like the JSON export's. */

export const fixtureExperiment: ExperimentSpec = ExperimentSpec.parse(tinyExperiment('fixture'));

/** Trial i of the fixture: alternating conditions; `text` and overrides let tests inject hostile output. */
export function fixtureTrial(i: number, overrides: Partial<TrialExportRow> = {}): TrialExportRow {
  const condition = i % 2 ? 'clear' : 'overlapping';
  const pairKey = pairKeyOf({ study: 'selection', scenario: 'invoice', locale: 'en', caseId: 'read-1', orderIndex: 0, replicate: Math.floor(i / 2) + 1 });
  return {
    id: `t_${String(i).padStart(6, '0')}`,
    study: 'selection',
    kind: 'selection',
    scenario: 'invoice',
    locale: 'en',
    caseId: 'read-1',
    condition,
    order: ['get_invoice', 'pay_invoice'],
    orderNumber: 1,
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
