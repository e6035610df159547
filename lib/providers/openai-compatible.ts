import { env } from '../env';
import { createOpenAIProvider } from './openai';
import type { Provider } from './types';

/**
 * Any server that speaks OpenAI's Chat Completions (vLLM, Ollama, llama.cpp's server, gateways): the
 * OpenAI adapter with a required base URL (the run's `baseUrl`, else OPENAI_BASE_URL), an optional key
 * (OPENAI_COMPATIBLE_API_KEY — never OPENAI_API_KEY, so a real OpenAI key is not sent to another server;
 * without one no Authorization header is sent), and `max_tokens` for the output
 * limit, the field every such server accepts.
 */
export const openaiCompatibleProvider: Provider = createOpenAIProvider({
  id: 'openai-compatible',
  label: 'OpenAI-compatible server (vLLM, Ollama, llama.cpp)',
  maxTokensField: 'max_tokens',
  connection(settings) {
    const e = env();
    const baseURL = settings.baseUrl ?? e.OPENAI_BASE_URL;
    if (!baseURL) {
      return 'no base URL: the openai-compatible provider needs the run setting baseUrl or OPENAI_BASE_URL (e.g. http://localhost:11434/v1)';
    }
    return { baseURL, apiKey: e.OPENAI_COMPATIBLE_API_KEY ?? null };
  },
});
