import type { ModelAnswer, ToolCall } from '../schema/observation';
import type { AdapterAnswer, AdapterResult, ProviderTransportError, TokenUsage } from '../schema/request';
import { cachedRedaction } from './configured';
import { classifyFailure, type TransportError } from './errors';
import { jsonMayHoldSecret, redactSecrets, redactText, type Redaction } from './redact';
import { decodeBody, nodeFetch, ReadResponse, type FetchFn } from './http';
import type { ProviderDescriptor } from './types';

// One attempt = one HTTP exchange. Both SDKs accept a custom `fetch`; this one records the exact request
// body as sent and the response (status, headers, body text) as received, so that what is stored is what
// went over the wire, not the SDK's later interpretation of it.

export interface Exchange {
  /** fetch was called (false: the SDK failed before sending). */
  sent: boolean;
  url: string | null;
  requestBody: string | null;
  status: number | null;
  /** Response headers as received (read into a record only when a failure is classified). */
  headers: Headers | null;
  bodyText: string | null;
  /** The body's bytes when bodyText does not hold them exactly (not UTF-8): http.ts decodeBody. */
  bodyBytes: Uint8Array | null;
  /** What fetch (or reading the body) threw. */
  fetchError: unknown;
  startedAt: number | null;
  endedAt: number | null;
}

export function newExchange(): Exchange {
  return { sent: false, url: null, requestBody: null, status: null, headers: null, bodyText: null, bodyBytes: null, fetchError: null, startedAt: null, endedAt: null };
}

/**
 * A fetch that records into `exchange`. The whole body is read here (so the SDK's timeout and abort
 * signal cover it) and handed back to the SDK as a fresh Response with the same status and headers.
 * `textOnly`: the caller reads the body only with text()/json() (never streams), so the body is not
 * wrapped in a new stream.
 */
