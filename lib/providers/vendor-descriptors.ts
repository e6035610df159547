import { ProviderId } from '../schema/run';
import { errorShape } from './configured';
import { simulatedDescriptor } from './simulated';
import type { ProviderDescriptor } from './types';

// Each provider's descriptor (its key variables, base URL, secret headers and parameters, error shape, wire),
// apart from its adapter: redaction (exports, logs, pages) needs every descriptor and no vendor SDK, so it
// imports this file, never the adapters (openai.ts, anthropic.ts, gemini.ts re-export theirs). The simulator's
// descriptor stays in simulated.ts, which loads no SDK.

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

const OPENAI_ERROR_TYPES: Record<number, string> = { 401: 'invalid_request_error', 429: 'rate_limit_exceeded' };

/** OpenAI's error envelope: `{error: {message, type, param, code}}`. */
export const openaiErrorShape = errorShape((status, message) => ({
  error: {
    message,
    type: OPENAI_ERROR_TYPES[status] ?? (status >= 500 ? 'server_error' : 'invalid_request_error'),
    param: null,
    code: status === 401 ? 'invalid_api_key' : null,
  },
}));

export const openaiDescriptor: ProviderDescriptor = {
  id: 'openai',
  label: 'OpenAI (Chat Completions)',
  simulated: false,
  keyVars: ['OPENAI_API_KEY'],
  keyRequired: true,
  baseUrlVar: 'OPENAI_BASE_URL',
  defaultBaseUrl: OPENAI_DEFAULT_BASE_URL,
  defaultModel: 'gpt-4.1-mini',
  models: [],
  secretHeaders: ['authorization'],
  secretParams: [],
  wire: 'openai-chat',
  errorShape: openaiErrorShape,
};

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export const anthropicDescriptor: ProviderDescriptor = {
  id: 'anthropic',
  label: 'Anthropic (Messages API)',
  simulated: false,
  keyVars: ['ANTHROPIC_API_KEY'],
  keyRequired: true,
  baseUrlVar: 'ANTHROPIC_BASE_URL',
  defaultBaseUrl: ANTHROPIC_DEFAULT_BASE_URL,
  defaultModel: 'claude-haiku-5-5',
  models: [],
  secretHeaders: ['x-api-key', 'authorization'],
  secretParams: [],
  wire: 'anthropic-messages',
  // `{type: "error", error: {type, message}, request_id}`
  errorShape: errorShape((status, message) => ({
    type: 'error',
    error: { type: ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message },
    request_id: 'req_loopback',
  })),
};

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

export const geminiDescriptor: ProviderDescriptor = {
  id: 'gemini',
  label: 'Google Gemini (generateContent)',
  simulated: false,
  keyVars: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  keyRequired: true,
  baseUrlVar: 'GEMINI_BASE_URL',
  defaultBaseUrl: GEMINI_DEFAULT_BASE_URL,
  defaultModel: 'gemini-2.5-flash-lite',
  models: [],
  secretHeaders: ['x-goog-api-key'],
  // Google also accepts the key as `?key=` in the URL
  secretParams: ['key'],
  wire: 'gemini-generate-content',
  // Google's envelope: `{error: {code, message, status}}`
  errorShape: errorShape((status, message) => ({
    error: { code: status, message, status: GOOGLE_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') },
  })),
};

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

/** Every provider's descriptor, in PROVIDER_IDS order (registry.ts maps the same ids to their adapters). */
export const DESCRIPTORS: readonly ProviderDescriptor[] = ProviderId.options.map(
  (id) =>
    ({
      simulated: simulatedDescriptor,
      openai: openaiDescriptor,
      gemini: geminiDescriptor,
      'openai-compatible': openaiCompatibleDescriptor,
      anthropic: anthropicDescriptor,
    })[id],
);

/** Whether a (stored) provider id names a simulated provider, as its descriptor says; an unknown id does not. */
export function isSimulatedProvider(id: string | undefined): boolean {
  return DESCRIPTORS.find((d) => d.id === id)?.simulated ?? false;
}
