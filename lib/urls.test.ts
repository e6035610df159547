import { describe, expect, it } from 'vitest';
import { urls } from './urls';

// The one URL builder (docs/architecture.md): every id encoded once, the paths the app's routes answer.

describe('urls', () => {
  const odd = 'a/b c?#%';
  it('encodes every id as one path segment', () => {
    expect(urls.run(odd)).toBe('/runs/a%2Fb%20c%3F%23%25');
    expect(urls.trial('r 1', 't/2')).toBe('/runs/r%201/trials/t%2F2');
    expect(urls.trialPair('r', 'b/1', 't 2')).toBe('/runs/r/pairs/b%2F1/t%202');
    expect(urls.experiment(odd)).toBe('/experiments/a%2Fb%20c%3F%23%25');
    expect(urls.experimentVersions('e-v1')).toBe('/experiments/e-v1/versions');
    expect(urls.designer('my exp')).toBe('/designer/my%20exp');
    expect(urls.api.trialTcc('r/1', 't', 'card')).toBe('/api/runs/r%2F1/trials/t/tcc?part=card');
    expect(urls.api.runExport('r/1', 'trials.csv')).toBe('/api/runs/r%2F1/export/trials.csv');
    expect(urls.api.runProgress('r')).toBe('/api/runs/r/progress');
  });

  it('adds only the query parameters that are set, and the anchor', () => {
    expect(urls.experiment('e', { imported: 'new' })).toBe('/experiments/e?imported=new');
    expect(urls.experiment('e', { from: null })).toBe('/experiments/e');
    expect(urls.runReview('r', { show: null, page: '2' })).toBe('/runs/r/review?page=2');
    expect(urls.trialPair('r', 'b', 't', 'regressed')).toBe('/runs/r/pairs/b/t?show=regressed');
    expect(urls.run('r', { choices: 'study|scenario en' }, '#what-the-model-did')).toBe('/runs/r?choices=study%7Cscenario+en#what-the-model-did');
    expect(urls.comparePairs({ a: 'r1', b: 'r2', study: 's', condition: 'c', change: 'improved' })).toBe(
      '/runs/compare/pairs?a=r1&b=r2&study=s&condition=c&change=improved',
    );
  });

  it('lists compared runs in the order given, the first the reference', () => {
    expect(urls.compare(['r2', 'r 1'])).toBe('/runs/compare?ids=r2,r%201');
    expect(urls.compareWith({ ids: 'r1,r2', cluster: null, a: 'x' }, '#what-the-model-did')).toBe('/runs/compare?ids=r1%2Cr2&a=x#what-the-model-did');
  });
});
