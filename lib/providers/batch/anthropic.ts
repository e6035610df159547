import Anthropic from '@anthropic-ai/sdk';
import type { AdapterResult } from '../../schema/request';
import { buildAnthropicBody, reshapeAnthropicResponse } from '../anthropic';
import { nodeFetch, type FetchFn, type ReadResponse } from '../http';
import { jsonValueSpan } from '../../json/span';
import { answerResult, answerText, itemErrorResult, messageOf, requestsById } from './common';
import { unansweredResult, type BatchConnection, type BatchPoll, type BatchVendor } from './types';

// Anthropic's Message Batches: messages.batches.create({ requests: [{ custom_id, params }] }), polled with
// retrieve until processing_status is "ended"; results() streams the JSONL of results_url, each line's
// result one of succeeded / errored / canceled / expired.

/**
 * A fetch whose responses carry their whole body as one chunk. The SDK reads the results JSONL with a line
 * decoder that copies and rescans everything buffered on every chunk it is given: for the 64 KiB chunks of a
 * stream that is quadratic in a line's length, and a results file with answers of 5 MB each took minutes of
 * blocked event loop (docs/faults.md › What a provider sends is kept). Given one chunk, it splits the lines in
 * one pass. The body is read whole anyway: the SDK collects every line before results() returns.
 */
function wholeBodyFetch(onBody?: (bytes: Uint8Array) => void): FetchFn {
  return async (input, init) => {
    const res = (await nodeFetch(input, init)) as ReadResponse;
    const bytes = (res.rawBytes ?? Buffer.from(await res.text(), 'utf8')) as Uint8Array<ArrayBuffer>;
    onBody?.(bytes);
    const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
    return new Response(nullBody ? null : bytes, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

// no SDK retries: a retried create after a lost answer could make a second batch (docs/batch.md › Exactly once)
function client(conn: BatchConnection, onBody?: (bytes: Uint8Array) => void): Anthropic {
  return new Anthropic({ apiKey: conn.apiKey ?? '', authToken: null, baseURL: conn.baseUrl, maxRetries: 0, logLevel: 'off', fetch: wholeBodyFetch(onBody) });
}

/** Each line of a results file by its custom_id, as text decoded as the SDK decodes it (UTF-8, bad bytes U+FFFD). */
function linesById(bytes: Uint8Array | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!bytes) return out;
  for (const raw of new TextDecoder().decode(bytes).split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const id = jsonValueSpan(line, ['custom_id']);
    if (id === null) continue;
    const parsed: unknown = JSON.parse(id);
    if (typeof parsed === 'string') out.set(parsed, line);
  }
  return out;
}

const STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  rate_limit_error: 429,
  overloaded_error: 529,
  api_error: 500,
};

export const anthropicBatchVendor: BatchVendor = {
  wire: 'anthropic-messages',
  body: (request, settings) => buildAnthropicBody(request, settings),
  async submit(conn, settings, items) {
    const batch = await client(conn).messages.batches.create({
      requests: items.map((i) => ({ custom_id: i.customId, params: buildAnthropicBody(i.request, settings) })),
    });
    return batch.id;
  },
  async poll(conn, batchId): Promise<BatchPoll> {
    const b = await client(conn).messages.batches.retrieve(batchId);
    const rc = b.request_counts;
    const total = rc.processing + rc.succeeded + rc.errored + rc.canceled + rc.expired;
    const failed = rc.errored + rc.canceled + rc.expired;
    if (b.processing_status !== 'ended') return { state: 'in_progress', total, succeeded: rc.succeeded, failed };
    // Anthropic ends every batch the same way; its counts tell why items went unanswered
    const state = rc.expired > 0 && rc.succeeded + rc.errored === 0 ? 'expired' : rc.canceled > 0 && rc.succeeded + rc.errored === 0 ? 'cancelled' : 'completed';
    return { state, total, succeeded: rc.succeeded, failed };
  },
  async results(conn, batchId, items, settings) {
    const requests = requestsById(items);
    const out = new Map<string, AdapterResult>();
    // the last body the client reads is the results file: each answer is kept as its line holds it
    let received: Uint8Array | null = null;
    const results = await client(conn, (bytes) => (received = bytes)).messages.batches.results(batchId);
    const texts = linesById(received);
    for await (const line of results) {
      const request = requests.get(line.custom_id);
      if (!request) continue;
      const body = buildAnthropicBody(request, settings);
      const r = line.result;
      const text = texts.get(line.custom_id);
      if (r.type === 'succeeded')
        out.set(line.custom_id, answerResult(body, r.message, reshapeAnthropicResponse(r.message, request), answerText(text, ['result', 'message'])));
      else if (r.type === 'errored') {
        const kind = (r.error as { error?: { type?: string } }).error?.type ?? 'api_error';
        out.set(line.custom_id, itemErrorResult(body, r.error, STATUS[kind] ?? 500, messageOf(r.error), answerText(text, ['result', 'error'])));
      } else out.set(line.custom_id, unansweredResult(body, r.type === 'expired' ? 'expired' : 'cancelled'));
    }
    return out;
  },
  async cancel(conn, batchId) {
    await client(conn).messages.batches.cancel(batchId);
  },
};
