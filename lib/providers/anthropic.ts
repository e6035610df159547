import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, MessageCreateParamsNonStreaming, MessageParam, Tool, ToolUnion } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelAnswer, ToolCall } from '../schema/observation';
import type { AdapterResult, ProviderRequest, TokenUsage } from '../schema/request';
import type { RunSettings } from '../schema/run';
import { resolveEndpoint } from './configured';
import { anthropicDescriptor } from './vendor-descriptors';
import { configErrorResult, failedResult, isPlainObject, newAttempt, okResult, recordingFetch, toolResultText, type Exchange } from './exchange';
import { splitDeferred, visibleNames } from './tool-search';
import type { Provider, SendOptions } from './types';

// Anthropic's Messages API with tools, through the official @anthropic-ai/sdk (1.10.0). Tools go as
// `{name, description, input_schema}`; the model's calls come back as `tool_use` content blocks, its words
// (and the protocol's CLARIFY / STOP / STATUS lines) as `text` blocks. Vendor types stay in this file.
//
// What this API version has and has not: no `temperature` and no `seed` (the run's values are not sent;
// the request as stored shows it); `max_tokens` is required, so a run without an output limit sends
// DEFAULT_MAX_TOKENS. The SDK sends the key as `Authorization: Bearer …` (the API also takes `x-api-key`;
// both are declared secret headers).
//
// Tool search (request.toolSearch, mechanism anthropic-regex / anthropic-bm25): the tool search tool
// (`tool_search_tool_regex_20251119` / `tool_search_tool_bm25_20251119`) goes first, the deferred tools with
// `defer_loading: true`; the API runs the search itself (a `server_tool_use` block, then a
// `tool_search_tool_result` holding `tool_reference`s) in the same response. Generally available in this
// API version: no beta header. The references returned are the result's `visible`.

export { ANTHROPIC_DEFAULT_BASE_URL, anthropicDescriptor } from './vendor-descriptors';

/** `max_tokens` when the run sets no output limit (the API requires one). */
export const DEFAULT_MAX_TOKENS = 1024;

/** The id of the first call given with none (an injected step of history: `toolu_0`, `toolu_1`, …). */
export const INTERPRETATION_TOOL_USE_ID = 'toolu_0';
const injectedToolUseId = (i: number) => `toolu_${i}`;

