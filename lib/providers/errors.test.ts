import { ApiError } from '@google/genai';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEY, setProviderEnv } from '../testing/provider-fixtures';
import { configuredRedaction } from './secrets';
import { bodyExcerpt, classifyFailure, kindForStatus, parseRetryAfter } from './errors';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

let restore: () => void;
beforeAll(() => {
  restore = setProviderEnv({ OPENAI_API_KEY: FAKE_KEY });
});
afterAll(() => restore());

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');
  it('reads delay-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('0', now)).toBe(0);
  });
  it('reads an HTTP-date relative to now; a past date is 0', () => {
    expect(parseRetryAfter('Mon, 30 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 30 Nov 2026 11:00:00 GMT', now)).toBe(0);
  });
  it('is null when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
  });
});

describe('classifyFailure: HTTP statuses', () => {
  it('maps statuses to kinds', () => {
    expect(kindForStatus(429)).toBe('http_429');
    expect([500, 502, 503, 504].map(kindForStatus)).toEqual(['http_5xx', 'http_5xx', 'http_5xx', 'http_5xx']);
    expect([400, 401, 403, 404, 422].map(kindForStatus)).toEqual(['http_4xx', 'http_4xx', 'http_4xx', 'http_4xx', 'http_4xx']);
  });
  it('429 from the recorded exchange carries Retry-After', () => {
    const r = classifyFailure(new Error('429'), { status: 429, headers: { 'retry-after': '12' }, bodyText: '{"error":{"message":"slow down"}}' });
    expect(r).toEqual({ kind: 'http_429', message: 'HTTP 429: slow down', retryAfterMs: 12_000 });
  });
  it('429 without Retry-After → retryAfterMs null', () => {
    expect(classifyFailure(null, { status: 429 })).toMatchObject({ kind: 'http_429', retryAfterMs: null });
  });
  it("uses the SDK error's status and headers when no exchange was recorded (openai APIError, genai ApiError)", () => {
    const rate = APIError.generate(429, { error: { message: 'rate' } }, 'rate', new Headers({ 'retry-after': '3' }));
    expect(classifyFailure(rate)).toMatchObject({ kind: 'http_429', retryAfterMs: 3000 });
    expect(classifyFailure(new ApiError({ message: 'boom', status: 503 })).kind).toBe('http_5xx');
    expect(classifyFailure(new ApiError({ message: 'no', status: 403 })).kind).toBe('http_4xx');
  });
  it('names the host and the provider message', () => {
    const r = classifyFailure(null, {
      status: 404,
      url: 'https://api.example.test/v1/chat/completions',
      bodyText: '{"error":{"message":"The model `x` does not exist"}}',
    });
    expect(r.message).toBe('HTTP 404 from api.example.test: The model `x` does not exist');
  });
});

describe('classifyFailure: network causes', () => {
  it('DNS: ENOTFOUND, EAI_AGAIN in the cause chain', () => {
    expect(classifyFailure(fetchFailed(withCode('getaddrinfo ENOTFOUND nowhere.invalid', 'ENOTFOUND'))).kind).toBe('dns');
    expect(classifyFailure(new APIConnectionError({ cause: fetchFailed(withCode('getaddrinfo EAI_AGAIN x', 'EAI_AGAIN')) })).kind).toBe('dns');
  });
  it('connect: ECONNREFUSED, also inside an AggregateError (IPv4 + IPv6 attempts)', () => {
    expect(classifyFailure(fetchFailed(withCode('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'))).kind).toBe('connect');
    const agg = Object.assign(new AggregateError([withCode('a', 'ECONNREFUSED'), withCode('b', 'ECONNREFUSED')], ''), { code: 'ECONNREFUSED' });
    expect(classifyFailure(fetchFailed(agg)).kind).toBe('connect');
    expect(classifyFailure(fetchFailed(withCode('connect timeout', 'UND_ERR_CONNECT_TIMEOUT'))).kind).toBe('connect');
  });
  it('reset: ECONNRESET, UND_ERR_SOCKET, "socket hang up"', () => {
    expect(classifyFailure(fetchFailed(withCode('read ECONNRESET', 'ECONNRESET'))).kind).toBe('reset');
    expect(classifyFailure(fetchFailed(withCode('other side closed', 'UND_ERR_SOCKET'))).kind).toBe('reset');
    expect(classifyFailure(new Error('socket hang up')).kind).toBe('reset');
  });
  it('timeout: abort/timeout errors, the openai timeout class, undici header timeouts', () => {
    expect(classifyFailure(new DOMException('This operation was aborted', 'AbortError')).kind).toBe('timeout');
    expect(classifyFailure(new DOMException('signal timed out', 'TimeoutError')).kind).toBe('timeout');
    expect(classifyFailure(new APIConnectionTimeoutError()).kind).toBe('timeout');
    expect(classifyFailure(fetchFailed(withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT'))).kind).toBe('timeout');
  });
  it("prefers the fetch error recorded by the exchange over the SDK's wrapper", () => {
    const r = classifyFailure(new APIConnectionError({ message: 'Connection error.' }), {
      status: null,
      fetchError: fetchFailed(withCode('getaddrinfo ENOTFOUND api.example.test', 'ENOTFOUND')),
      sent: true,
      url: 'http://api.example.test/v1/chat/completions',
    });
    expect(r).toEqual({ kind: 'dns', message: 'could not resolve api.example.test: getaddrinfo ENOTFOUND api.example.test' });
  });
});

describe('classifyFailure: bodies and fallbacks', () => {
  it('a 2xx whose body could not be read → malformed_body', () => {
    let parseError: unknown;
    try {
      JSON.parse('<html>');
    } catch (e) {
      parseError = e;
    }
    const r = classifyFailure(parseError, { status: 200, bodyText: '<html>' });
    expect(r.kind).toBe('malformed_body');
    expect(r.message).toContain('<html>');
  });
  it('an unknown failure after sending → connect; before sending → http_4xx (configuration)', () => {
    expect(classifyFailure(new Error('weird'), { status: null, sent: true }).kind).toBe('connect');
    expect(classifyFailure(new Error('Missing credentials'), { status: null, sent: false }).kind).toBe('http_4xx');
  });
  it('never repeats a key in its message', () => {
    const redaction = configuredRedaction();
    const r = classifyFailure(null, { status: 401, bodyText: JSON.stringify({ error: { message: `bad key ${FAKE_KEY}` } }), redaction });
    expect(r.message).not.toContain(FAKE_KEY);
    expect(r.message).toContain('[REDACTED]');
    const n = classifyFailure(fetchFailed(withCode(`getaddrinfo ENOTFOUND ${FAKE_KEY}.invalid`, 'ENOTFOUND')), { status: null, redaction });
    expect(n.message).not.toContain(FAKE_KEY);
  });
  it('bodyExcerpt prefers the provider error message, else squeezes the text', () => {
    expect(bodyExcerpt('{"error":{"message":"quota"}}')).toBe('quota');
    expect(bodyExcerpt('[{"error":{"code":429,"message":"exhausted"}}]')).toBe('exhausted');
    expect(bodyExcerpt('  a \n b  ')).toBe('a b');
    expect(bodyExcerpt('x'.repeat(400)).length).toBe(301);
  });
});
