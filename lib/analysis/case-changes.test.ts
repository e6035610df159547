import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from '../design/experiment-spec';
import { tinyExperiment } from '../testing/tiny-experiment';
import { comparableCases } from './case-changes';

// Which cases of two versions pair (docs/compare.md): only those whose task, card, input, scenario and study are unchanged.

const labels = { from: 'v1', to: 'v2' };
function twoCases(): ExperimentSpec {
  const raw = tinyExperiment('cases');
  const study = raw.studies[0] as { cases: Record<string, unknown>[] };
  study.cases.push({ ...structuredClone(study.cases[0]), id: 'read-2', task: 'Show invoice INV-8.' });
  return ExperimentSpec.parse(raw);
}

describe('comparableCases', () => {
  it('pairs every case of one spec and a spec whose definitions alone changed', () => {
    const a = twoCases();
    const b = structuredClone(a);
    b.studies[0].conditions[1].tools.invoice.en[0].description = 'Another description.';
    expect(comparableCases(a, b, labels)).toEqual({
      unchanged: [
        { study: 'selection', caseId: 'read-1' },
        { study: 'selection', caseId: 'read-2' },
      ],
      excluded: [],
    });
  });

  it('lists a changed task, a changed card, a changed scenario tool list and cases in one version only, with the reason', () => {
    const a = twoCases();
    const b = structuredClone(a);
    b.studies[0].cases[0].task = 'Show invoice INV-70.';
    b.studies[0].cases[0].checks[0].expected.call_count = 2;
    b.studies[0].cases[1].id = 'read-3';
    const place = { study: 'selection', scenario: 'invoice', locale: 'en' };
    expect(comparableCases(a, b, labels).excluded).toEqual([
      { ...place, caseId: 'read-1', reason: 'task text changed, card changed' },
      { ...place, caseId: 'read-2', reason: 'only in v1' },
      { ...place, caseId: 'read-3', reason: 'only in v2' },
    ]);
    const c = structuredClone(a);
    c.scenarios[0].tools[1].effect = 'read';
    c.studies[0].orderPolicy = 'reverse-swap';
    expect(comparableCases(a, c, labels).excluded.map((x) => x.reason)).toEqual([
      'candidate orders changed, scenario tools changed',
      'candidate orders changed, scenario tools changed',
    ]);
    expect(comparableCases(a, c, labels).unchanged).toEqual([]);
  });
});