/** The wire body for one request: tools in the request's order, the protocol as `system`. */
export function buildAnthropicBody(request: ProviderRequest, settings: RunSettings): MessageCreateParamsNonStreaming {
  const messages: MessageParam[] = [{ role: 'user', content: request.task }];
  // the transcript: each step as the assistant's text and tool_use blocks, then one user message of tool_result blocks
  for (const step of request.history) {
    const ids = step.calls.map((c, i) => c.id ?? injectedToolUseId(i));
    const content: ContentBlockParam[] = [];
    if (step.text) content.push({ type: 'text', text: step.text });
    step.calls.forEach((c, i) => content.push({ type: 'tool_use', id: ids[i]!, name: c.name, input: c.arguments ?? {} }));
    if (content.length > 0) messages.push({ role: 'assistant', content });
    if (step.results.length > 0) {
      messages.push({
        role: 'user',
        content: step.results.map((r, i) => ({
          type: 'tool_result' as const,
          tool_use_id: r.id ?? ids[i] ?? injectedToolUseId(i),
          content: toolResultText(r.result),
          ...(r.isError !== undefined && { is_error: r.isError }),
        })),
      });
    }
  }
  const mechanism = request.toolSearch?.mechanism;
  const searching = mechanism === 'anthropic-regex' || mechanism === 'anthropic-bm25';
  const deferred = new Set(searching ? request.toolSearch!.deferred : []);
  const tools: ToolUnion[] = request.tools.map((t): Tool => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Tool['input_schema'],
    ...(deferred.has(t.name) && { defer_loading: true }),
  }));
  // the tool search tool goes first (it is never deferred); the deferred tools are loaded only when it returns them
  if (mechanism === 'anthropic-regex') tools.unshift({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
  else if (mechanism === 'anthropic-bm25') tools.unshift({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
  const body: MessageCreateParamsNonStreaming = {
    model: settings.model,
    max_tokens: settings.maxOutputTokens ?? DEFAULT_MAX_TOKENS,
    system: request.system,
    messages,
  };
  if (tools.length > 0) body.tools = tools;
  return body;
}

/**
 * A Messages response → what the model answered; null when the body is not a message (malformed_body).
 * `refusal` is the stop reason the API gives when it declined to answer; its text blocks are the answer's
 * text all the same, and scoring reads them too (`answerText`; lib/scoring/answer.ts).
 */
export function reshapeAnthropicResponse(message: unknown, request: ProviderRequest): { answer: ModelAnswer; usage: TokenUsage | null; visible?: string[] } | null {
  if (!isPlainObject(message) || !Array.isArray(message.content)) return null;
  const visible = request.toolSearch && request.toolSearch.mechanism !== 'openai' ? anthropicVisible(message.content as unknown[], request) : undefined;
  const known = new Set(request.tools.map((t) => t.name));
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  let malformed: string | null = null;
  for (const block of message.content as unknown[]) {
    if (!isPlainObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    if (block.type !== 'tool_use') continue;
    const name = typeof block.name === 'string' ? block.name : '';
    const args = isPlainObject(block.input) ? block.input : null;
    const id = typeof block.id === 'string' && block.id !== '' ? { id: block.id } : {};
    toolCalls.push(args ? { ...id, name, arguments: args } : { ...id, name, arguments: null, rawArguments: JSON.stringify(block.input ?? null) });
    if (malformed) continue;
    if (!known.has(name)) malformed = `unknown_tool:${name}`;
    else if (args === null) malformed = 'unparseable_arguments';
  }
  const text = texts.length > 0 ? texts.join('') : null;
  const stopReason = typeof message.stop_reason === 'string' ? message.stop_reason : null;
  return {
    answer: { toolCalls, text, refusal: stopReason === 'refusal', malformed, finishReason: stopReason, answerText: text },
    usage: anthropicUsage(message.usage),
    ...(visible && { visible }),
  };
}

/**
 * What the model could see under tool search: the non-deferred tools, then every `tool_reference` of the
 * response's `tool_search_tool_result` blocks (their `tool_search_tool_search_result` content), in order.
 * An error result (`tool_search_tool_result_error`) references nothing.
 */
export function anthropicVisible(content: readonly unknown[], request: ProviderRequest): string[] {
  const found: string[] = [];
  for (const block of content) {
    if (!isPlainObject(block) || block.type !== 'tool_search_tool_result' || !isPlainObject(block.content)) continue;
    const refs = block.content.tool_references;
    if (!Array.isArray(refs)) continue;
    for (const ref of refs as unknown[]) if (isPlainObject(ref) && ref.type === 'tool_reference' && typeof ref.tool_name === 'string') found.push(ref.tool_name);
  }
  return visibleNames(splitDeferred(request.tools, request.toolSearch).loaded, found);
}

function anthropicUsage(usage: unknown): TokenUsage | null {
  if (!isPlainObject(usage)) return null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return { inputTokens: num(usage.input_tokens), outputTokens: num(usage.output_tokens) };
}

// One SDK client per server and key, as for OpenAI; the exchange travels in each request's fetch options.
const EXCHANGE = Symbol('tclab.exchange');
type ExchangeInit = { [EXCHANGE]?: Exchange };
type SdkFetchOptions = NonNullable<NonNullable<Parameters<Anthropic['messages']['create']>[1]>['fetchOptions']>;
const MAX_CLIENTS = 16;
const clients = new Map<string, Anthropic>();

const exchangeFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const exchange = (init as (RequestInit & ExchangeInit) | undefined)?.[EXCHANGE];
  if (!exchange) return Promise.reject(new Error('internal: request without an exchange to record into'));
  // messages.create without `stream` reads the body with json() (text() for errors)
  return recordingFetch(exchange, undefined, { textOnly: true })(input, init);
};

// the SDK is loaded on the first request (a process that never sends to this provider, e.g. `tclab run` on
// another one, does not hold it: each SDK is 15–25 MB resident)
let sdk: Promise<typeof import('@anthropic-ai/sdk')> | undefined;

async function clientFor(baseURL: string, apiKey: string): Promise<Anthropic> {
  const key = JSON.stringify([baseURL, apiKey]);
  let client = clients.get(key);
  if (!client) {
    const { default: Anthropic } = await (sdk ??= import('@anthropic-ai/sdk'));
    client = new Anthropic({
      apiKey,
      // explicit, so that the SDK reads neither ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL nor a profile
      authToken: null,
      baseURL,
      // one attempt per HTTP exchange: retries are the run engine's, recorded as attempts
      maxRetries: 0,
      fetch: exchangeFetch,
      logLevel: 'off',
    });
    clients.set(key, client);
    if (clients.size > MAX_CLIENTS) clients.delete(clients.keys().next().value as string);
  }
  return client;
}

export const anthropicProvider: Provider = {
  descriptor: anthropicDescriptor,
  async send(request: ProviderRequest, options: SendOptions): Promise<AdapterResult> {
    const { settings, signal } = options;
    const built = buildAnthropicBody(request, settings);
    const endpoint = resolveEndpoint(anthropicDescriptor, settings);
    if (!endpoint.ok || endpoint.key === null) {
      return configErrorResult(anthropicDescriptor, built, endpoint.ok ? 'the anthropic provider needs a key' : endpoint.message);
    }
    const ctx = newAttempt(anthropicDescriptor, built, signal);
    try {
      const fetchOptions = Object.assign<SdkFetchOptions, ExchangeInit>({}, { [EXCHANGE]: ctx.exchange });
      const message: unknown = await (await clientFor(endpoint.baseUrl, endpoint.key)).messages.create(built, { signal, timeout: settings.timeoutMs, fetchOptions });
      const reshaped = reshapeAnthropicResponse(message, request);
      if (!reshaped) return failedResult(ctx, new Error('the body is not a Messages API message'));
      const ok = okResult(ctx, reshaped.answer, reshaped.usage);
      return reshaped.visible ? { ...ok, visible: reshaped.visible } : ok;
    } catch (error) {
      return failedResult(ctx, error);
    }
  },
};
