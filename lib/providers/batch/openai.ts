import OpenAI, { toFile } from 'openai';
import type { AdapterResult } from '../../schema/request';
import type { RunSettings } from '../../schema/run';
import { buildOpenAIBody, reshapeOpenAIResponse, type MaxTokensField } from '../openai';
import { answerResult, answerText, itemErrorResult, messageOf, requestsById } from './common';
import { unansweredResult, type BatchConnection, type BatchItemInput, type BatchPoll, type BatchVendor, type ProviderBatchState } from './types';

// OpenAI's Batch API: a JSONL file (purpose "batch") of `{custom_id, method, url, body}` lines uploaded with
// files.create, a batch over /v1/chat/completions (24 h window), polled with batches.retrieve; answers in the
// output file, failed and expired items in the error file (files.content).

const STATES: Record<string, ProviderBatchState> = {
  validating: 'accepted',
  in_progress: 'in_progress',
  finalizing: 'in_progress',
  cancelling: 'in_progress',
  completed: 'completed',
  expired: 'expired',
  cancelled: 'cancelled',
  failed: 'failed',
};

// no SDK retries: a retried create after a lost answer could make a second batch (docs/batch.md › Exactly once)
function client(conn: BatchConnection): OpenAI {
  return new OpenAI({ apiKey: conn.apiKey ?? 'no-key', baseURL: conn.baseUrl, maxRetries: 0, organization: null, project: null, logLevel: 'off' });
}

interface Line {
  custom_id: string;
  response: { status_code: number; body: unknown } | null;
  error: { code?: string; message?: string } | null;
}

/** The file's lines, each parsed and as its text. */
async function readLines(c: OpenAI, fileId: string | null | undefined): Promise<{ line: Line; text: string }[]> {
  if (!fileId) return [];
  const text = await (await c.files.content(fileId)).text();
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => ({ line: JSON.parse(l) as Line, text: l }));
}

export function openaiBatchVendor(maxTokensField: MaxTokensField = 'max_completion_tokens'): BatchVendor {
  const vendor: BatchVendor = {
    wire: 'openai-chat',
    body: (request, settings) => buildOpenAIBody(request, settings, maxTokensField),
    async submit(conn, settings, items) {
      const jsonl = items
        .map((i) => JSON.stringify({ custom_id: i.customId, method: 'POST', url: '/v1/chat/completions', body: vendor.body(i.request, settings) }) + '\n')
        .join('');
      const c = client(conn);
      const file = await c.files.create({ file: await toFile(Buffer.from(jsonl, 'utf8'), 'tclab-batch.jsonl'), purpose: 'batch' });
      const batch = await c.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
      return batch.id;
    },
    async poll(conn, batchId): Promise<BatchPoll> {
      const b = await client(conn).batches.retrieve(batchId);
      const rc = b.request_counts ?? { total: 0, completed: 0, failed: 0 };
      return { state: STATES[b.status] ?? 'in_progress', total: rc.total, succeeded: rc.completed, failed: rc.failed };
    },
    async results(conn, batchId, items: readonly BatchItemInput[], settings: RunSettings) {
      const c = client(conn);
      const b = await c.batches.retrieve(batchId);
      const requests = requestsById(items);
      const out = new Map<string, AdapterResult>();
      for (const { line, text } of [...(await readLines(c, b.output_file_id)), ...(await readLines(c, b.error_file_id))]) {
        const request = requests.get(line.custom_id);
        if (!request) continue;
        const body = vendor.body(request, settings);
        const kept = answerText(text, ['response', 'body']);
        if (line.response && line.response.status_code === 200) {
          out.set(line.custom_id, answerResult(body, line.response.body, reshapeOpenAIResponse(line.response.body, request), kept));
        } else if (line.response) {
          out.set(line.custom_id, itemErrorResult(body, line.response.body, line.response.status_code, messageOf(line.response.body), kept));
        } else if (line.error?.code === 'batch_expired') {
          out.set(line.custom_id, unansweredResult(body, 'expired'));
        } else if (line.error?.code === 'batch_cancelled') {
          out.set(line.custom_id, unansweredResult(body, 'cancelled'));
        } else {
          out.set(line.custom_id, itemErrorResult(body, line.error, null, messageOf(line.error)));
        }
      }
      return out;
    },
    async cancel(conn, batchId) {
      await client(conn).batches.cancel(batchId);
    },
  };
  return vendor;
}
