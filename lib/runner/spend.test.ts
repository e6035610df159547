import { describe, expect, it } from 'vitest';
import { SpecError } from '../schema/common';
import { priceTableOf } from '../design/cost';
import { storedBudget } from './spend';

const prices = priceTableOf({
  currency: 'USD',
  prices: [
    { provider: 'openai', model: 'm-with-batch', inputPerMTok: 2, outputPerMTok: 8, batchInputPerMTok: 0.9, batchOutputPerMTok: 3.5 },
    { provider: 'openai', model: 'm-plain', inputPerMTok: 2, outputPerMTok: 8 },
  ],
});

describe('storedBudget', () => {
  it('counts a cost limit at the row’s prices one by one, and at its batch prices in batch mode', () => {
    expect(storedBudget({ cost: 5 }, 'openai', 'm-with-batch', prices)).toMatchObject({ cost: 5, currency: 'USD', inputPerMTok: 2, outputPerMTok: 8 });
    expect(storedBudget({ cost: 5 }, 'openai', 'm-with-batch', prices, { batch: true })).toMatchObject({ inputPerMTok: 0.9, outputPerMTok: 3.5 });
    // no batch prices in the row: half the prices one by one (docs/batch.md › Prices)
    expect(storedBudget({ cost: 5 }, 'openai', 'm-plain', prices, { batch: true })).toMatchObject({ inputPerMTok: 1, outputPerMTok: 4 });
  });

  it('needs no price without a cost limit, and refuses a cost limit without a price, naming budget.cost', () => {
    expect(storedBudget({ requests: 10 }, 'openai', 'unknown', prices, { batch: true })).toMatchObject({ requests: 10, inputPerMTok: null });
    expect(() => storedBudget({ cost: 1 }, 'openai', 'unknown', prices, { batch: true })).toThrow(SpecError);
    expect(() => storedBudget({ cost: 1 }, 'openai', 'unknown', prices)).toThrow(/budget\.cost/);
  });
});
