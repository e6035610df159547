import { TRIAL_FILTER_KEYS, type TrialFilterKey, type TrialPage, type TrialPageQuery, type TrialRow } from '../schema/trial-page';
import { pool } from './client';
import { cachedResult } from './result-cache';
import { TRIAL_PLACE_COLUMNS, trialPlaceOf } from './results';

// One page of a run's trials, filtered, sorted and cut in PostgreSQL: a page of a 20k-trial run reads its
// page, not the run (the table refreshes while a run progresses). Ties break on the trial key, so pages
// never overlap or skip.

const FILTER_COLUMNS: Record<TrialFilterKey, string> = { study: 'study', condition: 'condition', status: 'status', scenario: 'scenario', locale: 'locale' };

/** Sort keys → columns of a page row. */
const SORT_COLUMNS: Record<NonNullable<TrialPageQuery['sort']>, string> = {
  study: 'study',
  scenario: 'scenario',
  locale: 'locale',
  caseId: 'case_id',
  condition: 'condition',
  order: 'order_index',
  replicate: 'replicate',
  status: 'status',
};

export async function trialPage(runId: string, q: TrialPageQuery): Promise<TrialPage> {
  const filters = TRIAL_FILTER_KEYS.map((k) => q[k] ?? null);
  // $2..$6: the filters, in TRIAL_FILTER_KEYS order; a null filter matches everything
  const matches = TRIAL_FILTER_KEYS.map((k, i) => `($${i + 2}::text IS NULL OR t.${FILTER_COLUMNS[k]} = $${i + 2})`).join(' AND ');
  const orderBy = `${q.sort ? `${SORT_COLUMNS[q.sort]} ${q.dir === 'desc' ? 'DESC' : 'ASC'}, ` : ''}trial_key`;
  const [rows, counts] = await Promise.all([
    pool().query<{
      id: string;
      study: string;
      scenario: string;
      locale: string;
      case_id: string;
      condition: string;
      order_index: number;
      replicate: number;
      status: string;
      categories: string[] | null;
    }>(
      `WITH page AS (
         SELECT ${TRIAL_PLACE_COLUMNS}, t.status, t.trial_key
           FROM trials t WHERE t.run_id = $1 AND ${matches} ORDER BY ${orderBy} LIMIT $7 OFFSET $8
       )
       SELECT page.*, (SELECT array_agg(DISTINCT v.category) FROM verdicts v WHERE v.trial_id = page.id AND v.category IS NOT NULL) AS categories
         FROM page ORDER BY ${orderBy}`,
      [runId, ...filters, q.size, q.page * q.size],
    ),
    // no filter: the count and the facets of a completed run are stored (they change no more)
    filters.every((f) => f === null)
      ? runCountsAndFacets(runId).then((c) => ({ total: c.total, matching: c.total, facets: c.facets }))
      : Promise.all([countsOf(runId, filters, matches), facetsOf(runId)]).then(([c, facets]) => ({ ...c, facets })),
  ]);
  const facetValues = Object.fromEntries(TRIAL_FILTER_KEYS.map((k) => [k, [] as string[]])) as Record<TrialFilterKey, string[]>;
  for (const f of counts.facets) facetValues[f.k].push(f.v);
  return {
    total: counts.total,
    matching: counts.matching,
    page: q.page,
    size: q.size,
    rows: rows.rows.map((x): TrialRow => {
      const { orderIndex, ...place } = trialPlaceOf(x);
      return { ...place, order: orderIndex, status: x.status, categories: x.categories ?? [] };
    }),
    facets: facetValues,
  };
}

type Facet = { k: TrialFilterKey; v: string };

async function countsOf(runId: string, filters: (string | null)[], matches: string): Promise<{ total: number; matching: number }> {
  const r = await pool().query<{ total: number; matching: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE ${matches})::int AS matching FROM trials t WHERE t.run_id = $1`,
    [runId, ...filters],
  );
  return r.rows[0];
}

async function facetsOf(runId: string): Promise<Facet[]> {
  const r = await pool().query<Facet>(
    `SELECT k, v FROM (
       SELECT CASE WHEN GROUPING(study) = 0 THEN 'study' WHEN GROUPING(condition) = 0 THEN 'condition' WHEN GROUPING(status) = 0 THEN 'status'
                   WHEN GROUPING(scenario) = 0 THEN 'scenario' ELSE 'locale' END AS k,
              COALESCE(study, condition, status, scenario, locale) AS v
         FROM trials WHERE run_id = $1 GROUP BY GROUPING SETS ((study), (condition), (status), (scenario), (locale))
     ) f ORDER BY k, v COLLATE "C"`,
    [runId],
  );
  return r.rows;
}

/** The run's trial count and facet values, stored once the run is completed (lib/db/result-cache.ts). */
async function runCountsAndFacets(runId: string): Promise<{ total: number; facets: Facet[] }> {
  return cachedResult(
    [runId],
    'trial-facets',
    async () => {
      const [c, facets] = await Promise.all([pool().query<{ total: number }>(`SELECT count(*)::int AS total FROM trials WHERE run_id = $1`, [runId]), facetsOf(runId)]);
      return { total: c.rows[0].total, facets };
    },
    { encode: (x) => x, decode: (x) => x as { total: number; facets: Facet[] } },
    { onlyCompleted: true },
  );
}
