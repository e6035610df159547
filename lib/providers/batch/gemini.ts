import { GoogleGenAI, type BatchJob } from '@google/genai';
import type { AdapterResult } from '../../schema/request';
import { buildGeminiRequest, reshapeGeminiResponse } from '../gemini';
import { answerResult, itemErrorResult, messageOf, requestsById } from './common';
import { unansweredResult, type BatchConnection, type BatchPoll, type BatchVendor, type ProviderBatchState } from './types';

// Gemini batch mode: ai.batches.create({ model, src: [inlined requests] }) with the custom id as each
// request's metadata.key; polled with batches.get; answers inlined in the batch (dest.inlinedResponses),
// each with its metadata, a response or an error.

const STATES: Record<string, ProviderBatchState> = {
  JOB_STATE_PENDING: 'accepted',
  JOB_STATE_QUEUED: 'accepted',
  JOB_STATE_RUNNING: 'in_progress',
  JOB_STATE_SUCCEEDED: 'completed',
  JOB_STATE_PARTIALLY_SUCCEEDED: 'completed',
  JOB_STATE_EXPIRED: 'expired',
  JOB_STATE_CANCELLED: 'cancelled',
  JOB_STATE_CANCELLING: 'in_progress',
  JOB_STATE_FAILED: 'failed',
};

function client(conn: BatchConnection): GoogleGenAI {
  return new GoogleGenAI({ apiKey: conn.apiKey ?? '', vertexai: false, httpOptions: { baseUrl: conn.baseUrl } });
}

const stateOf = (job: BatchJob): ProviderBatchState => STATES[String(job.state)] ?? 'in_progress';

export const geminiBatchVendor: BatchVendor = {
  wire: 'gemini-generate-content',
  body(request, settings) {
    const { contents, config } = buildGeminiRequest(request, settings);
    return { model: settings.model, contents, ...config };
  },
  async submit(conn, settings, items) {
    const job = await client(conn).batches.create({
      model: settings.model,
      src: items.map((i) => {
        const { contents, config } = buildGeminiRequest(i.request, settings);
        return { contents, config, metadata: { key: i.customId } };
      }),
      config: { displayName: `tclab ${items[0]?.customId ?? ''}` },
    });
    if (!job.name) throw new Error('gemini: the batch has no name');
    return job.name;
  },
  async poll(conn, batchId): Promise<BatchPoll> {
    const job = await client(conn).batches.get({ name: batchId });
    const responses = job.dest?.inlinedResponses ?? [];
    const failed = responses.filter((r) => r.error).length;
    return { state: stateOf(job), total: responses.length, succeeded: responses.length - failed, failed };
  },
  async results(conn, batchId, items, settings) {
    const job = await client(conn).batches.get({ name: batchId });
    const requests = requestsById(items);
    const out = new Map<string, AdapterResult>();
    for (const r of job.dest?.inlinedResponses ?? []) {
      const key = r.metadata?.key;
      const request = key === undefined ? undefined : requests.get(key);
      if (key === undefined || !request) continue;
      const body = geminiBatchVendor.body(request, settings);
      if (r.response) out.set(key, answerResult(body, r.response, reshapeGeminiResponse(r.response, request)));
      else {
        const code = typeof r.error?.code === 'number' ? r.error.code : null;
        out.set(key, itemErrorResult(body, r.error ?? null, code, messageOf(r.error)));
      }
    }
    const state = stateOf(job);
    if (state === 'expired' || state === 'cancelled') {
      for (const i of items) if (!out.has(i.customId)) out.set(i.customId, unansweredResult(geminiBatchVendor.body(i.request, settings), state));
    }
    return out;
  },
  async cancel(conn, batchId) {
    await client(conn).batches.cancel({ name: batchId });
  },
};
