import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ResponseCreateParamsNonStreaming, ResponseInputItem, Tool as ResponsesTool } from 'openai/resources/responses/responses';
import type { ModelAnswer, ToolCall } from '../schema/observation';
import type { AdapterResult, ProviderRequest, TokenUsage } from '../schema/request';
import type { RunSettings } from '../schema/run';
import { resolveEndpoint } from './configured';
import { openaiDescriptor } from './vendor-descriptors';
import { configErrorResult, failedResult, isPlainObject, newAttempt, okResult, parseArguments, recordingFetch, toolResultText, type Exchange } from './exchange';
import { splitDeferred, visibleNames } from './tool-search';
import type { Provider, ProviderDescriptor, SendOptions } from './types';

// OpenAI Chat Completions with `tools`, through the official SDK. The same adapter serves any
// OpenAI-compatible server (vLLM, Ollama, llama.cpp) — see openai-compatible.ts. OpenAI's vendor types
// stay in this file: requests are built from ProviderRequest, responses reshaped into a ModelAnswer.

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
  answer: ModelAnswer;
  usage: TokenUsage | null;
}

/**
 * A chat completion → what the model answered; null when the body is not a chat completion at all
 * (malformed_body). A refusal comes as its own string: it is the answer's `text` when there is no content,
 * but scoring reads the content only (`answerText`; lib/scoring/answer.ts).
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
  const answer: ModelAnswer = {
    toolCalls,
    text: content ?? refusalText,
    refusal: refusalText !== null,
    malformed,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null,
    answerText: content,
  };
  return { answer, usage: openAIUsage(completion.usage) };
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

// the SDK is loaded on the first request (a process that never sends to this provider, e.g. `tclab run` on
// another one, does not hold it: each SDK is 15–25 MB resident)
let sdk: Promise<typeof import('openai')> | undefined;

async function clientFor(connection: OpenAIConnection): Promise<OpenAI> {
  const key = JSON.stringify([connection.baseURL, connection.apiKey]);
  let client = clients.get(key);
  if (!client) {
    const { default: OpenAI } = await (sdk ??= import('openai'));
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
    async send(request: ProviderRequest, options: SendOptions): Promise<AdapterResult> {
      // the Responses path only where the descriptor declares OpenAI's tool search (not OpenAI-compatible servers)
      if (request.toolSearch?.mechanism === 'openai' && descriptor.toolSearch.includes('openai')) return sendResponses(descriptor, request, options);
      const { settings, signal } = options;
      const built = buildOpenAIBody(request, settings, config.maxTokensField);
      const endpoint = resolveEndpoint(descriptor, settings);
      if (!endpoint.ok) return configErrorResult(descriptor, built, endpoint.message);
      const connection: OpenAIConnection = { baseURL: endpoint.baseUrl, apiKey: endpoint.key };

      const ctx = newAttempt(descriptor, built, signal);
      try {
        const fetchOptions = Object.assign<SdkFetchOptions, ExchangeInit>({}, { [EXCHANGE]: ctx.exchange });
        const completion: unknown = await (await clientFor(connection)).chat.completions.create(built, { signal, timeout: settings.timeoutMs, fetchOptions });
        const reshaped = reshapeOpenAIResponse(completion, request);
        if (!reshaped) return failedResult(ctx, new Error('the body is not a chat completion'));
        // a chat completion is the SDK's JSON parse of the body: stored without parsing it again
        return okResult(ctx, reshaped.answer, reshaped.usage, completion as object);
      } catch (error) {
        return failedResult(ctx, error);
      }
    },
  };
}

// ---- Responses API path: used only when the request asks for OpenAI's tool search (request.toolSearch,
// mechanism `openai`). Tools go as `{type: 'function', name, description, parameters, strict: false}`, the
// deferred ones with `defer_loading: true`, after a hosted `{type: 'tool_search'}` tool; the protocol as
// `instructions`; the transcript as `function_call` / `function_call_output` input items. The answer's
// `output` holds `tool_search_call` and `tool_search_output` items (the tools the search loaded, in order),
// then `function_call` items and/or a `message`. Not stored server-side (`store: false`).

/** The Responses API body for a tool-search request. */
export function buildOpenAIResponsesBody(request: ProviderRequest, settings: RunSettings): ResponseCreateParamsNonStreaming {
  const input: ResponseInputItem[] = [{ role: 'user', content: request.task }];
  for (const step of request.history) {
    const ids = step.calls.map((c, i) => c.id ?? injectedCallId(i));
    if (step.text) input.push({ role: 'assistant', content: step.text });
    step.calls.forEach((c, i) => input.push({ type: 'function_call', call_id: ids[i]!, name: c.name, arguments: c.rawArguments ?? JSON.stringify(c.arguments ?? {}) }));
    step.results.forEach((r, i) => input.push({ type: 'function_call_output', call_id: r.id ?? ids[i] ?? injectedCallId(i), output: toolResultText(r.result) }));
  }
  const deferred = new Set(request.toolSearch?.deferred ?? []);
  const tools: ResponsesTool[] = [{ type: 'tool_search' }];
  for (const t of request.tools) {
    tools.push({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
      ...(deferred.has(t.name) && { defer_loading: true }),
    });
  }
  const body: ResponseCreateParamsNonStreaming = { model: settings.model, instructions: request.system, input, tools, store: false };
  if (settings.temperature != null) body.temperature = settings.temperature;
  if (settings.maxOutputTokens != null) body.max_output_tokens = settings.maxOutputTokens;
  return body;
}

