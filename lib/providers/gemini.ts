import type { GoogleGenAI, Content, FunctionDeclaration, GenerateContentConfig, Part } from '@google/genai';
import type { ModelAnswer, ToolCall } from '../schema/observation';
import type { AdapterResult, ProviderRequest, TokenUsage } from '../schema/request';
import type { RunSettings } from '../schema/run';
import { resolveEndpoint } from './configured';
import { geminiDescriptor } from './vendor-descriptors';
import { configErrorResult, failedResult, isPlainObject, newAttempt, okResult, parseArguments, recordingFetch } from './exchange';
import type { Provider, SendOptions } from './types';
import { GENERATED_CALL_ID } from '../schema/request';

// Gemini generateContent with functionDeclarations, through the official @google/genai SDK. Vendor types
// stay in this file.

export { GEMINI_DEFAULT_BASE_URL, geminiDescriptor } from './vendor-descriptors';

/**
 * Gemini 3 rejects a model turn whose functionCall part has no thought signature (HTTP 400). A transcript
 * may hold calls the model never made (an injected step; earlier turns whose signature is not kept), so there
 * is no real signature; Google
 * documents this value for exactly that case. Older models neither need nor get it.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** finishReason / blockReason values that mean the answer was withheld by a safety or policy filter. */
const REFUSAL_REASONS = new Set(['SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'MODEL_ARMOR']);

export function needsThoughtSignature(model: string): boolean {
  const m = /(?:^|\/)gemini-(\d+)/i.exec(model);
  return m !== null && Number(m[1]) >= 3;
}

export interface GeminiRequestParts {
  contents: Content[];
  config: GenerateContentConfig;
}

/** Contents and config for one request: tools in the request's order, protocol as systemInstruction. */
export function buildGeminiRequest(request: ProviderRequest, settings: RunSettings): GeminiRequestParts {
  const contents: Content[] = [{ role: 'user', parts: [{ text: request.task }] }];
  // the transcript: each step as a model content with its text and functionCall parts, then a user content with
  // one functionResponse part per result (same name; the call's id when it has one the model gave)
  const wireId = (id: string | undefined) => (id === undefined || id.startsWith(GENERATED_CALL_ID) ? {} : { id });
  for (const step of request.history) {
    const parts: Part[] = [];
    if (step.text) parts.push({ text: step.text });
    step.calls.forEach((c, i) => {
      const part: Part = { functionCall: { name: c.name, args: c.arguments ?? {}, ...wireId(c.id) } };
      if (i === 0 && needsThoughtSignature(settings.model)) part.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
      parts.push(part);
    });
    contents.push({ role: 'model', parts });
    if (step.results.length > 0)
      contents.push({
        role: 'user',
        // functionResponse.response must be a JSON object; anything else goes under `output`, as Google documents
        parts: step.results.map((r) => ({
          functionResponse: { name: r.name, response: isPlainObject(r.result) ? r.result : { output: r.result }, ...wireId(r.id) },
        })),
      });
  }
  const functionDeclarations: FunctionDeclaration[] = request.tools.map((t) => ({
    name: t.name,
    description: t.description,
    // the full JSON Schema as written: `parameters` would restrict it to Gemini's OpenAPI subset
    parametersJsonSchema: t.parameters,
  }));
  const config: GenerateContentConfig = { systemInstruction: request.system };
  if (functionDeclarations.length > 0) config.tools = [{ functionDeclarations }];
  if (settings.temperature != null) config.temperature = settings.temperature;
  if (settings.maxOutputTokens != null) config.maxOutputTokens = settings.maxOutputTokens;
  if (settings.seed != null) config.seed = settings.seed;
  return { contents, config };
}

/**
 * A generateContent response → what the model answered; null when it is not one (malformed_body). A prompt
 * blocked before any candidate (promptFeedback.blockReason) is a refusal, not a transport error. The
 * scoring reads the joined text, refusal or not (`answerText`; lib/scoring/answer.ts).
 */
export function reshapeGeminiResponse(response: unknown, request: ProviderRequest): { answer: ModelAnswer; usage: TokenUsage | null } | null {
  if (!isPlainObject(response)) return null;
  const usage = geminiUsage(response.usageMetadata);
  const candidate: unknown = Array.isArray(response.candidates) ? response.candidates[0] : undefined;
  const blockReason = isPlainObject(response.promptFeedback) && typeof response.promptFeedback.blockReason === 'string' ? response.promptFeedback.blockReason : null;
  if (!isPlainObject(candidate)) {
    if (!blockReason) return null;
    return { answer: { toolCalls: [], text: null, refusal: true, malformed: null, finishReason: blockReason, answerText: null }, usage };
  }
  const finishReason = typeof candidate.finishReason === 'string' ? candidate.finishReason : null;
  const parts: unknown[] = isPlainObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
  const known = new Set(request.tools.map((t) => t.name));
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  let malformed: string | null = finishReason === 'MALFORMED_FUNCTION_CALL' ? 'MALFORMED_FUNCTION_CALL' : null;
  for (const part of parts) {
    if (!isPlainObject(part)) continue;
    if (typeof part.text === 'string' && part.thought !== true) texts.push(part.text);
    if (!isPlainObject(part.functionCall)) continue;
    const fc = part.functionCall;
    const name = typeof fc.name === 'string' ? fc.name : '';
    const call = readArgs(fc.args);
    toolCalls.push({ ...(typeof fc.id === 'string' && fc.id !== '' && { id: fc.id }), name, ...call });
    if (malformed) continue;
    if (!known.has(name)) malformed = `unknown_tool:${name}`;
    else if (call.arguments === null) malformed = 'unparseable_arguments';
  }
  const text = texts.length > 0 ? texts.join('') : null;
  const refusal = (finishReason !== null && REFUSAL_REASONS.has(finishReason)) || (blockReason !== null && blockReason !== 'BLOCKED_REASON_UNSPECIFIED');
  return { answer: { toolCalls, text, refusal, malformed, finishReason, answerText: text }, usage };
}

/** The wire carries args as a JSON object; a string (some proxies) is parsed; anything else is unusable. */
function readArgs(args: unknown): Pick<ToolCall, 'arguments' | 'rawArguments'> {
  if (args === undefined || args === null) return { arguments: {} };
  if (isPlainObject(args)) return { arguments: args };
  if (typeof args === 'string') return { arguments: parseArguments(args), rawArguments: args };
  return { arguments: null, rawArguments: JSON.stringify(args) };
}

function geminiUsage(meta: unknown): TokenUsage | null {
  if (!isPlainObject(meta)) return null;
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const candidates = num(meta.candidatesTokenCount);
  const thoughts = num(meta.thoughtsTokenCount);
  // thinking tokens are billed as output: count them there
  const output = candidates === null && thoughts === null ? null : (candidates ?? 0) + (thoughts ?? 0);
  return { inputTokens: num(meta.promptTokenCount), outputTokens: output };
}

// One SDK client per (key, base URL): its constructor inspects the environment and warns when both key
// variables are set, which must not happen once per request. The per-request fetch and timeout go in
// config.httpOptions, which the SDK merges over the client's options.
const clients = new Map<string, GoogleGenAI>();
// the SDK is loaded on the first request (a process that never sends to this provider, e.g. `tclab run` on
// another one, does not hold it: each SDK is 15–25 MB resident)
let sdk: Promise<typeof import('@google/genai')> | undefined;

async function clientFor(apiKey: string, baseUrl: string): Promise<GoogleGenAI> {
  const cacheKey = `${baseUrl}\u0000${apiKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const { GoogleGenAI } = await (sdk ??= import('@google/genai'));
    client = new GoogleGenAI({ apiKey, vertexai: false, httpOptions: { baseUrl } });
    clients.set(cacheKey, client);
  }
  return client;
}

export const geminiProvider: Provider = {
  descriptor: geminiDescriptor,
  async send(request: ProviderRequest, options: SendOptions): Promise<AdapterResult> {
    const { settings, signal } = options;
    const { contents, config } = buildGeminiRequest(request, settings);
    const built = { model: settings.model, contents, ...config };
    const endpoint = resolveEndpoint(geminiDescriptor, settings);
    if (!endpoint.ok || endpoint.key === null) {
      return configErrorResult(geminiDescriptor, built, endpoint.ok ? 'the gemini provider needs a key' : endpoint.message);
    }

    const ctx = newAttempt(geminiDescriptor, built, signal);
    try {
      const ai = await clientFor(endpoint.key, endpoint.baseUrl);
      const response: unknown = await ai.models.generateContent({
        model: settings.model,
        contents,
        config: {
          ...config,
          // one attempt per HTTP exchange: no retryOptions (the SDK then never retries) and no automatic
          // continuation (which would send follow-up requests)
          automaticContinuation: false,
          abortSignal: signal,
          httpOptions: { timeout: settings.timeoutMs, fetch: recordingFetch(ctx.exchange) },
        },
      });
      const reshaped = reshapeGeminiResponse(response, request);
      if (!reshaped) return failedResult(ctx, new Error('the body is not a generateContent response'));
      return okResult(ctx, reshaped.answer, reshaped.usage);
    } catch (error) {
      return failedResult(ctx, error);
    }
  },
};
