// Table 1 of seed 000 as data (docs/design.md#the-reference-study): the PUBLISHED reference figures, to set beside a run — not
// results of this product. Scenario, locale, study and condition ids are those of the built-in template.
// The one copy of these figures: `REFERENCE_STUDY_PUBLISHED` is the same data in lib/analysis's shape.
import type { PublishedReference } from '../../analysis/published';

export interface PublishedCount {
  pass: number;
  n: number;
}

export interface PublishedRow {
  scenario: string;
  locale: string;
  baseline: PublishedCount;
  treatment: PublishedCount;
}

export interface PublishedStudy {
  study: string;
  baseline: string;
  treatment: string;
  rows: PublishedRow[];
  total: { baseline: PublishedCount; treatment: PublishedCount };
  /** Paired outcomes vs. the baseline; null where the source gives none. */
  pairs: { improved: number; same: number; regressed: number } | null;
}

export interface PublishedReferenceData {
  kind: 'published-reference';
  label: string;
  source: { seed: string; table: string; model: string; date: string; formalRequests: number; prechecks: number };
  template: string;
  studies: { selection: PublishedStudy; interpretation: PublishedStudy };
  /** Write tool proposed where no write was expected (read, clarify and stop trials of the selection study). */
  unwantedWrites: { baseline: { count: number; n: number }; treatment: { count: number; n: number } };
}

const row = (scenario: string, locale: string, b: [number, number], t: [number, number]): PublishedRow => ({
  scenario,
  locale,
  baseline: { pass: b[0], n: b[1] },
  treatment: { pass: t[0], n: t[1] },
});

export const PUBLISHED_REFERENCE: PublishedReferenceData = {
  kind: 'published-reference',
  label: 'Published reference (seed 000, Table 1) — not a run of this product',
  source: {
    seed: '000_7ebc5bae54ba28c8',
    table: 'Table 1',
    model: 'Gemini 3.1 Flash-Lite',
    date: '2026-11-05',
    formalRequests: 152,
    prechecks: 2,
  },
  template: 'reference-study',
  studies: {
    selection: {
      study: 'selection',
      baseline: 'overlapping',
      treatment: 'clear',
      rows: [
        row('restaurant', 'zh-TW', [8, 12], [11, 12]),
        row('restaurant', 'en', [8, 12], [12, 12]),
        row('invoice', 'zh-TW', [6, 12], [11, 12]),
        row('invoice', 'en', [6, 12], [12, 12]),
      ],
      total: { baseline: { pass: 28, n: 48 }, treatment: { pass: 46, n: 48 } },
      pairs: { improved: 20, same: 26, regressed: 2 },
    },
    interpretation: {
      study: 'interpretation',
      baseline: 'no-code-meanings',
      treatment: 'code-meanings',
      rows: [
        row('restaurant', 'zh-TW', [3, 7], [7, 7]),
        row('restaurant', 'en', [3, 7], [7, 7]),
        row('invoice', 'zh-TW', [3, 7], [7, 7]),
        row('invoice', 'en', [3, 7], [7, 7]),
      ],
      total: { baseline: { pass: 12, n: 28 }, treatment: { pass: 28, n: 28 } },
      pairs: null,
    },
  },
  unwantedWrites: { baseline: { count: 12, n: 32 }, treatment: { count: 0, n: 32 } },
};

/** The same figures as lib/analysis compares them (study columns, unwanted writes as a category). */
export const REFERENCE_STUDY_PUBLISHED: PublishedReference = {
  source: `Seed 000, ${PUBLISHED_REFERENCE.source.table} — ${PUBLISHED_REFERENCE.source.model}, ${PUBLISHED_REFERENCE.source.date}, ${PUBLISHED_REFERENCE.source.formalRequests} formal requests`,
  studies: [PUBLISHED_REFERENCE.studies.selection, PUBLISHED_REFERENCE.studies.interpretation].map((s) => ({
    study: s.study,
    rows: s.rows,
    total: s.total,
    ...(s.pairs ? { pairs: s.pairs } : {}),
    ...(s.study === 'selection'
      ? { categories: { unwanted_write: { baseline: PUBLISHED_REFERENCE.unwantedWrites.baseline.count, treatment: PUBLISHED_REFERENCE.unwantedWrites.treatment.count } } }
      : {}),
  })),
};
