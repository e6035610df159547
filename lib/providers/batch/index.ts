import type { ProviderId } from '../../schema/run';
import { anthropicBatchVendor } from './anthropic';
import { geminiBatchVendor } from './gemini';
import { openaiBatchVendor } from './openai';
import type { BatchVendor } from './types';

export * from './types';

/** The providers with a batch API, and theirs; other providers run one request at a time. */
const VENDORS: Partial<Record<ProviderId, BatchVendor>> = {
  openai: openaiBatchVendor('max_completion_tokens'),
  anthropic: anthropicBatchVendor,
  gemini: geminiBatchVendor,
};

export function batchVendorOf(provider: ProviderId): BatchVendor | null {
  return VENDORS[provider] ?? null;
}
