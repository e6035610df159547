import { describe, expect, it } from 'vitest';
import { batchPricesOf, batchSaving, PriceTable } from './cost';

describe('batch prices', () => {
  it('half the row’s prices unless the row names its own', () => {
    const t = PriceTable.parse({
      prices: [
        { provider: 'openai', model: 'gpt-x', inputPerMTok: 2, outputPerMTok: 8 },
        { provider: 'anthropic', model: 'claude-x', inputPerMTok: 3, outputPerMTok: 15, batchInputPerMTok: 1.8, batchOutputPerMTok: 9 },
      ],
    });
    expect(batchPricesOf(t.prices[0])).toEqual({ inputPerMTok: 1, outputPerMTok: 4 });
    expect(batchPricesOf(t.prices[1])).toEqual({ inputPerMTok: 1.8, outputPerMTok: 9 });
    expect(batchSaving(t.prices[0], 1_000_000, 500_000)).toEqual({ single: 6, batch: 3, saving: 3 });
    expect(batchSaving(t.prices[1], 1_000_000, 0).saving).toBeCloseTo(1.2, 10);
  });

  it('a negative batch price is refused, naming the field', () => {
    const r = PriceTable.safeParse({ prices: [{ provider: 'openai', model: 'm', inputPerMTok: 1, outputPerMTok: 1, batchInputPerMTok: -1 }] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['prices', 0, 'batchInputPerMTok']);
  });
});
