import { z } from 'zod';
import type { TrialOutcome } from './table1';
import type { TrialPlace } from './trial-place';

/** One row of the trials table (`order`: the trial's candidate-order index). */
export interface TrialRow extends Omit<TrialPlace, 'orderIndex'> {
  order: number;
  status: string;
  categories: string[];
}

/** A trial's outcome (lib/analysis) as a row of the trials table: the one mapping, for the page and its tests. */
export function toTrialRow(t: TrialOutcome): TrialRow {
  return {
    id: t.id,
    study: t.study,
    scenario: t.scenario,
    locale: t.locale,
    caseId: t.caseId,
    condition: t.condition,
    order: t.orderIndex,
    replicate: t.replicate,
    status: t.status,
    categories: t.categories ?? [],
  };
}

export const TRIAL_SORT_KEYS = ['study', 'scenario', 'locale', 'caseId', 'condition', 'order', 'replicate', 'status'] as const;
export const TRIAL_FILTER_KEYS = ['study', 'condition', 'status', 'scenario', 'locale'] as const;
export type TrialFilterKey = (typeof TRIAL_FILTER_KEYS)[number];

const optional = z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().optional());

/** Query string of GET /api/runs/[id]/trials (shared by the route and the table). */
export const TrialPageQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(500).default(50),
  sort: z.enum(TRIAL_SORT_KEYS).optional().catch(undefined),
  dir: z.enum(['asc', 'desc']).default('asc').catch('asc'),
  study: optional,
  condition: optional,
  status: optional,
  scenario: optional,
  locale: optional,
});
export type TrialPageQuery = z.infer<typeof TrialPageQuery>;

export interface TrialPage {
  total: number;
  /** Rows matching the filters. */
  matching: number;
  page: number;
  size: number;
  rows: TrialRow[];
  /** Distinct values per filter column, for the filter menus. */
  facets: Record<TrialFilterKey, string[]>;
}
