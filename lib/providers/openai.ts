import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { parseFinalText } from '../scoring/markers';
import type { Observation, ToolCall } from '../schema/observation';
import type { ProviderRequest, ProviderResult, TokenUsage } from '../schema/request';
import type { RunSettings } from '../schema/run';
import { resolveEndpoint } from './configured';
import { openaiDescriptor } from './vendor-descriptors';
import { configErrorResult, failedResult, isPlainObject, newAttempt, okResult, parseArguments, recordingFetch, toolResultText, type Exchange } from './exchange';
import type { Provider, ProviderDescriptor, SendOptions } from './types';

// OpenAI Chat Completions with `tools`, through the official SDK. The same adapter serves any
// OpenAI-compatible server (vLLM, Ollama, llama.cpp) — see openai-compatible.ts. OpenAI's vendor types
// stay in this file: requests are built from ProviderRequest, responses reshaped into an Observation.

export { OPENAI_DEFAULT_BASE_URL, openaiDescriptor, openaiErrorShape } from './vendor-descriptors';

/**
 * Which field carries the output limit. OpenAI itself deprecated `max_tokens` and its reasoning models
 * reject it, so the `openai` adapter sends `max_completion_tokens`. OpenAI-compatible servers do not all
 * know that newer field (older vLLM, Ollama and llama.cpp builds read only `max_tokens`, and ignore
 * unknown fields silently), so the compatible adapter sends `max_tokens`, which all of them accept.
 */
export type MaxTokensField = 'max_completion_tokens' | 'max_tokens';

/** The id of the first call given with none (an injected step of history: `call_0`, `call_1`, …). */
export const INTERPRETATION_CALL_ID = 'call_0';
const injectedCallId = (i: number) => `call_${i}`;

export interface OpenAIConnection {
  baseURL: string;
  /** null: send no Authorization header (local servers without a key). */
  apiKey: string | null;
}

export interface OpenAIAdapterConfig {
  descriptor: ProviderDescriptor;
  maxTokensField: MaxTokensField;
}

/** The wire body for one request: tools in the request's order, protocol as the system message. */
export function buildOpenAIBody(request: ProviderRequest, settings: RunSettings, maxTokensField: MaxTokensField): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: request.system },
    { role: 'user', content: request.task },
  ];
  // the transcript: each step as the assistant's text and tool_calls, then one role:"tool" message per result
  for (const step of request.history) {
    const ids = step.calls.map((c, i) => c.id ?? injectedCallId(i));
    messages.push({
      role: 'assistant',
      content: step.text,
      ...(step.calls.length > 0 && {
        tool_calls: step.calls.map((c, i) => ({
          id: ids[i],
          type: 'function' as const,
          function: { name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments ?? {}) },
        })),
      }),
    });
    step.results.forEach((r, i) => messages.push({ role: 'tool', tool_call_id: r.id ?? ids[i] ?? injectedCallId(i), content: toolResultText(r.result) }));
  }
  const tools: ChatCompletionTool[] = request.tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  const body: ChatCompletionCreateParamsNonStreaming = { model: settings.model, messages };
  if (tools.length > 0) body.tools = tools;
  if (settings.temperature != null) body.temperature = settings.temperature;
  if (settings.maxOutputTokens != null) body[maxTokensField] = settings.maxOutputTokens;
  if (settings.seed != null) body.seed = settings.seed;
  return body;
}

export interface Reshaped {
  observation: Observation;
  usage: TokenUsage | null;
}

/**
 * A chat completion → Observation; null when the body is not a chat completion at all (malformed_body).
 * Takes `unknown` on purpose: with a non-JSON content type the SDK hands back a string, and a proxy's
 * JSON error page parses into any shape.
 */
