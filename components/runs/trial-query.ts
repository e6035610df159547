import type { TrialOutcome } from '@/lib/schema/table1';
import type { TrialRow } from '@/lib/schema/trial-page';

export { TRIAL_FILTER_KEYS, TRIAL_SORT_KEYS, TrialPageQuery, type TrialFilterKey, type TrialPage, type TrialRow } from '@/lib/schema/trial-page';

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
