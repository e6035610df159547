import { parseOrThrow } from '../schema/common';
import type { ExperimentSpecInput } from '../schema/experiment';
import { ExperimentSpec } from '../design/experiment-spec';
import { CONDITION, LOCALES, SCENARIO, STUDY, TOOL } from './reference-study/common';
import { interpretationCaseId, interpretationCases, interpretationTools } from './reference-study/interpretation';
import { INTERPRETATION_PROTOCOL, SELECTION_PROTOCOL } from './reference-study/protocols';
import { selectionCaseId, selectionCases } from './reference-study/selection-cases';
import { clearTools, overlappingTools } from './reference-study/selection-tools';

/**
 * The reference study of seed 000 (docs/design.md#the-reference-study) as a ready experiment: restaurant and invoice scenarios, each
 * with one read and one write tool; English and Traditional Chinese; a selection study (overlapping →
 * clear definitions, both candidate orders: 48 trials per condition) and an interpretation study (no code
 * meanings → code meanings, fixed order: 28 per condition); 152 formal requests and 2 pre-checks.
 */
export const REFERENCE_STUDY_ID = 'reference-study';

export function referenceStudyInput(): ExperimentSpecInput {
  return {
    format: 'tclab.experiment/v1',
    id: REFERENCE_STUDY_ID,
    name: 'Reference study: tool contracts for restaurant bookings and invoices (seed 000)',
    description:
      'Reproduces the bilingual study of seed 000 (Task–Call Contract): does stating the read/write boundary, ' +
      'the required fields and the capability limits of a tool change which tool a model proposes, and do ' +
      'status-code meanings change how it reads a result? Only the tool definitions differ between conditions.',
    locales: [...LOCALES],
    scenarios: [
      {
        id: SCENARIO.restaurant,
        title: 'Restaurant booking',
        tools: [
          { id: TOOL.findTables, effect: 'read' },
          { id: TOOL.createBooking, effect: 'write' },
        ],
      },
      {
        id: SCENARIO.invoice,
        title: 'Invoice accounting',
        tools: [
          { id: TOOL.getPaymentStatus, effect: 'read' },
          { id: TOOL.submitPayment, effect: 'write' },
        ],
      },
    ],
    studies: [
      {
        id: STUDY.selection,
        kind: 'selection',
        title: 'Tool selection: overlapping descriptions → clear purposes',
        orderPolicy: 'reverse-swap',
        protocol: SELECTION_PROTOCOL,
        conditions: [
          { id: CONDITION.overlapping, label: 'Overlapping descriptions', baseline: true, tools: overlappingTools() },
          { id: CONDITION.clear, label: 'Clear purposes and limits', baseline: false, tools: clearTools() },
        ],
        cases: selectionCases(),
      },
      {
        id: STUDY.interpretation,
        kind: 'interpretation',
        title: 'Result interpretation: no code meanings → with code meanings',
        orderPolicy: 'fixed',
        protocol: INTERPRETATION_PROTOCOL,
        conditions: [
          { id: CONDITION.noCodeMeanings, label: 'No status-code meanings', baseline: true, tools: interpretationTools(false) },
          { id: CONDITION.codeMeanings, label: 'Status-code meanings listed', baseline: false, tools: interpretationTools(true) },
        ],
        cases: interpretationCases(),
      },
    ],
    replicates: 1,
    prechecks: [
      { study: STUDY.selection, condition: CONDITION.clear, caseId: selectionCaseId(SCENARIO.restaurant, 'en', 'read-1') },
      { study: STUDY.interpretation, condition: CONDITION.codeMeanings, caseId: interpretationCaseId(SCENARIO.restaurant, 'en', 17) },
    ],
  };
}

/** The reference study, parsed through the ExperimentSpec schema (throws a SpecError naming every bad path). */
export function referenceStudy(): ExperimentSpec {
  return parseOrThrow(ExperimentSpec, referenceStudyInput(), `template "${REFERENCE_STUDY_ID}"`);
}
