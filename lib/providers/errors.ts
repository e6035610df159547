import type { TransportFailure } from '../schema/request';
import type { TransportErrorKind } from '../schema/run';
import { makeRedaction, redactText as redactWith, type Redaction } from './redact';

// The transport taxonomy (docs/design.md#vocabulary): why an HTTP exchange produced no model answer. Model-side problems
// (malformed calls, refusals) are observations, never classified here.

export type TransportError = TransportFailure;

/** Credential headers only, no key values: for callers that classify without a provider at hand. */
const PATTERNS_ONLY: Redaction = makeRedaction([]);

/** What the recording fetch saw of one exchange (see exchange.ts). */
export interface ExchangeFacts {
  /** HTTP status of the response, null when none arrived. */
  status: number | null;
  /** Response headers, lower-case names. */
  headers?: Record<string, string>;
  /** Response body text, when it was read. */
  bodyText?: string | null;
  /** What fetch itself threw (network failure, abort, body read failure), if anything. */
  fetchError?: unknown;
  /** Whether fetch was called at all (false: the SDK failed while building the request). */
  sent?: boolean;
  /** The URL the request went to (for messages; redacted before use). */
  url?: string | null;
  /** What messages are redacted with: the provider's declared secrets (default: credential patterns only). */
  redaction?: Redaction;
  /** Reads the provider's own message out of an error body (its descriptor's error shape). */
  errorMessage?: (body: unknown) => string | null;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA']);
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ESOCKETTIMEDOUT']);
const TIMEOUT_NAMES = new Set(['AbortError', 'TimeoutError', 'APIConnectionTimeoutError']);
const RESET_MESSAGES = [/socket hang up/i, /other side closed/i, /\bterminated\b/i, /connection reset/i];

/** Retry-After: delay-seconds or an HTTP-date. Returns milliseconds (≥ 0), or null when absent/unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | null {
  if (value == null) return null;
  const v = value.trim();
  if (v === '') return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // an HTTP-date always names its month ("Wed, 21 Oct 2026 07:28:00 GMT"); Date.parse alone reads "-5" as a year
  if (!/[a-z]{3}/i.test(v)) return null;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now);
}

/** The kind for an HTTP status that is not a success. */
export function kindForStatus(status: number): TransportErrorKind {
  if (status === 429) return 'http_429';
  if (status >= 500) return 'http_5xx';
  return 'http_4xx';
}

interface ErrorFacts {
  names: string[];
  codes: string[];
  messages: string[];
}

/** Walks an error and its `cause` chain (and AggregateError members), collecting names, codes, messages. */
export function errorFacts(error: unknown): ErrorFacts {
  const facts: ErrorFacts = { names: [], codes: [], messages: [] };
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): void => {
    if (e == null || depth > 8 || seen.has(e)) return;
    seen.add(e);
    if (typeof e === 'string') {
      facts.messages.push(e);
      return;
    }
    if (typeof e !== 'object') return;
    const rec = e as Record<string, unknown>;
    if (typeof rec.name === 'string') facts.names.push(rec.name);
    if (typeof rec.code === 'string') facts.codes.push(rec.code);
    if (typeof rec.errno === 'string') facts.codes.push(rec.errno);
    if (typeof rec.message === 'string' && rec.message) facts.messages.push(rec.message);
    if (e instanceof Error && e.constructor?.name) facts.names.push(e.constructor.name);
    visit(rec.cause, depth + 1);
    if (Array.isArray(rec.errors)) for (const inner of rec.errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return facts;
}

function statusOf(error: unknown): number | null {
  if (error && typeof error === 'object' && 'status' in error) {
    const s = (error as { status: unknown }).status;
    if (typeof s === 'number' && s >= 100 && s <= 599) return s;
  }
  return null;
}

function headersOf(error: unknown): Record<string, string> {
  if (error && typeof error === 'object' && 'headers' in error) {
    const h = (error as { headers: unknown }).headers;
    if (h instanceof Headers) return Object.fromEntries([...h.entries()].map(([k, v]) => [k.toLowerCase(), v]));
    if (h && typeof h === 'object') {
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(h)) if (typeof v === 'string') out[k.toLowerCase()] = v;
      return out;
    }
  }
  return {};
}

function hostOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** A short, readable excerpt of an error body: the provider's own `error.message` when it has one. */
export function bodyExcerpt(bodyText: string | null | undefined, max = 300, errorMessage: (body: unknown) => string | null = genericErrorMessage): string {
  if (!bodyText) return '';
  try {
    const message = errorMessage(JSON.parse(bodyText));
    if (message !== null) return message.slice(0, max);
  } catch {
    // not JSON: fall through to the raw text
  }
  const flat = bodyText.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/** `{error: "…"}` or `{error: {message: "…"}}`, also inside an array. */
function genericErrorMessage(body: unknown): string | null {
  const list: unknown[] = Array.isArray(body) ? body : [body];
  for (const item of list) {
    if (item && typeof item === 'object' && 'error' in item) {
      const err = (item as { error: unknown }).error;
      if (typeof err === 'string') return err;
      if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') return err.message;
    }
  }
  return null;
}

const has = (list: string[], set: Set<string>) => list.find((c) => set.has(c));

/**
 * Classifies a failed exchange. `error` is what the SDK threw (or null when the SDK returned something
 * unreadable); `exchange` is what the recording fetch saw. Precedence: an HTTP error status; then network
 * causes (timeout, DNS, connect, reset) found anywhere in the cause chains; then a 2xx whose body could not
 * be read (malformed_body); otherwise `connect` if the request left, `http_4xx` if it never did (the
 * request could not be built: a configuration error). Messages are redacted.
 */
export function classifyFailure(error: unknown, exchange: ExchangeFacts = { status: null }, now: number = Date.now()): TransportError {
  const redaction = exchange.redaction ?? PATTERNS_ONLY;
  const redactText = (s: string) => redactWith(s, redaction);
  const readMessage = exchange.errorMessage ?? genericErrorMessage;
  const status = exchange.status ?? statusOf(error);
  const host = hostOf(exchange.url);
  const where = host ? ` from ${host}` : '';
  if (status != null && (status < 200 || status >= 300)) {
    const kind = kindForStatus(status);
    const headers = { ...headersOf(error), ...(exchange.headers ?? {}) };
    const excerpt = bodyExcerpt(exchange.bodyText ?? null, 300, readMessage) || firstMessage(error);
    const message = redactText(`HTTP ${status}${where}${excerpt ? `: ${excerpt}` : ''}`);
    if (kind !== 'http_429') return { kind, message };
    return { kind, message, retryAfterMs: parseRetryAfter(headers['retry-after'], now) };
  }

  const facts = mergeFacts(errorFacts(exchange.fetchError), errorFacts(error));
  const detail = (code?: string) => redactText(`${innermost(facts)}${code && !innermost(facts).includes(code) ? ` (${code})` : ''}`);
  const to = host ? ` ${host}` : '';

  const timeoutCode = has(facts.codes, TIMEOUT_CODES);
  if (timeoutCode || facts.names.some((n) => TIMEOUT_NAMES.has(n))) {
    return { kind: 'timeout', message: redactText(`no answer${where} before the timeout: ${detail(timeoutCode)}`) };
  }
  const dnsCode = has(facts.codes, DNS_CODES);
  if (dnsCode) return { kind: 'dns', message: redactText(`could not resolve${to || ' the host'}: ${detail(dnsCode)}`) };
  const connectCode = has(facts.codes, CONNECT_CODES);
  if (connectCode) return { kind: 'connect', message: redactText(`could not connect to${to || ' the server'}: ${detail(connectCode)}`) };
  const resetCode = has(facts.codes, RESET_CODES);
  if (resetCode || facts.messages.some((m) => RESET_MESSAGES.some((r) => r.test(m)))) {
    return { kind: 'reset', message: redactText(`the connection${to ? ` to${to}` : ''} was reset: ${detail(resetCode)}`) };
  }
  if (status != null) {
    const excerpt = bodyExcerpt(exchange.bodyText ?? null, 120, readMessage);
    return {
      kind: 'malformed_body',
      message: redactText(
        `HTTP ${status}${where} with a body that is not a readable answer: ${innermost(facts) || 'unexpected shape'}${excerpt ? ` — body starts: ${excerpt}` : ''}`,
      ),
    };
  }
  if (exchange.sent === false) return { kind: 'http_4xx', message: redactText(`the request could not be built: ${innermost(facts)}`) };
  return { kind: 'connect', message: redactText(`no response${where}: ${detail()}`) };
}

function mergeFacts(a: ErrorFacts, b: ErrorFacts): ErrorFacts {
  return { names: [...a.names, ...b.names], codes: [...a.codes, ...b.codes], messages: [...a.messages, ...b.messages] };
}

/** The most specific message: the last one in the cause chain that is not a generic wrapper. */
function innermost(facts: ErrorFacts): string {
  const generic = /^(fetch failed|connection error\.?|request was aborted\.?)$/i;
  const specific = facts.messages.filter((m) => !generic.test(m.trim()));
  return (specific[specific.length - 1] ?? facts.messages[0] ?? 'unknown error').slice(0, 300);
}

function firstMessage(error: unknown): string {
  return errorFacts(error).messages[0]?.slice(0, 300) ?? '';
}
