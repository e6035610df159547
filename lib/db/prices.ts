import { DEFAULT_PRICE_TABLE, PriceTable } from '../design/cost';
import { pool } from './client';

/** The price table the designer edits (the default when none was saved or the stored one no longer parses). */
export async function getPriceTable(): Promise<PriceTable> {
  const r = await pool().query<{ prices: unknown }>(`SELECT prices FROM price_tables WHERE id = 'default'`);
  const parsed = PriceTable.safeParse(r.rows[0]?.prices);
  return parsed.success ? parsed.data : DEFAULT_PRICE_TABLE;
}
