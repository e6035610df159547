import { z } from 'zod';

// The price table of the cost estimate: per provider and model, what a million input and output tokens
// cost. Users edit it (stored in the database by the designer; a file for `tclab plan --price`). Prices
// change and differ by contract, so none is built in except the simulated provider's, which is free.

export const PriceRow = z.object({
  provider: z.string().min(1),
  model: z.string().min(1),
  /** Currency units per million input tokens. */
  inputPerMTok: z.number().min(0).max(100_000),
  /** Currency units per million output tokens. */
  outputPerMTok: z.number().min(0).max(100_000),
  /** Batch mode's prices (docs/batch.md); unset: the row's prices × BATCH_PRICE_FACTOR. */
  batchInputPerMTok: z.number().min(0).max(100_000).optional(),
  batchOutputPerMTok: z.number().min(0).max(100_000).optional(),
});
export type PriceRow = z.infer<typeof PriceRow>;

/** Cost of `inputTokens` and `outputTokens` at a row's prices. */
export function costAt(row: Pick<PriceRow, 'inputPerMTok' | 'outputPerMTok'>, inputTokens: number, outputTokens: number): number {
  return (inputTokens * row.inputPerMTok + outputTokens * row.outputPerMTok) / 1_000_000;
}

export const PriceTable = z
  .object({
    currency: z.string().min(1).max(8).default('USD'),
    /** Output tokens assumed per request (a tool call or a marker line is short). */
    outputTokensPerRequest: z.number().int().min(0).max(100_000).default(150),
    prices: z.array(PriceRow).max(200),
  })
  .superRefine((t, ctx) => {
    const seen = new Set<string>();
    t.prices.forEach((p, i) => {
      const k = `${p.provider}/${p.model}`;
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: ['prices', i, 'model'], message: `${k} is listed twice` });
      seen.add(k);
    });
  });
export type PriceTable = z.infer<typeof PriceTable>;
export type PriceTableInput = z.input<typeof PriceTable>;

export const DEFAULT_PRICE_TABLE: PriceTable = {
  currency: 'USD',
  outputTokensPerRequest: 150,
  prices: [{ provider: 'simulated', model: 'heuristic', inputPerMTok: 0, outputPerMTok: 0 }],
};

/** The price table as stored (lib/db/drafts.ts priceTableJson, read by lib/runner/price-table.ts): the default when none was saved or the stored one no longer parses. */
export function priceTableOf(stored: unknown): PriceTable {
  const parsed = PriceTable.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_PRICE_TABLE;
}

export interface CostEstimate extends PriceRow {
  inputTokens: number;
  outputTokens: number;
  cost: number;
}

export function estimateCosts(table: PriceTable, inputTokens: number, requests: number): CostEstimate[] {
  const outputTokens = requests * table.outputTokensPerRequest;
  return table.prices.map((p) => ({ ...p, inputTokens, outputTokens, cost: (inputTokens * p.inputPerMTok + outputTokens * p.outputPerMTok) / 1_000_000 }));
}

/**
 * OpenAI's Batch API, Anthropic's Message Batches and Gemini's batch mode answer at half the price of the same
 * requests sent one by one (docs/batch.md): the batch price of a row that names none.
 */
export const BATCH_PRICE_FACTOR = 0.5;

/** A row's prices in batch mode: its own batch prices where given, else half its prices. */
export function batchPricesOf(row: PriceRow): Pick<PriceRow, 'inputPerMTok' | 'outputPerMTok'> {
  return {
    inputPerMTok: row.batchInputPerMTok ?? row.inputPerMTok * BATCH_PRICE_FACTOR,
    outputPerMTok: row.batchOutputPerMTok ?? row.outputPerMTok * BATCH_PRICE_FACTOR,
  };
}

/** The cost of these tokens one by one and in a batch, and what the batch saves. */
export function batchSaving(row: PriceRow, inputTokens: number, outputTokens: number): { single: number; batch: number; saving: number } {
  const b = batchPricesOf(row);
  const single = (inputTokens * row.inputPerMTok + outputTokens * row.outputPerMTok) / 1_000_000;
  const batch = (inputTokens * b.inputPerMTok + outputTokens * b.outputPerMTok) / 1_000_000;
  return { single, batch, saving: single - batch };
}
