import { StoredRunBudget } from '../schema/run';
import { pool } from './client';

// A run's budget in the engine (docs/spend-guards.md). Each request of a budgeted run is reserved on the run
// row just before its sending mark: one compare-and-increment, serialised by the row lock, so the requests
// sent never pass the budget. Tokens are added to the run row as each answer arrives, before its slot is
// handed on (lib/runner/budget.ts), so a reservation made after the answer that crosses the tokens or cost
// limit is refused; the limits can still be passed by what the requests already in flight use.

const COST_SQL = `(budget_input_tokens * COALESCE((budget->>'inputPerMTok')::float8, 0)
                 + budget_output_tokens * COALESCE((budget->>'outputPerMTok')::float8, 0)) / 1000000`;

const RESERVE_SQL = `
  UPDATE runs SET budget_sent = budget_sent + 1
   WHERE id = $1
     AND (budget->>'requests' IS NULL OR budget_sent < (budget->>'requests')::int)
     AND (budget->>'tokens' IS NULL OR budget_input_tokens + budget_output_tokens < (budget->>'tokens')::bigint)
     AND (budget->>'cost' IS NULL OR ${COST_SQL} < (budget->>'cost')::float8)
  RETURNING budget_sent`;

/** What a budgeted run has spent. */
export interface BudgetSpent {
  budget: StoredRunBudget | null;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

export async function budgetSpent(runId: string): Promise<BudgetSpent | null> {
  const r = await pool().query<{ budget: unknown; sent: number; input: string; output: string; cost: number }>(
    `SELECT budget, budget_sent AS sent, budget_input_tokens::text AS input, budget_output_tokens::text AS output, ${COST_SQL} AS cost FROM runs WHERE id = $1`,
    [runId],
  );
  const x = r.rows[0];
  if (!x) return null;
  return {
    budget: x.budget === null ? null : StoredRunBudget.parse(x.budget),
    requests: x.sent,
    inputTokens: Number(x.input),
    outputTokens: Number(x.output),
    cost: Number(x.cost),
  };
}

const fmt = (n: number) => n.toLocaleString('en');

/** "budget reached: 5 requests" — the limit that stopped the run, in words (null: none is reached). */
export function budgetReachedReason(s: BudgetSpent): string | null {
  const b = s.budget;
  if (!b) return null;
  if (b.requests !== null && s.requests >= b.requests) return `budget reached: ${fmt(s.requests)} requests`;
  const tokens = s.inputTokens + s.outputTokens;
  if (b.tokens !== null && tokens >= b.tokens) return `budget reached: ${fmt(tokens)} tokens (budget ${fmt(b.tokens)}) after ${fmt(s.requests)} requests`;
  if (b.cost !== null && s.cost >= b.cost)
    return `budget reached: ${s.cost.toFixed(4)} ${b.currency ?? ''} estimated (budget ${b.cost}) after ${fmt(s.requests)} requests`.replace('  ', ' ');
  return null;
}

/**
 * Reserve one request of a budgeted run, just before its sending mark. `ok`: it may be sent; otherwise the
 * budget is reached and the reason says which limit.
 */
export async function reserveBudgetedRequest(runId: string): Promise<{ ok: true } | { ok: false; reason: string }> {
  const r = await pool().query(RESERVE_SQL, [runId]);
  if ((r.rowCount ?? 0) > 0) return { ok: true };
  const spent = await budgetSpent(runId);
  return { ok: false, reason: (spent && budgetReachedReason(spent)) ?? 'budget reached' };
}

/**
 * Add an answer's usage to a budgeted run's counters, as it arrives. Returns why the run must stop when the
 * answer reached its tokens or cost limit (null: within it). One statement; runs without a budget never call it.
 */
export async function countBudgetedUsage(runId: string, inputTokens: number, outputTokens: number): Promise<string | null> {
  const r = await pool().query<{ budget: unknown; sent: number; input: string; output: string; cost: number }>(
    `UPDATE runs SET budget_input_tokens = budget_input_tokens + $2, budget_output_tokens = budget_output_tokens + $3
      WHERE id = $1 AND budget IS NOT NULL
      RETURNING budget, budget_sent AS sent, budget_input_tokens::text AS input, budget_output_tokens::text AS output, ${COST_SQL} AS cost`,
    [runId, inputTokens, outputTokens],
  );
  const x = r.rows[0];
  if (!x || x.budget === null) return null;
  const spent = { budget: StoredRunBudget.parse(x.budget), requests: x.sent, inputTokens: Number(x.input), outputTokens: Number(x.output), cost: Number(x.cost) };
  // the request limit is kept by the reservations; an answer only ever crosses tokens or cost
  return budgetReachedReason({ ...spent, budget: { ...spent.budget, requests: null } });
}

/** Give a reservation back: its sending mark was refused (the claim was fenced out), so nothing was sent. */
export async function releaseBudgetedRequest(runId: string): Promise<void> {
  await pool().query(`UPDATE runs SET budget_sent = budget_sent - 1 WHERE id = $1 AND budget_sent > 0`, [runId]);
}
