import { describe, expect, it } from 'vitest';
import { ExperimentSpec } from '../design/experiment-spec';
import { tinyExperiment } from '../testing/tiny-experiment';
import { KINDS, STUDY_KINDS, kindModule } from './registry';
import { KIND_SPECS } from './specs';
import { kindHasCaseField } from '../schema/kind-fields';

describe('study kinds registry', () => {
  it('has one module and one spec part per kind, each naming its own kind', () => {
    expect(Object.keys(KINDS).sort()).toEqual([...STUDY_KINDS].sort());
    expect(Object.keys(KIND_SPECS).sort()).toEqual([...STUDY_KINDS].sort());
    for (const k of STUDY_KINDS) {
      expect(KINDS[k].spec.kind).toBe(k);
      expect(KINDS[k].spec).toBe(KIND_SPECS[k]);
    }
  });

  it("tells the designer a kind's own case fields: the fixed call is interpretation's, nothing of an unknown kind", () => {
    expect(STUDY_KINDS.filter((k) => kindHasCaseField(k, 'fixedCall'))).toEqual(['interpretation']);
    expect(STUDY_KINDS.filter((k) => kindHasCaseField(k, 'principal'))).toEqual(['task']);
    expect(kindHasCaseField('no-such-kind', 'fixedCall')).toBe(false);
    expect(kindHasCaseField('selection', 'toString')).toBe(false);
  });

  it('fails fast on a kind no module defines', () => {
    expect(() => kindModule('toString')).toThrow('unknown study kind "toString"');
    expect(() => kindModule('nope')).toThrow('unknown study kind "nope"');
  });

  it('an experiment naming an unknown kind is rejected at the kind field', () => {
    const spec = structuredClone(tinyExperiment('kinds')) as { studies: { kind: string }[] };
    spec.studies[0].kind = 'nope';
    const r = ExperimentSpec.safeParse(spec);
    expect(r.success).toBe(false);
    expect(r.error?.issues.some((i) => i.path.join('.') === 'studies.0.kind')).toBe(true);
  });
});
