import { describe, expect, it } from 'vitest';
import type { TransportErrorKind } from '../schema/run';
import { describeProviderFailure } from './precheck';
import type { ProviderTransportError } from '../schema/request';

function failed(kind: TransportErrorKind, httpStatus: number | null, message: string, extra: Partial<ProviderTransportError> = {}): ProviderTransportError {
  return {
    request: { model: 'gpt-test' },
    response: null,
    httpStatus,
    latencyMs: 5,
    usage: null,
    outcome: 'transport_error',
    error: { kind, message },
    ...extra,
  };
}

describe('describeProviderFailure', () => {
  it('401/403: the key was rejected, naming the variable to check', () => {
    expect(describeProviderFailure(failed('http_4xx', 401, 'HTTP 401: bad'), 'openai')).toMatch(/^the API key was rejected \(HTTP 401\): check OPENAI_API_KEY/);
    expect(describeProviderFailure(failed('http_4xx', 403, 'HTTP 403'), 'gemini')).toMatch(/API key was rejected.*GEMINI_API_KEY or GOOGLE_API_KEY/);
  });
  it('openai-compatible: names the variable that provider reads, never OPENAI_API_KEY', () => {
    const words = describeProviderFailure(failed('http_4xx', 401, 'HTTP 401'), 'openai-compatible');
    expect(words).toMatch(/check OPENAI_COMPATIBLE_API_KEY \(if the server requires a key\)/);
    expect(words).not.toMatch(/OPENAI_API_KEY/);
  });
  it('404: unknown model or wrong base URL, naming the model', () => {
    expect(describeProviderFailure(failed('http_4xx', 404, 'HTTP 404'), 'openai')).toMatch(/unknown model or wrong base URL.*"gpt-test"/);
  });
  it('dns/connect: could not reach the host', () => {
    expect(describeProviderFailure(failed('dns', null, 'could not resolve api.nowhere.test: getaddrinfo ENOTFOUND'), 'openai')).toMatch(
      /^could not reach api\.nowhere\.test: the host name does not resolve/,
    );
    expect(describeProviderFailure(failed('connect', null, 'x'), 'openai-compatible', { baseUrl: 'http://localhost:11434/v1' })).toMatch(
      /^could not reach localhost:11434: nothing accepted the connection/,
    );
  });
  it('429: rate-limited, with the wait the server asked for', () => {
    const r = failed('http_429', 429, 'HTTP 429', { error: { kind: 'http_429', message: 'HTTP 429', retryAfterMs: 20_000 } });
    expect(describeProviderFailure(r, 'gemini')).toMatch(/^rate-limited \(HTTP 429\).*wait 20 s/);
  });
  it('other kinds have words too, and a configuration error before sending is named so', () => {
    expect(describeProviderFailure(failed('http_5xx', 503, 'HTTP 503'), 'openai')).toMatch(/server error/);
    expect(describeProviderFailure(failed('timeout', null, 't'), 'openai')).toMatch(/no answer within the timeout/);
    expect(describeProviderFailure(failed('reset', null, 'r'), 'openai')).toMatch(/connection was closed/);
    expect(describeProviderFailure(failed('malformed_body', 200, 'm'), 'gemini')).toMatch(/not in gemini's format/);
    expect(describeProviderFailure(failed('http_4xx', null, 'OPENAI_API_KEY is not set'), 'openai')).toMatch(/configuration problem.*OPENAI_API_KEY is not set/);
  });
});
