import { z } from 'zod';
import type { PassCount, StudySummary } from '../schema/table1';

const Count = z.number().int().min(0);
export const PublishedCount = z.object({ pass: Count, n: Count });
export type PublishedCount = z.infer<typeof PublishedCount>;

/** Published figures to set beside a run's Table 1 (e.g. Table 1 of the reference study). */
export const PublishedReference = z.object({
  /** Where the figures come from (paper, table, date). */
  source: z.string().min(1),
  studies: z.array(
    z.object({
      /** Matched with StudySummary.study; rows are matched on scenario and locale. */
      study: z.string().min(1),
      rows: z.array(z.object({ scenario: z.string(), locale: z.string(), baseline: PublishedCount, treatment: PublishedCount })),
      total: z.object({ baseline: PublishedCount, treatment: PublishedCount }),
      pairs: z.object({ improved: Count, same: Count, regressed: Count }).optional(),
      categories: z.record(z.string(), z.object({ baseline: Count, treatment: Count })).optional(),
    }),
  ),
});
export type PublishedReference = z.infer<typeof PublishedReference>;

/** One cell of the comparison; `equal` is null when either side is missing. */
export interface CellComparison {
  ours: PassCount | null;
  published: PublishedCount | null;
  equal: boolean | null;
}

export interface RowComparison {
  scenario: string;
  locale: string;
  baseline: CellComparison;
  treatment: CellComparison;
}

type Pairs = { improved: number; same: number; regressed: number };

export interface StudyComparison {
  study: string;
  rows: RowComparison[];
  total: { baseline: CellComparison; treatment: CellComparison };
  pairs: { ours: Pairs | null; published: Pairs | null; equal: boolean | null };
  /** category → side → counts; `published` is null where the reference gives no figure. */
  categories: Record<string, { baseline: { ours: number | null; published: number | null }; treatment: { ours: number | null; published: number | null } }>;
}

export interface PublishedComparison {
  source: string;
  studies: StudyComparison[];
}

/**
 * Our Table 1 beside published figures, cell by cell, for the UI. Studies and rows are matched by id
 * (study; scenario + locale); ours come first in our order, then anything only the reference has.
 * With several StudySummary entries for one study (summarizeComparisons), the first is compared.
 */
export function compareWithPublished(summary: { studies: readonly StudySummary[] }, published: PublishedReference): PublishedComparison {
  const oursById = new Map<string, StudySummary>();
  for (const s of summary.studies) if (!oursById.has(s.study)) oursById.set(s.study, s);
  const pubById = new Map(published.studies.map((s) => [s.study, s]));
  const ids = unique([...oursById.keys(), ...pubById.keys()]);
  return {
    source: published.source,
    studies: ids.map((id) => compareStudy(id, oursById.get(id) ?? null, pubById.get(id) ?? null)),
  };
}

function compareStudy(study: string, ours: StudySummary | null, pub: PublishedReference['studies'][number] | null): StudyComparison {
  const key = (r: { scenario: string; locale: string }) => `${r.scenario}\u0000${r.locale}`;
  const ourRows = new Map(ours?.rows.map((r) => [key(r), r]));
  const pubRows = new Map(pub?.rows.map((r) => [key(r), r]));
  const rows = unique([...ourRows.keys(), ...pubRows.keys()]).map((k) => {
    const o = ourRows.get(k);
    const p = pubRows.get(k);
    const at = (o ?? p)!;
    return {
      scenario: at.scenario,
      locale: at.locale,
      baseline: cell(o?.baseline, p?.baseline),
      treatment: cell(o?.treatment, p?.treatment),
    };
  });
  const ourPairs = ours ? { improved: ours.pairs.improved, same: ours.pairs.same, regressed: ours.pairs.regressed } : null;
  const pubPairs = pub?.pairs ?? null;
  const categories: StudyComparison['categories'] = {};
  for (const name of unique([...Object.keys(ours?.categories ?? {}), ...Object.keys(pub?.categories ?? {})])) {
    const o = ours ? (ours.categories[name] ?? { baseline: 0, treatment: 0 }) : null;
    const p = pub?.categories?.[name] ?? null;
    categories[name] = {
      baseline: { ours: o?.baseline ?? null, published: p?.baseline ?? null },
      treatment: { ours: o?.treatment ?? null, published: p?.treatment ?? null },
    };
  }
  return {
    study,
    rows,
    total: { baseline: cell(ours?.total.baseline, pub?.total.baseline), treatment: cell(ours?.total.treatment, pub?.total.treatment) },
    pairs: {
      ours: ourPairs,
      published: pubPairs,
      equal: ourPairs && pubPairs ? ourPairs.improved === pubPairs.improved && ourPairs.same === pubPairs.same && ourPairs.regressed === pubPairs.regressed : null,
    },
    categories,
  };
}

function cell(ours: PassCount | undefined, published: PublishedCount | undefined): CellComparison {
  return {
    ours: ours ?? null,
    published: published ?? null,
    equal: ours && published ? ours.pass === published.pass && ours.n === published.n : null,
  };
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