/**
 * A Responses API response → what the model answered, and `visible`; null when the body is not a response.
 * As for a chat completion, a refusal part is the `text` only without output text, and never `answerText`.
 */
export function reshapeOpenAIResponsesResponse(response: unknown, request: ProviderRequest): (Reshaped & { visible: string[] }) | null {
  if (!isPlainObject(response) || !Array.isArray(response.output)) return null;
  const known = new Set(request.tools.map((t) => t.name));
  const toolCalls: ToolCall[] = [];
  const texts: string[] = [];
  const found: string[] = [];
  let refusalText: string | null = null;
  let malformed: string | null = null;
  for (const item of response.output as unknown[]) {
    if (!isPlainObject(item)) continue;
    if (item.type === 'tool_search_output' && Array.isArray(item.tools)) {
      for (const t of item.tools as unknown[]) {
        if (!isPlainObject(t)) continue;
        if (t.type === 'function' && typeof t.name === 'string') found.push(t.name);
        // a namespace's functions are loaded with it
        if (t.type === 'namespace' && Array.isArray(t.tools))
          for (const f of t.tools as unknown[]) if (isPlainObject(f) && typeof f.name === 'string') found.push(f.name);
      }
    } else if (item.type === 'function_call') {
      const name = typeof item.name === 'string' ? item.name : '';
      const rawArguments = typeof item.arguments === 'string' ? item.arguments : '';
      const args = parseArguments(rawArguments);
      toolCalls.push({ ...(typeof item.call_id === 'string' && item.call_id !== '' && { id: item.call_id }), name, arguments: args, rawArguments });
      if (!malformed && !known.has(name)) malformed = `unknown_tool:${name}`;
      else if (!malformed && args === null) malformed = 'unparseable_arguments';
    } else if (item.type === 'message' && Array.isArray(item.content)) {
      for (const part of item.content as unknown[]) {
        if (!isPlainObject(part)) continue;
        if (part.type === 'output_text' && typeof part.text === 'string') texts.push(part.text);
        if (part.type === 'refusal' && typeof part.refusal === 'string' && part.refusal.trim() !== '') refusalText = part.refusal;
      }
    }
  }
  const content = texts.length > 0 ? texts.join('') : null;
  const status = typeof response.status === 'string' ? response.status : null;
  const answer: ModelAnswer = {
    toolCalls,
    text: content ?? refusalText,
    refusal: refusalText !== null,
    malformed,
    finishReason: toolCalls.length > 0 && status === 'completed' ? 'tool_calls' : status,
    answerText: content,
  };
  const usage = isPlainObject(response.usage) ? responsesUsage(response.usage) : null;
  return { answer, usage, visible: visibleNames(splitDeferred(request.tools, request.toolSearch).loaded, found) };
}

function responsesUsage(usage: Record<string, unknown>): TokenUsage {
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) };
}

async function sendResponses(descriptor: ProviderDescriptor, request: ProviderRequest, options: SendOptions): Promise<AdapterResult> {
  const { settings, signal } = options;
  const built = buildOpenAIResponsesBody(request, settings);
  const endpoint = resolveEndpoint(descriptor, settings);
  if (!endpoint.ok) return configErrorResult(descriptor, built, endpoint.message);
  const ctx = newAttempt(descriptor, built, signal);
  try {
    const fetchOptions = Object.assign<SdkFetchOptions, ExchangeInit>({}, { [EXCHANGE]: ctx.exchange });
    const response: unknown = await (
      await clientFor({ baseURL: endpoint.baseUrl, apiKey: endpoint.key })
    ).responses.create(built, {
      signal,
      timeout: settings.timeoutMs,
      fetchOptions,
    });
    const reshaped = reshapeOpenAIResponsesResponse(response, request);
    if (!reshaped) return failedResult(ctx, new Error('the body is not a Responses API response'));
    return { ...okResult(ctx, reshaped.answer, reshaped.usage), visible: reshaped.visible };
  } catch (error) {
    return failedResult(ctx, error);
  }
}

/** api.openai.com (or OPENAI_BASE_URL); needs OPENAI_API_KEY. */
export const openaiProvider: Provider = createOpenAIProvider({ descriptor: openaiDescriptor, maxTokensField: 'max_completion_tokens' });
