import type { TrialUsage } from '../schema/outcomes';
import { pool } from './client';
import { cachedResult } from './result-cache';

// One row per trial with what it spent (docs/statistics.md): the tokens every attempt reported (stored from the
// provider's usage), tool calls and model answers. Cached prompt tokens are read from the stored raw answer,
// where each provider reports them in its own field (OpenAI `usage.prompt_tokens_details.cached_tokens`,
// Anthropic `usage.cache_read_input_tokens`, Gemini `usageMetadata.cachedContentTokenCount`); null where
// none did. lib/analysis/outcomes.ts turns the rows into the noise floor, cost, power and unpassable cases.

// PostgreSQL's json operators decode the body's escapes and refuse \u0000 and lone surrogates: a body holding
// one (kept as received, docs/faults.md) is not read for cached tokens
const CACHED_SQL = `CASE WHEN a.response::text !~ '\\\\u(0000|[dD][89abcdefABCDEF])' THEN COALESCE((a.response->'usage'->'prompt_tokens_details'->>'cached_tokens')::bigint,
  (a.response->'usage'->>'cache_read_input_tokens')::bigint, (a.response->'usageMetadata'->>'cachedContentTokenCount')::bigint) END`;

const num = (x: unknown) => (x === null || x === undefined ? null : Number(x));

export async function trialUsage(runId: string): Promise<TrialUsage[]> {
  const r = await pool().query(
    `WITH a AS (
       SELECT a.trial_id, sum(a.input_tokens) AS input_tokens, sum(a.output_tokens) AS output_tokens, sum(${CACHED_SQL}) AS cached_tokens
         FROM attempts a WHERE a.run_id = $1 AND a.trial_id IS NOT NULL GROUP BY a.trial_id
     ), u AS (
       SELECT u.trial_id, count(*) AS turns, sum(json_array_length(u.calls::json)) AS calls
         FROM turns u WHERE u.run_id = $1 GROUP BY u.trial_id
     )
     SELECT t.study, t.scenario, t.locale, t.case_id, t.condition, t.order_index, t.replicate, t.pair_key, t.status,
            a.input_tokens, a.output_tokens, a.cached_tokens,
            COALESCE(u.turns, CASE WHEN o.trial_id IS NOT NULL THEN 1 ELSE 0 END) AS turns,
            COALESCE(u.calls, json_array_length(o.tool_calls::json), 0) AS tool_calls
       FROM trials t
       LEFT JOIN a ON a.trial_id = t.id
       LEFT JOIN u ON u.trial_id = t.id
       LEFT JOIN observations o ON o.trial_id = t.id
      WHERE t.run_id = $1
      ORDER BY t.trial_key`,
    [runId],
  );
  return r.rows.map((x) => ({
    study: x.study,
    scenario: x.scenario,
    locale: x.locale,
    caseId: x.case_id,
    condition: x.condition,
    orderIndex: x.order_index,
    replicate: x.replicate,
    pairKey: x.pair_key,
    status: x.status,
    inputTokens: num(x.input_tokens),
    outputTokens: num(x.output_tokens),
    cachedTokens: num(x.cached_tokens),
    turns: Number(x.turns),
    toolCalls: Number(x.tool_calls),
  }));
}

const FIELDS = [
  'study',
  'scenario',
  'locale',
  'caseId',
  'condition',
  'orderIndex',
  'replicate',
  'pairKey',
  'status',
  'inputTokens',
  'outputTokens',
  'cachedTokens',
  'toolCalls',
  'turns',
] as const satisfies readonly (keyof TrialUsage)[];

/** trialUsage, stored per results version (lib/db/result-cache.ts) like the Table 1 cells. */
export async function storedTrialUsage(runId: string): Promise<TrialUsage[]> {
  // stored as tuples (a finished run only: in progress it is recounted per page, as it would be stale at the next poll)
  return cachedResult(
    [runId],
    'usage|1',
    () => trialUsage(runId),
    {
      encode: (rows) => rows.map((t) => FIELDS.map((f) => t[f])),
      decode: (stored) => (stored as unknown[][]).map((x) => Object.fromEntries(FIELDS.map((f, i) => [f, x[i]])) as unknown as TrialUsage),
    },
    { onlyCompleted: true },
  );
}
