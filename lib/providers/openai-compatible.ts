import { createOpenAIProvider, openaiErrorShape } from './openai';
import type { Provider, ProviderDescriptor } from './types';

/**
 * Any server that speaks OpenAI's Chat Completions (vLLM, Ollama, llama.cpp's server, gateways): the
 * OpenAI adapter with a base URL that must be configured (OPENAI_COMPATIBLE_BASE_URL), an optional key
 * (OPENAI_COMPATIBLE_API_KEY — never OPENAI_API_KEY, so a real OpenAI key is not sent to another server;
 * without one no Authorization header is sent), and `max_tokens` for the output limit, the field every
 * such server accepts.
 */
export const openaiCompatibleDescriptor: ProviderDescriptor = {
  id: 'openai-compatible',
  label: 'OpenAI-compatible server (vLLM, Ollama, llama.cpp)',
  simulated: false,
  keyVars: ['OPENAI_COMPATIBLE_API_KEY'],
  keyRequired: false,
  baseUrlVar: 'OPENAI_COMPATIBLE_BASE_URL',
  defaultBaseUrl: null,
  defaultModel: 'default',
  models: [],
  // gateways in front of such servers (Azure-style) take the key as `api-key`
  secretHeaders: ['authorization', 'api-key'],
  secretParams: [],
  wire: 'openai-chat',
  errorShape: openaiErrorShape,
};

export const openaiCompatibleProvider: Provider = createOpenAIProvider({ descriptor: openaiCompatibleDescriptor, maxTokensField: 'max_tokens' });
