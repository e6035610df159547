import type { AdapterResult, ProviderRequest, TokenUsage } from '../../schema/request';
import type { ModelAnswer } from '../../schema/observation';
import { kindForStatus } from '../errors';
import { withinNesting } from '../exchange';
import { jsonValueSpan } from '../../json/span';

/**
 * The text of a results line's answer as the vendor wrote it (`path` inside the line): the record keeps it
 * byte for byte, as it keeps a body received one request at a time (docs/faults.md › What a provider sends is
 * kept) — also when its parsed value nests too deep to be written back as text.
 */
export function answerText(line: string | undefined, path: readonly string[]): { responseJson: string } | Record<string, never> {
  const text = line === undefined ? null : jsonValueSpan(line, path);
  return text === null ? {} : { responseJson: text };
}

/**
 * A result line's answer → the adapter's normal answer (latency: the batch's, not an exchange's, so 0).
 * `kept`: the answer's text as received (answerText).
 */
export function answerResult(
  body: unknown,
  response: unknown,
  reshaped: { answer: ModelAnswer; usage: TokenUsage | null } | null,
  kept: { responseJson?: string } = {},
): AdapterResult {
  if (!reshaped) {
    return {
      outcome: 'transport_error',
      error: { kind: 'malformed_body', message: 'the batch result is not a model answer' },
      request: body,
      response,
      ...kept,
      httpStatus: 200,
      latencyMs: 0,
      usage: null,
    };
  }
  return { outcome: 'ok', answer: withinNesting(reshaped.answer), usage: reshaped.usage, request: body, response, ...kept, httpStatus: 200, latencyMs: 0 };
}

/** A result line's error → the adapter's normal transport failure, by the status the vendor gave. */
export function itemErrorResult(body: unknown, response: unknown, status: number | null, message: string, kept: { responseJson?: string } = {}): AdapterResult {
  return {
    outcome: 'transport_error',
    error: { kind: status === null ? 'http_5xx' : kindForStatus(status), message },
    request: body,
    response,
    ...kept,
    httpStatus: status,
    latencyMs: 0,
    usage: null,
  };
}

export function requestsById(items: readonly { customId: string; request: ProviderRequest }[]): Map<string, ProviderRequest> {
  return new Map(items.map((i) => [i.customId, i.request]));
}

export function messageOf(e: unknown): string {
  if (e !== null && typeof e === 'object') {
    const o = e as Record<string, unknown>;
    if (typeof o.message === 'string') return o.message;
    if (o.error !== undefined) return messageOf(o.error);
  }
  return typeof e === 'string' ? e : JSON.stringify(e);
}