export function reshapeOpenAIResponse(completion: unknown, request: ProviderRequest): Reshaped | null {
  if (!isPlainObject(completion) || !Array.isArray(completion.choices)) return null;
  const choice: unknown = completion.choices[0];
  if (!isPlainObject(choice) || !isPlainObject(choice.message)) return null;
  const message = choice.message;
  const content = typeof message.content === 'string' ? message.content : null;
  const refusalText = typeof message.refusal === 'string' && message.refusal.trim() !== '' ? message.refusal : null;
  const known = new Set(request.tools.map((t) => t.name));
  const toolCalls: ToolCall[] = [];
  let malformed: string | null = null;
  const rawCalls: unknown[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  for (const raw of rawCalls) {
    if (!isPlainObject(raw)) continue;
    const fn = isPlainObject(raw.function) ? raw.function : isPlainObject(raw.custom) ? raw.custom : null;
    const name = fn && typeof fn.name === 'string' ? fn.name : '';
    const rawArguments = fn && typeof fn.arguments === 'string' ? fn.arguments : fn && typeof fn.input === 'string' ? fn.input : '';
    const args = raw.type === 'function' || raw.type === undefined ? parseArguments(rawArguments) : null;
    toolCalls.push({ ...(typeof raw.id === 'string' && raw.id !== '' && { id: raw.id }), name, arguments: args, rawArguments });
    if (malformed) continue;
    if (!known.has(name)) malformed = `unknown_tool:${name}`;
    else if (args === null) malformed = 'unparseable_arguments';
  }
  const text = content ?? refusalText;
  const parsed = parseFinalText(content, request.markers);
  const observation: Observation = {
    toolCalls,
    marker: parsed.marker,
    label: parsed.label,
    text,
    refusal: refusalText !== null,
    malformed,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
  };
  return { observation, usage: openAIUsage(completion.usage) };
}

function openAIUsage(usage: unknown): TokenUsage | null {
  if (!isPlainObject(usage)) return null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { inputTokens: num(usage.prompt_tokens), outputTokens: num(usage.completion_tokens) };
}

// One SDK client per server and key: building one per request cost more CPU than the request itself. The
// exchange to record into travels with each request in its fetch options (a symbol key undici ignores).
const EXCHANGE = Symbol('tclab.exchange');
type ExchangeInit = { [EXCHANGE]?: Exchange };
type SdkFetchOptions = NonNullable<NonNullable<Parameters<OpenAI['chat']['completions']['create']>[1]>['fetchOptions']>;
const MAX_CLIENTS = 16;
const clients = new Map<string, OpenAI>();

const exchangeFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const exchange = (init as (RequestInit & ExchangeInit) | undefined)?.[EXCHANGE];
  if (!exchange) return Promise.reject(new Error('internal: request without an exchange to record into'));
  // chat.completions.create without `stream` reads the body with json() (text() for errors)
  return recordingFetch(exchange, undefined, { textOnly: true })(input, init);
};

function clientFor(connection: OpenAIConnection): OpenAI {
  const key = JSON.stringify([connection.baseURL, connection.apiKey]);
  let client = clients.get(key);
  if (!client) {
    client = new OpenAI({
      apiKey: connection.apiKey ?? 'no-key',
      baseURL: connection.baseURL,
      // one attempt per HTTP exchange: retries are the run engine's, recorded as attempts
      maxRetries: 0,
      fetch: exchangeFetch,
      // explicit, so that the SDK does not pick these up from process.env
      organization: null,
      project: null,
      logLevel: 'off',
      defaultHeaders: connection.apiKey === null ? { Authorization: null } : undefined,
    });
    clients.set(key, client);
    if (clients.size > MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
  }
  return client;
}

export function createOpenAIProvider(config: OpenAIAdapterConfig): Provider {
  const { descriptor } = config;
  return {
    descriptor,
    async send(request: ProviderRequest, options: SendOptions): Promise<ProviderResult> {
      const { settings, signal } = options;
      const built = buildOpenAIBody(request, settings, config.maxTokensField);
      const endpoint = resolveEndpoint(descriptor, settings);
      if (!endpoint.ok) return configErrorResult(descriptor, built, endpoint.message);
      const connection: OpenAIConnection = { baseURL: endpoint.baseUrl, apiKey: endpoint.key };

      const ctx = newAttempt(descriptor, built, signal);
      try {
        const fetchOptions = Object.assign<SdkFetchOptions, ExchangeInit>({}, { [EXCHANGE]: ctx.exchange });
        const completion: unknown = await clientFor(connection).chat.completions.create(built, { signal, timeout: settings.timeoutMs, fetchOptions });
        const reshaped = reshapeOpenAIResponse(completion, request);
        if (!reshaped) return failedResult(ctx, new Error('the body is not a chat completion'));
        // a chat completion is the SDK's JSON parse of the body: stored without parsing it again
        return okResult(ctx, reshaped.observation, reshaped.usage, completion as object);
      } catch (error) {
        return failedResult(ctx, error);
      }
    },
  };
}

/** api.openai.com (or OPENAI_BASE_URL); needs OPENAI_API_KEY. */
export const openaiProvider: Provider = createOpenAIProvider({ descriptor: openaiDescriptor, maxTokensField: 'max_completion_tokens' });
