import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from './experiment-spec';
import { getTemplate } from '../templates';
import { countMatrix } from './matrix';
import { proposeAblations, withAblations } from './ablations';
import { diffSpecs } from './spec-diff';

const reference = ExperimentSpec.parse(getTemplate('reference-study').build());

describe('single-field ablations', () => {
  it('proposes one condition per field group that differs, each baseline + that group of the treatment', () => {
    const study = reference.studies.find((s) => s.id === 'selection')!;
    const proposals = proposeAblations(study, 'clear');
    expect(proposals.map((p) => p.group)).toEqual(['names', 'descriptions', 'parameters']);
    const base = study.conditions.find((c) => c.baseline)!;
    const clear = study.conditions.find((c) => c.id === 'clear')!;
    const names = proposals[0].condition;
    for (const [scenario, byLocale] of Object.entries(base.tools))
      for (const [locale, defs] of Object.entries(byLocale))
        defs.forEach((d, i) => {
          const t = clear.tools[scenario][locale].find((x) => x.tool === d.tool)!;
          expect(names.tools[scenario][locale][i]).toEqual({ ...d, name: t.name });
        });
    expect(proposals[0].changes.every((c) => c.field === 'name')).toBe(true);
    // ordinary conditions, paired with the baseline: 48 more trials and pairs each
    const spec = ExperimentSpec.parse(withAblations(reference, 'selection', proposals));
    expect(countMatrix(spec).studies[0].conditions.map((c) => c.trials)).toEqual([48, 48, 48, 48, 48]);
  });

  it('proposes nothing for a group that does not differ', () => {
    const study = reference.studies.find((s) => s.id === 'interpretation')!;
    const groups = proposeAblations(study, 'code-meanings').map((p) => p.group);
    expect(groups).toContain('descriptions');
    const same = { ...study, conditions: [study.conditions[0], { ...study.conditions[0], id: 'copy', baseline: false }] };
    expect(proposeAblations(same, 'copy')).toEqual([]);
    expect(() => proposeAblations(study, 'no-code-meanings')).toThrow(/baseline/);
  });
});

describe('the version diff', () => {
  it('names exactly the path that changed, matching arrays by id', () => {
    const edited = structuredClone(reference);
    edited.studies[0].conditions[1].tools.invoice.en[0].description = 'Changed.';
    expect(diffSpecs(reference, edited)).toEqual([
      {
        path: 'studies[selection].conditions[clear].tools.invoice.en[0].description',
        kind: 'changed',
        before: reference.studies[0].conditions[1].tools.invoice.en[0].description,
        after: 'Changed.',
      },
    ]);
    const reordered = { ...reference, scenarios: [...reference.scenarios].reverse(), replicates: 2 };
    expect(diffSpecs(reference, reordered)).toEqual([{ path: 'replicates', kind: 'changed', before: 1, after: 2 }]);
    expect(diffSpecs(reference, { ...reference, prechecks: [] }).map((c) => c.kind)).toEqual(['removed', 'removed']);
  });
});
