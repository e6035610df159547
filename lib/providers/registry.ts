import { ProviderId } from '../schema/run';
import { anthropicProvider } from './anthropic';
import { allowedBaseUrls, availabilityOf, destinationOf } from './configured';
import { DESCRIPTORS } from './vendor-descriptors';
import { geminiProvider } from './gemini';
import { openaiProvider } from './openai';
import { openaiCompatibleProvider } from './openai-compatible';
import { simulatedProvider } from './simulated';
import { batchVendorOf } from './batch';
import type { Provider, ProviderDescriptor, ProviderModel } from './types';

// The one place that maps a provider id to its adapter: one line per provider. Everything else about a
// provider (its key variables, base URL, secrets, error shape, wire) is in its descriptor, in its own
// file. Unknown ids fail fast (promptfoo's habit): a typo must never silently route a run elsewhere.

const PROVIDERS: Readonly<Record<ProviderId, Provider>> = {
  simulated: simulatedProvider,
  openai: openaiProvider,
  gemini: geminiProvider,
  'openai-compatible': openaiCompatibleProvider,
  anthropic: anthropicProvider,
};

export const PROVIDER_IDS: readonly ProviderId[] = ProviderId.options;

/** Every provider's descriptor, in PROVIDER_IDS order. */
export { DESCRIPTORS };

export function isProviderId(id: string): id is ProviderId {
  return Object.prototype.hasOwnProperty.call(PROVIDERS, id);
}

export function getProvider(id: string): Provider {
  if (!isProviderId(id)) {
    throw new Error(`unknown provider "${id}": known providers are ${PROVIDER_IDS.join(', ')}`);
  }
  return PROVIDERS[id];
}

export function getDescriptor(id: string): ProviderDescriptor {
  return getProvider(id).descriptor;
}

export interface ProviderAvailability {
  id: ProviderId;
  label: string;
  simulated: boolean;
  defaultModel: string;
  models: readonly ProviderModel[];
  available: boolean;
  /** Why it is not available (what to set). */
  reason?: string;
  /** Where its requests go without a base URL of the run's own ("https://…/v1 (OPENAI_BASE_URL)"), or null. */
  destination: string | null;
  /** Other base URLs a run may name (TCLAB_ALLOWED_BASE_URLS); none for the simulator. */
  allowedBaseUrls: string[];
  /** It has a batch API: a run may set `batch` (docs/batch.md). */
  batch: boolean;
}

/** Which providers can be used now, from each descriptor and lib/env; the simulator always can. */
export function availableProviders(): ProviderAvailability[] {
  return DESCRIPTORS.map((d): ProviderAvailability => {
    const a = availabilityOf(d);
    const dest = destinationOf(d, null);
    const base = {
      id: d.id,
      label: d.label,
      simulated: d.simulated,
      defaultModel: d.defaultModel,
      models: d.models,
      destination: dest ? `${dest.baseUrl} (${dest.via})` : null,
      allowedBaseUrls: d.baseUrlVar === null ? [] : allowedBaseUrls(),
      batch: batchVendorOf(d.id) !== null,
    };
    return a.available ? { ...base, available: true } : { ...base, available: false, reason: a.reason };
  });
}
