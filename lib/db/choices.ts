import type { ChoiceRow } from '../schema/choices';
import { pool } from './client';
import { keysetPages } from './keyset';

// The stored trials as the choice views need them (lib/analysis/choices.ts): ids, place, the order sent, the
// status and the first tool call, marker and label of the observation — never a request or response body.

const SELECT = `SELECT t.id, t.trial_key, t.study, t.scenario, t.locale, t.case_id, t.condition, t.order_index, t.replicate, t."order", t.status,
       o.tool_calls->0->>'name' AS tool, o.marker, o.label, (o.trial_id IS NOT NULL) AS answered
  FROM trials t LEFT JOIN observations o ON o.trial_id = t.id`;

const toRow = (x: Record<string, unknown>): ChoiceRow => ({
  trialId: x.id as string,
  study: x.study as string,
  scenario: x.scenario as string,
  locale: x.locale as string,
  caseId: x.case_id as string,
  condition: x.condition as string,
  orderIndex: x.order_index as number,
  replicate: x.replicate as number,
  order: x.order as string[],
  status: x.status as string,
  tool: (x.tool as string | null) ?? null,
  marker: (x.marker as string | null) ?? null,
  label: (x.label as string | null) ?? null,
  answered: Boolean(x.answered),
});

/** Every trial of a run, in trial-key order, read in keyset pages. */
export async function* iterateChoiceRows(runId: string, pageSize = 2000): AsyncGenerator<ChoiceRow> {
  const sql = `${SELECT} WHERE t.run_id = $1 AND t.trial_key > $2 ORDER BY t.trial_key LIMIT $3`;
  const page = async (after: string) => (await pool().query<Record<string, unknown> & { trial_key: string }>(sql, [runId, after, pageSize])).rows;
  for await (const rows of keysetPages(page, pageSize, 1)) for (const x of rows) yield toRow(x);
}

/**
 * The trials of one study × scenario × locale (one section of the grid); `cases`: only these cases, of these
 * conditions (one page of a large section: read through the trials' unit index, whatever the run's size).
 */
export async function choiceRowsOf(
  runId: string,
  place: { study: string; scenario: string; locale: string },
  cases?: { caseIds: readonly string[]; conditions: readonly string[] },
): Promise<ChoiceRow[]> {
  const r = cases
    ? await pool().query<Record<string, unknown>>(
        `${SELECT} WHERE t.run_id = $1 AND t.study = $2 AND t.condition = ANY($5::text[]) AND t.scenario = $3 AND t.locale = $4 AND t.case_id = ANY($6::text[])
          ORDER BY t.trial_key`,
        [runId, place.study, place.scenario, place.locale, cases.conditions, cases.caseIds],
      )
    : await pool().query<Record<string, unknown>>(`${SELECT} WHERE t.run_id = $1 AND t.study = $2 AND t.scenario = $3 AND t.locale = $4 ORDER BY t.trial_key`, [
        runId,
        place.study,
        place.scenario,
        place.locale,
      ]);
  return r.rows.map(toRow);
}

/**
 * The run's trials grouped by everything the matrix and the positions read (replicates alike fall together):
 * a few rows per case, whatever the number of replicates.
 */
export async function groupedChoiceRows(runId: string): Promise<ChoiceRow[]> {
  const r = await pool().query<Record<string, unknown>>(
    `SELECT min(t.id) AS id, t.study, t.scenario, t.locale, t.case_id, t.condition, t.order_index, 1 AS replicate, t."order", t.status,
            o.tool_calls->0->>'name' AS tool, o.marker, o.label, (o.trial_id IS NOT NULL) AS answered, count(*)::int AS count
       FROM trials t LEFT JOIN observations o ON o.trial_id = t.id
      WHERE t.run_id = $1
      GROUP BY t.study, t.scenario, t.locale, t.case_id, t.condition, t.order_index, t."order", t.status, 11, o.marker, o.label, 14`,
    [runId],
  );
  return r.rows.map((x) => ({ ...toRow(x), count: x.count as number }));
}