export function recordingFetch(exchange: Exchange, base: FetchFn = nodeFetch, opts: { textOnly?: boolean } = {}): FetchFn {
  return async (input, init) => {
    exchange.sent = true;
    exchange.url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    exchange.requestBody = bodyToText(init?.body);
    exchange.startedAt = performance.now();
    try {
      const res = await base(input, init);
      exchange.status = res.status;
      exchange.headers = res.headers;
      const read = res instanceof ReadResponse ? { text: await res.text(), rawBytes: res.rawBytes } : decodeBody(new Uint8Array(await res.arrayBuffer()));
      const text = read.text;
      exchange.bodyText = text;
      exchange.bodyBytes = read.rawBytes;
      exchange.endedAt = performance.now();
      if (opts.textOnly) return res instanceof ReadResponse ? res : new ReadResponse(text, res);
      const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
      return new Response(nullBody ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
    } catch (error) {
      exchange.fetchError = error;
      exchange.endedAt = performance.now();
      throw error;
    }
  };
}

function headerRecord(headers: Headers | null): Record<string, string> {
  const out: Record<string, string> = {};
  headers?.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

function bodyToText(body: RequestInit['body'] | undefined): string | null {
  if (body == null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  return null;
}

/**
 * A body to store: its value, and the text itself when the text is JSON that cannot hold a secret (then
 * the database gets the text as it came: no redaction walk, no second stringify). `parsed`: the SDK's own
 * parse of this very text, when it made one (saves parsing it again).
 */
function storedBody(text: string, r: Redaction, parsed?: object): { value: unknown; json?: string } {
  let value: unknown = parsed;
  if (value === undefined) {
    try {
      value = JSON.parse(text);
    } catch {
      return { value: redactSecrets({ text }, r) };
    }
  }
  // a BOM is dropped by fetch's JSON parse but refused by jsonb
  if (text.charCodeAt(0) !== 0xfeff && !jsonMayHoldSecret(text, r)) return { value, json: text };
  try {
    return { value: redactSecrets(value, r) };
  } catch {
    // nested deeper than a walk can go: the text, redacted as text, is what is stored
    return { value: { text: redactText(text, r) } };
  }
}

function storedBodies(ctx: AttemptContext, parsedResponse?: object): Pick<AdapterResult, 'request' | 'response' | 'requestJson' | 'responseJson'> {
  const { exchange, redaction } = ctx;
  const req = exchange.requestBody != null ? storedBody(exchange.requestBody, redaction) : { value: redactSecrets(ctx.built, redaction) };
  const res = exchange.bodyText != null ? storedBody(exchange.bodyText, redaction, parsedResponse) : { value: null };
  // bytes the text does not hold exactly (not UTF-8) are stored as received — unless the text may hold a key:
  // then only the redacted text is stored
  const raw = exchange.bodyBytes && !(exchange.bodyText !== null && jsonMayHoldSecret(exchange.bodyText, redaction)) ? exchange.bodyBytes : undefined;
  return { request: req.value, requestJson: req.json, response: res.value, responseJson: res.json, ...(raw ? { responseRaw: raw } : {}) };
}

function latency(exchange: Exchange, t0: number): number {
  const ms = exchange.startedAt != null && exchange.endedAt != null ? exchange.endedAt - exchange.startedAt : performance.now() - t0;
  return Math.max(0, Math.round(ms));
}

export interface AttemptContext {
  exchange: Exchange;
  /** The provider's declared secrets: what everything stored of this attempt is redacted with. */
  redaction: Redaction;
  /** Reads the provider's message out of its error bodies. */
  errorMessage?: (body: unknown) => string | null;
  /** The body the adapter built (stored if the SDK never sent anything). */
  built: unknown;
  /** performance.now() when send() began. */
  t0: number;
  signal?: AbortSignal;
}

/** `parsedResponse`: the SDK's parse of the response body, when it returned the body as parsed JSON. */
/** A new attempt of `descriptor`'s provider: redacted with its secrets, errors read in its shape. */
export function newAttempt(descriptor: ProviderDescriptor, built: unknown, signal?: AbortSignal): AttemptContext {
  return {
    exchange: newExchange(),
    redaction: cachedRedaction(descriptorList(descriptor)),
    errorMessage: descriptor.errorShape?.message,
    built,
    t0: performance.now(),
    signal,
  };
}

// cachedRedaction keys its cache by the list's identity: one list per descriptor
const lists = new WeakMap<ProviderDescriptor, readonly ProviderDescriptor[]>();
function descriptorList(d: ProviderDescriptor): readonly ProviderDescriptor[] {
  let list = lists.get(d);
  if (!list) {
    list = [d];
    lists.set(d, list);
  }
  return list;
}

export function okResult(ctx: AttemptContext, answered: ModelAnswer, usage: TokenUsage | null, parsedResponse?: object): AdapterAnswer {
  const answer = withinNesting(answered);
  return {
    ...storedBodies(ctx, parsedResponse),
    httpStatus: ctx.exchange.status,
    latencyMs: latency(ctx.exchange, ctx.t0),
    usage,
    outcome: 'ok',
    // the model could echo a key it was shown; observations are stored too. `answerText` is redacted with
    // the rest: no key leaves the adapter, and scoring reads what is stored
    answer: redactSecrets(answer, ctx.redaction),
  };
}

/**
 * A transport failure as a value. `error` is what the SDK threw, or what the adapter found wrong with the
 * body the SDK returned. An abort through the caller's own signal (a cancelled run) is `lost`: the request may
 * have reached the provider, the answer was not awaited.
 */
export function failedResult(ctx: AttemptContext, error: unknown): ProviderTransportError {
  const { exchange } = ctx;
  const failure: TransportError = ctx.signal?.aborted
    ? { kind: 'lost', message: 'aborted by the caller before the answer arrived' }
    : classifyFailure(error, {
        status: exchange.status,
        headers: headerRecord(exchange.headers),
        bodyText: exchange.bodyText,
        fetchError: exchange.fetchError,
        sent: exchange.sent,
        url: exchange.url,
        redaction: ctx.redaction,
        errorMessage: ctx.errorMessage,
      });
  return {
    ...storedBodies(ctx),
    httpStatus: exchange.status,
    latencyMs: latency(exchange, ctx.t0),
    usage: null,
    outcome: 'transport_error',
    error: failure.kind === 'http_429' ? failure : { kind: failure.kind, message: failure.message },
  };
}

/** How deep a call's arguments may nest: deeper ones are unparseable (a malformed call), never walked or stored. */
export const MAX_ARGUMENT_NESTING = 512;

/** Whether a JSON value nests deeper than `limit`, found level by level (a hostile value may nest past the stack). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return true;
    const next: unknown[] = [];
    for (const v of level) if (v !== null && typeof v === 'object') for (const x of Array.isArray(v) ? v : Object.values(v)) next.push(x);
    level = next;
  }
  return false;
}

/** The answer with arguments nested past MAX_ARGUMENT_NESTING made unparseable (the scoring reads a malformed call). */
export function withinNesting<T extends { toolCalls: ToolCall[]; malformed: string | null }>(answer: T): T {
  const tooDeep = (c: ToolCall) => c.arguments !== null && nestsDeeperThan(c.arguments, MAX_ARGUMENT_NESTING);
  if (!answer.toolCalls.some(tooDeep)) return answer;
  return {
    ...answer,
    malformed: answer.malformed ?? 'unparseable_arguments',
    toolCalls: answer.toolCalls.map((c) => (tooDeep(c) ? { ...c, arguments: null } : c)),
  };
}

/** A failure decided before anything was sent (missing key or base URL): a configuration error. */
export function configErrorResult(descriptor: ProviderDescriptor, built: unknown, message: string): ProviderTransportError {
  return {
    request: redactSecrets(built, cachedRedaction(descriptorList(descriptor))),
    response: null,
    httpStatus: null,
    latencyMs: 0,
    usage: null,
    outcome: 'transport_error',
    error: { kind: 'http_4xx', message },
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Tool-argument text → object. Empty text counts as `{}` (servers send "" for a call without arguments);
 * anything that is not a JSON object is unparseable.
 */
export function parseArguments(raw: string): Record<string, unknown> | null {
  if (raw.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A tool result's text on the wire: a string as it is, anything else as its JSON text. */
export function toolResultText(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result);
}
