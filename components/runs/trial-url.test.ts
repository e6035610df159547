import { describe, expect, it } from 'vitest';
import { trialStateFromParams, withTrialState } from './trial-url';

describe('trials table state in the URL', () => {
  it('round-trips filters, sort and page, keeping the page’s own parameters', () => {
    const state = {
      sorting: [{ id: 'scenario', desc: true }],
      filters: [
        { id: 'status', value: 'fail' },
        { id: 'condition', value: 'treatment' },
      ],
      pagination: { pageIndex: 2, pageSize: 100 },
    };
    const url = withTrialState(new URLSearchParams('cluster=scenario&trials.locale=de'), state);
    expect(url.get('cluster')).toBe('scenario');
    expect(url.get('trials.locale')).toBeNull();
    expect(url.toString()).toBe('cluster=scenario&trials.status=fail&trials.condition=treatment&trials.sort=scenario&trials.dir=desc&trials.page=3&trials.size=100');
    const back = trialStateFromParams(url);
    expect(back.sorting).toEqual(state.sorting);
    expect([...back.filters].sort((a, b) => a.id.localeCompare(b.id))).toEqual([...state.filters].sort((a, b) => a.id.localeCompare(b.id)));
    expect(back.pagination).toEqual(state.pagination);
  });

  it('drops unknown or malformed values and leaves defaults out of the URL', () => {
    const s = trialStateFromParams(new URLSearchParams('trials.sort=password&trials.page=-4&trials.size=7&trials.bogus=1&trials.study='));
    expect(s).toEqual({ sorting: [], filters: [], pagination: { pageIndex: 0, pageSize: 50 } });
    expect(withTrialState(new URLSearchParams(), s).toString()).toBe('');
  });
});
