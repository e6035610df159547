import { describe, expect, it } from 'vitest';
import { rewriteSpend } from './rewriter';

describe("the rewriter's spend", () => {
  const table = { currency: 'EUR', outputTokensPerRequest: 150, prices: [{ provider: 'openai', model: 'gpt-x', inputPerMTok: 2, outputPerMTok: 8 }] };
  it('is one request, its tokens as reported, priced where the table knows the model', () => {
    expect(rewriteSpend(table, 'openai', 'gpt-x', { inputTokens: 12_000, outputTokens: 500 })).toEqual({
      requests: 1,
      inputTokens: 12_000,
      outputTokens: 500,
      cost: (12_000 * 2 + 500 * 8) / 1_000_000,
      currency: 'EUR',
    });
  });
  it('is not priced for a model the table lacks, or without reported usage', () => {
    expect(rewriteSpend(table, 'openai', 'gpt-y', { inputTokens: 10, outputTokens: 1 }).cost).toBeNull();
    expect(rewriteSpend(table, 'openai', 'gpt-x', null)).toEqual({ requests: 1, inputTokens: null, outputTokens: null, cost: null, currency: 'EUR' });
    expect(rewriteSpend(table, 'openai', 'gpt-x', { inputTokens: 10, outputTokens: null }).cost).toBeNull();
  });
});
