import { z } from 'zod';
import type { TrialOutcome } from '@/lib/spec/export';

/** One row of the trials table. caseId, order index and replicate are read from the pair key. */
export interface TrialRow {
  id: string;
  study: string;
  scenario: string;
  locale: string;
  caseId: string;
  condition: string;
  order: number;
  replicate: number;
  status: string;
  categories: string[];
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

export function toTrialRow(t: TrialOutcome): TrialRow {
  // pairKey = study|scenario|locale|caseId|o<order>|r<replicate> (lib/design/matrix.ts)
  const parts = t.pairKey.split('|');
  const num = (s: string | undefined) => Number(s?.slice(1) ?? NaN);
  return {
    id: t.id,
    study: t.study,
    scenario: t.scenario,
    locale: t.locale,
    caseId: parts[3] ?? '',
    condition: t.condition,
    order: num(parts[4]),
    replicate: num(parts[5]),
    status: t.status,
    categories: t.categories ?? [],
  };
}

/** Filter, sort and slice one page of a run's trials. */
export function trialPage(outcomes: TrialOutcome[], q: TrialPageQuery): TrialPage {
  const all = outcomes.map(toTrialRow);
  const facets = Object.fromEntries(TRIAL_FILTER_KEYS.map((k) => [k, [...new Set(all.map((r) => r[k]))].sort()])) as Record<TrialFilterKey, string[]>;
  const rows = all.filter((r) => TRIAL_FILTER_KEYS.every((k) => q[k] === undefined || r[k] === q[k]));
  if (q.sort) {
    const key = q.sort;
    const sign = q.dir === 'desc' ? -1 : 1;
    rows.sort((a, b) => {
      const x = a[key];
      const y = b[key];
      return sign * (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y)));
    });
  }
  const start = q.page * q.size;
  return { total: all.length, matching: rows.length, page: q.page, size: q.size, rows: rows.slice(start, start + q.size), facets };
}
