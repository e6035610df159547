import { RunBudget, type RunBudgetInput } from '../schema/run';
import { OptimiseInputError } from './errors';

// A budget over the whole improve loop (docs/spend-guards.md "The improve loop"): what the rewriter's request
// used is taken off first, the select run is given what is left, and the confirmation's runs share what the
// select run left, in equal parts per target. Each run's own budget then stops it at its part, so the loop
// never passes the whole (but for what requests already in flight use, as any run's budget).

/** What a request or a run used, in the budget's three measures. */
export interface Used {
  requests: number;
  tokens: number;
  cost: number;
}

/** The loop's budget as given (null: none), checked; an error names `budget`. */
export function loopBudgetOf(input: RunBudgetInput | null | undefined): RunBudget | null {
  if (!input) return null;
  const r = RunBudget.safeParse(input);
  if (!r.success) throw new OptimiseInputError('budget', r.error.issues.map((i) => `${i.path.join('.') || 'budget'}: ${i.message}`).join('; '));
  const b = r.data;
  return b.requests === null && b.tokens === null && b.cost === null ? null : b;
}

const fmt = (n: number) => n.toLocaleString('en');

/**
 * What is left of `budget` after `used`, shared in `parts` equal parts (whole requests and tokens, rounded
 * down); or why nothing is left for them (`what` names who used it and `next` what it was to pay for).
 */
export function budgetLeft(budget: RunBudget, used: Used, parts: number, what: string, next: string): { left: RunBudget } | { exhausted: string } {
  const requests = budget.requests === null ? null : Math.floor((budget.requests - used.requests) / parts);
  const tokens = budget.tokens === null ? null : Math.floor((budget.tokens - used.tokens) / parts);
  const cost = budget.cost === null ? null : (budget.cost - used.cost) / parts;
  const short = [
    requests !== null && requests < 1 ? `${fmt(used.requests)} of ${fmt(budget.requests!)} requests` : null,
    tokens !== null && tokens < 1 ? `${fmt(used.tokens)} of ${fmt(budget.tokens!)} tokens` : null,
    cost !== null && !(cost > 0) ? `${used.cost.toPrecision(3)} of ${budget.cost} in cost` : null,
  ].filter(Boolean);
  if (short.length > 0) return { exhausted: `budget reached: ${what} used ${short.join(', ')}; nothing is left for ${next}` };
  return { left: { requests, tokens, cost } };
}
