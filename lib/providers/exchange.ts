import type { Observation } from '../spec/observation';
import type { ProviderResult } from './types';
import { classifyFailure, type TransportError } from './errors';
import { redactSecrets } from './redact';

// One attempt = one HTTP exchange. Both SDKs accept a custom `fetch`; this one records the exact request
// body as sent and the response (status, headers, body text) as received, so that what is stored is what
// went over the wire, not the SDK's later interpretation of it.

export interface Exchange {
  /** fetch was called (false: the SDK failed before sending). */
  sent: boolean;
  url: string | null;
  requestBody: string | null;
  status: number | null;
  /** Response headers, lower-case names. */
  headers: Record<string, string>;
  bodyText: string | null;
  /** What fetch (or reading the body) threw. */
  fetchError: unknown;
  startedAt: number | null;
  endedAt: number | null;
}

export function newExchange(): Exchange {
  return { sent: false, url: null, requestBody: null, status: null, headers: {}, bodyText: null, fetchError: null, startedAt: null, endedAt: null };
}

type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that records into `exchange`. The whole body is read here (so the SDK's timeout and abort
 * signal cover it) and handed back to the SDK as a fresh Response with the same status and headers.
 */
export function recordingFetch(exchange: Exchange, base: FetchFn = (input, init) => fetch(input, init)): FetchFn {
  return async (input, init) => {
    exchange.sent = true;
    exchange.url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    exchange.requestBody = bodyToText(init?.body);
    exchange.startedAt = performance.now();
    try {
      const res = await base(input, init);
      exchange.status = res.status;
      const headers: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      exchange.headers = headers;
      const text = await res.text();
      exchange.bodyText = text;
      exchange.endedAt = performance.now();
      const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
      return new Response(nullBody ? null : text, { status: res.status, statusText: res.statusText, headers: res.headers });
    } catch (error) {
      exchange.fetchError = error;
      exchange.endedAt = performance.now();
      throw error;
    }
  };
}

function bodyToText(body: RequestInit['body'] | undefined): string | null {
  if (body == null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(body);
  if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
  return null;
}

function parseStored(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

/** The response body as received (parsed JSON, `{ text }` when not JSON, null when none), redacted. */
export function storedResponse(exchange: Exchange): unknown {
  return exchange.bodyText == null ? null : redactSecrets(parseStored(exchange.bodyText));
}

/** The request body as sent, redacted; `built` when the SDK never sent it. */
export function storedRequest(exchange: Exchange, built: unknown): unknown {
  return redactSecrets(exchange.requestBody != null ? parseStored(exchange.requestBody) : built);
}

function latency(exchange: Exchange, t0: number): number {
  const ms = exchange.startedAt != null && exchange.endedAt != null ? exchange.endedAt - exchange.startedAt : performance.now() - t0;
  return Math.max(0, Math.round(ms));
}

export interface AttemptContext {
  exchange: Exchange;
  /** The body the adapter built (stored if the SDK never sent anything). */
  built: unknown;
  /** performance.now() when send() began. */
  t0: number;
  signal?: AbortSignal;
}

export function okResult(
  ctx: AttemptContext,
  observation: Observation,
  usage: ProviderResult['usage'],
): ProviderResult {
  return {
    request: storedRequest(ctx.exchange, ctx.built),
    response: storedResponse(ctx.exchange),
    httpStatus: ctx.exchange.status,
    latencyMs: latency(ctx.exchange, ctx.t0),
    usage,
    outcome: 'ok',
    // the model could echo a key it was shown; observations are stored too
    observation: redactSecrets(observation),
  };
}

/**
 * A transport failure as a value. `error` is what the SDK threw, or what the adapter found wrong with the
 * body the SDK returned. An abort through the caller's own signal (a cancelled run) is `lost`: the request may
 * have reached the provider, the answer was not awaited.
 */
export function failedResult(ctx: AttemptContext, error: unknown): ProviderResult {
  const { exchange } = ctx;
  const failure: TransportError = ctx.signal?.aborted
    ? { kind: 'lost', message: 'aborted by the caller before the answer arrived' }
    : classifyFailure(error, {
        status: exchange.status,
        headers: exchange.headers,
        bodyText: exchange.bodyText,
        fetchError: exchange.fetchError,
        sent: exchange.sent,
        url: exchange.url,
      });
  return {
    request: storedRequest(exchange, ctx.built),
    response: storedResponse(exchange),
    httpStatus: exchange.status,
    latencyMs: latency(exchange, ctx.t0),
    usage: null,
    outcome: 'transport_error',
    error: failure.kind === 'http_429' ? failure : { kind: failure.kind, message: failure.message },
  };
}

/** A failure decided before anything was sent (missing key or base URL): a configuration error. */
export function configErrorResult(built: unknown, message: string): ProviderResult {
  return {
    request: redactSecrets(built),
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
