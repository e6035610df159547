import { TRIAL_FILTER_KEYS, TRIAL_SORT_KEYS } from '@/lib/schema/trial-page';

// The trials table's filters, sort and page live in the run page's URL (`?trials.status=fail&trials.sort=scenario
// &trials.dir=desc&trials.page=2`), so a reload or a shared link shows the same rows. Prefixed, so they never
// meet the page's own parameters (`cluster`, `choices`). Unknown or malformed values are dropped, not errors.

export const TRIAL_PAGE_SIZES = [25, 50, 100, 200] as const;
const DEFAULT_SIZE = 50;
const P = 'trials.';

export interface TrialTableState {
  sorting: { id: string; desc: boolean }[];
  filters: { id: string; value: string }[];
  pagination: { pageIndex: number; pageSize: number };
}

export function trialStateFromParams(params: URLSearchParams): TrialTableState {
  const sort = params.get(`${P}sort`);
  const sorting = sort && (TRIAL_SORT_KEYS as readonly string[]).includes(sort) ? [{ id: sort, desc: params.get(`${P}dir`) === 'desc' }] : [];
  const filters = TRIAL_FILTER_KEYS.flatMap((id) => {
    const value = params.get(`${P}${id}`);
    return value ? [{ id, value }] : [];
  });
  const page = Number(params.get(`${P}page`) ?? '');
  const size = Number(params.get(`${P}size`) ?? '');
  return {
    sorting,
    filters,
    pagination: {
      pageIndex: Number.isInteger(page) && page >= 1 ? page - 1 : 0,
      pageSize: (TRIAL_PAGE_SIZES as readonly number[]).includes(size) ? size : DEFAULT_SIZE,
    },
  };
}

/** `params` with the table's keys replaced by `state` (other keys kept); defaults are left out. Page is 1-based. */
export function withTrialState(params: URLSearchParams, state: TrialTableState): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const key of [...next.keys()]) if (key.startsWith(P)) next.delete(key);
  for (const f of state.filters) if (f.value) next.set(`${P}${f.id}`, f.value);
  if (state.sorting[0]) {
    next.set(`${P}sort`, state.sorting[0].id);
    if (state.sorting[0].desc) next.set(`${P}dir`, 'desc');
  }
  if (state.pagination.pageIndex > 0) next.set(`${P}page`, String(state.pagination.pageIndex + 1));
  if (state.pagination.pageSize !== DEFAULT_SIZE) next.set(`${P}size`, String(state.pagination.pageSize));
  return next;
}
