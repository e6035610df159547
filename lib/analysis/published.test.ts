import { describe, expect, it } from 'vitest';
import type { StudySummary } from '../schema/table1';
import { compareWithPublished, PublishedReference } from './published';
import { REFERENCE_STUDY_PUBLISHED } from '../templates';

const pc = (pass: number, n: number) => ({ pass, n, unresolved: 0, untested: 0 });

const ours: StudySummary = {
  study: 'selection',
  kind: 'selection',
  baseline: 'overlapping',
  treatment: 'clear',
  rows: [
    { scenario: 'restaurant', locale: 'en', baseline: pc(8, 12), treatment: pc(12, 12) },
    { scenario: 'lab', locale: 'en', baseline: pc(1, 2), treatment: pc(2, 2) },
  ],
  total: { baseline: pc(9, 14), treatment: pc(14, 14) },
  pairs: { improved: 5, same: 9, regressed: 0, incomplete: 0 },
  mcnemarP: 0.0625,
  categories: { wrong_tool: { baseline: 3, treatment: 0 } },
};

describe('PublishedReference', () => {
  it('validates the built-in reference figures', () => {
    expect(PublishedReference.parse(REFERENCE_STUDY_PUBLISHED)).toEqual(REFERENCE_STUDY_PUBLISHED);
    const sel = REFERENCE_STUDY_PUBLISHED.studies[0];
    const sum = (side: 'baseline' | 'treatment') => sel.rows.reduce((a, r) => a + r[side].pass, 0);
    expect([sum('baseline'), sum('treatment')]).toEqual([sel.total.baseline.pass, sel.total.treatment.pass]);
  });
});

describe('compareWithPublished', () => {
  it('matches cells by study, scenario and locale and marks what only one side has', () => {
    const cmp = compareWithPublished({ studies: [ours] }, REFERENCE_STUDY_PUBLISHED);
    expect(cmp.source).toBe(REFERENCE_STUDY_PUBLISHED.source);
    expect(cmp.studies.map((s) => s.study)).toEqual(['selection', 'interpretation']);
    const sel = cmp.studies[0];
    expect(sel.rows.map((r) => `${r.scenario}/${r.locale}`)).toEqual(['restaurant/en', 'lab/en', 'restaurant/zh-TW', 'invoice/zh-TW', 'invoice/en']);
    expect(sel.rows[0].baseline).toEqual({ ours: pc(8, 12), published: { pass: 8, n: 12 }, equal: true });
    expect(sel.rows[1].treatment).toEqual({ ours: pc(2, 2), published: null, equal: null });
    expect(sel.rows[2].baseline).toEqual({ ours: null, published: { pass: 8, n: 12 }, equal: null });
    expect(sel.total.treatment.equal).toBe(false);
    expect(sel.pairs).toEqual({ ours: { improved: 5, same: 9, regressed: 0 }, published: { improved: 20, same: 26, regressed: 2 }, equal: false });
    expect(sel.categories).toEqual({
      wrong_tool: { baseline: { ours: 3, published: null }, treatment: { ours: 0, published: null } },
      unwanted_write: { baseline: { ours: 0, published: 12 }, treatment: { ours: 0, published: 0 } },
    });
    const int = cmp.studies[1];
    expect(int.rows.every((r) => r.baseline.ours === null && r.baseline.equal === null)).toBe(true);
    expect(int.pairs).toEqual({ ours: null, published: null, equal: null });
  });
});
