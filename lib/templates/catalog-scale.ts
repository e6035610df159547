import { parseOrThrow } from '../schema/common';
import type { ExperimentSpecInput } from '../schema/experiment';
import { ExperimentSpec } from '../design/experiment-spec';
import { CONDITION, SCENARIO, STUDY, TOOL } from './reference-study/common';
import { SELECTION_PROTOCOL } from './reference-study/protocols';
import { selectionCases } from './reference-study/selection-cases';
import { clearTools, overlappingTools } from './reference-study/selection-tools';

/**
 * Catalog scale (docs/discovery.md): the reference study's invoice scenario (English) with 0, 8, 32 and 128 distractors
 * drawn from the GitHub MCP server's catalog — 128 asks for more than its 117 tools, so the largest size is
 * `all` (117) — under two discovery mechanisms (every tool sent; a local BM25 retriever keeping the top 5),
 * in both description conditions. Is the needed tool seen, and chosen once seen?
 */
export const CATALOG_SCALE_ID = 'catalog-scale';
export const CATALOG_SCALE_SIZES = [0, 8, 32, 'all'] as const;
export const CATALOG_SCALE_K = 5;

const invoiceOnly = <T>(byScenario: Record<string, Record<string, T>>) => ({ [SCENARIO.invoice]: { en: byScenario[SCENARIO.invoice].en } });

export function catalogScaleInput(): ExperimentSpecInput {
  return {
    format: 'tclab.experiment/v1',
    id: CATALOG_SCALE_ID,
    name: 'Catalog scale: is the invoice tool seen among GitHub’s 117 tools, and chosen once seen?',
    description:
      'The invoice scenario of the reference study (seed 000) with 0, 8, 32 and all 117 GitHub MCP server tools as distractors, ' +
      'every tool sent vs. a local BM25 retriever keeping the top 5, overlapping vs. clear descriptions. The funnel: visible → chosen | visible → arguments → outcome.',
    locales: ['en'],
    scenarios: [
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
        title: 'Tool selection at catalog scale: overlapping → clear, all tools vs. BM25 top 5',
        orderPolicy: 'reverse-swap',
        protocol: { ...SELECTION_PROTOCOL, system: { en: SELECTION_PROTOCOL.system.en } },
        conditions: [
          { id: CONDITION.overlapping, label: 'Overlapping descriptions', baseline: true, tools: invoiceOnly(overlappingTools()) },
          { id: CONDITION.clear, label: 'Clear purposes and limits', baseline: false, tools: invoiceOnly(clearTools()) },
        ],
        cases: selectionCases().filter((c) => c.scenario === SCENARIO.invoice && c.locale === 'en'),
        catalog: {
          source: { builtin: 'github-mcp-server' },
          sizes: [...CATALOG_SCALE_SIZES],
          seed: 'catalog-scale-v1',
          discovery: [
            { id: 'all', mechanism: 'all' },
            { id: 'bm25-top-5', mechanism: 'bm25-top-k', k: CATALOG_SCALE_K },
          ],
        },
      },
    ],
    replicates: 1,
    prechecks: [],
  };
}

export function catalogScale(): ExperimentSpec {
  return parseOrThrow(ExperimentSpec, catalogScaleInput(), `template "${CATALOG_SCALE_ID}"`);
}
