import { env } from '../env';
import { ProviderId } from '../schema/run';
import { geminiApiKey, geminiProvider } from './gemini';
import { openaiProvider } from './openai';
import { openaiCompatibleProvider } from './openai-compatible';
import { simulatedProvider } from './simulated';
import type { Provider } from './types';

// The one place that maps a provider id to its adapter. Unknown ids fail fast (promptfoo's habit): a
// typo must never silently route a run to another provider.

const PROVIDERS: Record<ProviderId, Provider> = {
  simulated: simulatedProvider,
  openai: openaiProvider,
  gemini: geminiProvider,
  'openai-compatible': openaiCompatibleProvider,
};

export const PROVIDER_IDS: readonly ProviderId[] = ProviderId.options;

export function isProviderId(id: string): id is ProviderId {
  return Object.prototype.hasOwnProperty.call(PROVIDERS, id);
}

export function getProvider(id: string): Provider {
  if (!isProviderId(id)) {
    throw new Error(`unknown provider "${id}": known providers are ${PROVIDER_IDS.join(', ')}`);
  }
  return PROVIDERS[id];
}

export interface ProviderAvailability {
  id: ProviderId;
  label: string;
  available: boolean;
  /** Why it is not available (what to set). */
  reason?: string;
}

/**
 * Which providers can be used now. A real provider needs its key in the environment; the
 * OpenAI-compatible one needs a base URL (OPENAI_BASE_URL, or `baseUrl` when the caller has one, e.g.
 * from the run settings being edited). The simulator is always available.
 */
export function availableProviders(opts: { baseUrl?: string | null } = {}): ProviderAvailability[] {
  const e = env();
  return PROVIDER_IDS.map((id): ProviderAvailability => {
    const { label } = PROVIDERS[id];
    switch (id) {
      case 'simulated':
        return { id, label, available: true };
      case 'openai':
        return e.OPENAI_API_KEY ? { id, label, available: true } : { id, label, available: false, reason: 'set OPENAI_API_KEY' };
      case 'gemini':
        return geminiApiKey() ? { id, label, available: true } : { id, label, available: false, reason: 'set GEMINI_API_KEY or GOOGLE_API_KEY' };
      case 'openai-compatible':
        return opts.baseUrl || e.OPENAI_BASE_URL
          ? { id, label, available: true }
          : { id, label, available: false, reason: 'set OPENAI_BASE_URL (or a base URL in the run settings)' };
    }
  });
}
