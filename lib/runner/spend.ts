import { env } from '../env';
import type { ExperimentSpec } from '../schema/experiment';
import { SpecError } from '../schema/common';
import { matrixSize } from '../schema/bounds';
import { RunBudget, type RunBudgetInput, type RunTarget, type StoredRunBudget } from '../schema/run';
import { getDescriptor } from '../providers/registry';
import { batchPricesOf, costAt, type PriceRow, type PriceTable } from '../design/cost';

// Spend guards (docs/spend-guards.md): before a run is created, what it would send to paid
// models is counted; past a threshold it needs a confirmation that names the number. Requests to the
// simulated provider cost nothing and are not counted.

/** How a caller confirms a large run: `yes` (CLI --yes), or a ceiling at or above its paid requests (the number typed). */
export interface SpendConfirmation {
  yes?: boolean;
  maxRequests?: number | null;
}

export interface SpendEstimate {
  /** Formal requests to non-simulated models, every target together. */
  paidRequests: number;
  /** Estimated cost of the targets the price table prices (null: none is priced). */
  cost: number | null;
  currency: string;
}

/** The price table's row for a provider and model, if it has one. */
export function priceOf(table: PriceTable, provider: string, model: string): PriceRow | null {
  return table.prices.find((p) => p.provider === provider && p.model === model) ?? null;
}

/**
 * What the targets' runs would send to paid models, and their estimated cost where the price table knows the
 * model. The tokenizer is loaded only then (a worker, which imports this module, never needs it).
 */
export async function estimateSpend(spec: ExperimentSpec, targets: readonly RunTarget[], prices: PriceTable): Promise<SpendEstimate> {
  const formal = matrixSize(spec).formal;
  let paidRequests = 0;
  let cost: number | null = null;
  let inputTokens: number | undefined;
  for (const t of targets) {
    if (getDescriptor(t.provider).simulated) continue;
    paidRequests += formal;
    const listed = priceOf(prices, t.provider, t.model);
    if (!listed) continue;
    // a batch-mode run is charged the batch prices (docs/batch.md › Prices)
    const row = (t as { batch?: boolean }).batch ? { ...listed, ...batchPricesOf(listed) } : listed;
    const { formalInputTokens } = await import('../design/run-cost');
    inputTokens ??= formalInputTokens(spec);
    cost = (cost ?? 0) + costAt(row, inputTokens, formal * prices.outputTokensPerRequest);
  }
  return { paidRequests, cost, currency: prices.currency };
}

/** A run refused for want of a confirmation: `requests` is the number to confirm. */
export class SpendConfirmationRequired extends SpecError {
  constructor(
    /** What the run would send and which threshold it passes, without what to do (each door says that). */
    readonly summary: string,
    readonly requests: number,
    readonly cost: number | null,
  ) {
    const message = `${summary}; confirm ${requests} to start it`;
    super(message, [{ path: 'confirmRequests', message }]);
    this.name = 'SpendConfirmationRequired';
  }
}

const fmt = (n: number) => n.toLocaleString('en');

/** Throws SpendConfirmationRequired when the estimate passes a threshold and the confirmation does not cover it. */
export function checkSpendConfirmation(
  est: SpendEstimate,
  confirmation: SpendConfirmation = {},
  limits = { requests: env().TCLAB_CONFIRM_REQUESTS, cost: env().TCLAB_CONFIRM_COST },
  /** What sends them, as the message names it (an optimisation names its whole loop and its parts). */
  what = 'this run',
): void {
  const overRequests = est.paidRequests > limits.requests;
  const overCost = est.cost !== null && est.cost > limits.cost;
  if (!overRequests && !overCost) return;
  if (confirmation.yes) return;
  const given = confirmation.maxRequests;
  if (given !== undefined && given !== null && Number.isFinite(given) && given >= est.paidRequests) return;
  const why = [
    overRequests ? `more than TCLAB_CONFIRM_REQUESTS = ${fmt(limits.requests)}` : null,
    overCost ? `estimated ${est.cost!.toFixed(2)} ${est.currency}, more than TCLAB_CONFIRM_COST = ${fmt(limits.cost)}` : null,
  ].filter(Boolean);
  const short = given !== undefined && given !== null ? ` (${fmt(given)} was confirmed)` : '';
  throw new SpendConfirmationRequired(`${what} sends ${fmt(est.paidRequests)} paid requests (${why.join('; ')})${short}`, est.paidRequests, est.cost);
}

/**
 * The budget to store on a run: validated (errors name `budget.<field>`); a cost limit takes the price
 * table's row for the run's model — its batch prices for a batch-mode run — and is refused when there is none.
 */
export function storedBudget(
  input: RunBudgetInput | null | undefined,
  provider: string,
  model: string,
  prices: PriceTable,
  opts: { batch?: boolean } = {},
): StoredRunBudget | null {
  if (!input) return null;
  const r = RunBudget.safeParse(input);
  if (!r.success)
    throw new SpecError(
      `budget: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      r.error.issues.map((i) => ({ path: `budget.${i.path.join('.')}`, message: i.message })),
    );
  const b = r.data;
  if (b.requests === null && b.tokens === null && b.cost === null) return null;
  if (b.cost === null) return { ...b, currency: null, inputPerMTok: null, outputPerMTok: null };
  const row = priceOf(prices, provider, model);
  if (!row) {
    const message = `no price for ${provider}/${model} in the price table (set one in the designer's preview, or give a request or token budget)`;
    throw new SpecError(`budget.cost: ${message}`, [{ path: 'budget.cost', message }]);
  }
  const counted = opts.batch ? batchPricesOf(row) : row;
  return { ...b, currency: prices.currency, inputPerMTok: counted.inputPerMTok, outputPerMTok: counted.outputPerMTok };
}
