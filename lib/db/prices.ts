import { pool } from './client';

// The stored price table, as stored (one row, edited in the designer's preview; lib/design/cost.ts
// priceTableOf reads it). A file of its own: the spend guard reads it when a run is created, and must not load
// the designer's planner and its tokenizer (~70 MB) to do so (lib/db/drafts.ts imports them).

/** The stored price table's JSON, or undefined when none was saved. */
export async function storedPriceTable(): Promise<unknown> {
  const r = await pool().query<{ prices: unknown }>(`SELECT prices FROM price_tables WHERE id = 'default'`);
  return r.rows[0]?.prices;
}
