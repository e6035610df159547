import { SpecError } from '../schema/common';
import { DEFAULT_PRICE_TABLE, PriceTable, type PriceTableInput } from '../design/cost';
import { priceTableJson, storePriceTable } from '../db/drafts';

// The stored price table: what the designer's preview and a run's spend estimate (./spend.ts) price requests with.

/** The price table the designer edits (the default when none was saved or the stored one no longer parses). */
export async function getPriceTable(): Promise<PriceTable> {
  const parsed = PriceTable.safeParse(await priceTableJson());
  return parsed.success ? parsed.data : DEFAULT_PRICE_TABLE;
}

export async function savePriceTable(input: PriceTableInput): Promise<PriceTable> {
  const r = PriceTable.safeParse(input);
  if (!r.success)
    throw new SpecError(
      'price table is invalid',
      r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
    );
  await storePriceTable(r.data);
  return r.data;
}
