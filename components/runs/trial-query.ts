import type { TrialOutcome } from '@/lib/schema/table1';
import type { TrialRow } from '@/lib/schema/trial-page';

export { TRIAL_FILTER_KEYS, TRIAL_SORT_KEYS, TrialPageQuery, type TrialFilterKey, type TrialPage, type TrialRow } from '@/lib/schema/trial-page';

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
