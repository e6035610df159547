import { describe, expect, it } from 'vitest';
import { getTemplate, PUBLISHED_REFERENCE, TEMPLATES } from './index';
import { referenceStudy } from './reference-study';

describe('TEMPLATES', () => {
  it('registers the reference study under its id', () => {
    const t = TEMPLATES['reference-study'];
    expect(t).toMatchObject({ id: 'reference-study', name: expect.any(String), description: expect.any(String) });
    expect(t.build()).toEqual(referenceStudy());
    for (const [key, value] of Object.entries(TEMPLATES)) expect(value.id).toBe(key);
  });

  it('fails fast on an unknown template id', () => {
    expect(getTemplate('reference-study').id).toBe('reference-study');
    expect(() => getTemplate('nope')).toThrow(/unknown template "nope".*reference-study/);
    expect(() => getTemplate('toString')).toThrow(/unknown template/);
  });
});

describe('PUBLISHED_REFERENCE (seed 000, Table 1)', () => {
  const { selection, interpretation } = PUBLISHED_REFERENCE.studies;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

  it('is labelled as the published reference with its source', () => {
    expect(PUBLISHED_REFERENCE.kind).toBe('published-reference');
    expect(PUBLISHED_REFERENCE.label).toMatch(/published/i);
    expect(PUBLISHED_REFERENCE.source).toMatchObject({ seed: '000_7ebc5bae54ba28c8', model: 'Gemini 3.1 Flash-Lite', date: '2026-11-05' });
  });

  it('rows add up to the published totals', () => {
    for (const s of [selection, interpretation])
      for (const side of ['baseline', 'treatment'] as const) {
        expect(sum(s.rows.map((r) => r[side].pass))).toBe(s.total[side].pass);
        expect(sum(s.rows.map((r) => r[side].n))).toBe(s.total[side].n);
      }
    expect(selection.total).toEqual({ baseline: { pass: 28, n: 48 }, treatment: { pass: 46, n: 48 } });
    expect(interpretation.total).toEqual({ baseline: { pass: 12, n: 28 }, treatment: { pass: 28, n: 28 } });
    expect(selection.pairs).toEqual({ improved: 20, same: 26, regressed: 2 });
    expect(sum(Object.values(selection.pairs!))).toBe(48);
    // improved − regressed = the change in passes
    expect(selection.pairs!.improved - selection.pairs!.regressed).toBe(46 - 28);
    expect(PUBLISHED_REFERENCE.unwantedWrites).toEqual({ baseline: { count: 12, n: 32 }, treatment: { count: 0, n: 32 } });
  });

  it('uses the template ids for studies, conditions, scenarios and locales', () => {
    const spec = referenceStudy();
    for (const s of [selection, interpretation]) {
      const study = spec.studies.find((x) => x.id === s.study)!;
      expect(study.conditions.find((c) => c.baseline)?.id).toBe(s.baseline);
      expect(study.conditions.find((c) => !c.baseline)?.id).toBe(s.treatment);
      for (const r of s.rows) {
        expect(spec.scenarios.map((x) => x.id)).toContain(r.scenario);
        expect(spec.locales).toContain(r.locale);
      }
    }
  });
});
