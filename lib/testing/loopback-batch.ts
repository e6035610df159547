import type { IncomingHttpHeaders } from 'node:http';
import type { WireId } from '../providers/types';
import { defaultErrorBody } from './wire-bodies';

// The batch endpoints of the three vendors, for the loopback server (lib/testing/loopback-server.ts), so the
// official SDKs' batch calls run end to end against it:
//   OpenAI     POST /v1/files (multipart, purpose=batch)  POST /v1/batches  GET /v1/batches/{id}
//              POST /v1/batches/{id}/cancel  GET /v1/files/{id}/content (output and error files, JSONL)
//   Anthropic  POST /v1/messages/batches  GET /v1/messages/batches/{id}  POST …/{id}/cancel  GET …/{id}/results
//   Gemini     POST /v1beta/models/{model}:batchGenerateContent (inlined requests)  GET /v1beta/batches/{id}
//              POST /v1beta/batches/{id}:cancel  (inlined responses in the batch's metadata.output)
// Each item is answered by the server's script exactly as the same request sent one by one would be; an item
// whose reply is `http` (any status) is a failed item of the batch. The batch's life is set by `BatchBehaviour`
// (accepted → in progress → ended: completed, expired or cancelled); every submission and every item is
// counted, per custom id, so a test can prove that nothing was submitted twice.

export type BatchOutcome = 'completed' | 'expired' | 'cancelled';

export interface BatchBehaviour {
  /** Polls (GETs of the batch) answered "accepted" (OpenAI validating, Anthropic/Gemini pending-like) first. */
  acceptedPolls: number;
  /** Then polls answered "in progress" before the batch ends. */
  inProgressPolls: number;
  /** How the batch ends. Expired and cancelled: the first `answeredBeforeEnd` items are answered, the rest not. */
  outcome: BatchOutcome;
  answeredBeforeEnd: number;
}

export const DEFAULT_BATCH_BEHAVIOUR: BatchBehaviour = { acceptedPolls: 0, inProgressPolls: 1, outcome: 'completed', answeredBeforeEnd: 0 };

export type BatchState = 'accepted' | 'in_progress' | BatchOutcome;

export interface BatchItemRecord {
  customId: string;
  /** The request body of the item, in the wire's own shape (as it would have been sent one by one). */
  body: unknown;
  model: string;
  /** Set when the batch ends: the status and body the script's answer would have had; null: not answered. */
  answer: { status: number; body: unknown } | null;
}

export interface BatchRecord {
  id: string;
  wire: WireId;
  state: BatchState;
  polls: number;
  cancelRequested: boolean;
  behaviour: BatchBehaviour;
  items: BatchItemRecord[];
}

export interface BatchCounts {
  /** Batches created. */
  submissions: number;
  /** Items received over all batches. */
  items: number;
  /** Per custom id: how many times it was received in a batch. */
  byCustomId: Map<string, number>;
}

/** Answers one item as the script would answer the same request sent alone. */
export type AnswerItem = (wire: WireId, model: string, body: unknown, headers: IncomingHttpHeaders) => Promise<{ status: number; body: unknown }>;

export interface BatchReply {
  status: number;
  body: unknown;
  contentType?: string;
}

let seq = 0;
const newId = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36).padStart(4, '0')}`;

const OPENAI_STATUS: Record<BatchState, string> = {
  accepted: 'validating',
  in_progress: 'in_progress',
  completed: 'completed',
  expired: 'expired',
  cancelled: 'cancelled',
};
const GEMINI_STATE: Record<BatchState, string> = {
  accepted: 'BATCH_STATE_PENDING',
  in_progress: 'BATCH_STATE_RUNNING',
  completed: 'BATCH_STATE_SUCCEEDED',
  expired: 'BATCH_STATE_EXPIRED',
  cancelled: 'BATCH_STATE_CANCELLED',
};

const ended = (s: BatchState) => s === 'completed' || s === 'expired' || s === 'cancelled';
const isoNow = () => new Date().toISOString();
const unixNow = () => Math.floor(Date.now() / 1000);

export class LoopbackBatches {
  readonly batches = new Map<string, BatchRecord>();
  private readonly files = new Map<string, string | Buffer>();
  private behaviour: BatchBehaviour = { ...DEFAULT_BATCH_BEHAVIOUR };
  private counts: BatchCounts = { submissions: 0, items: 0, byCustomId: new Map() };

  /** `http://127.0.0.1:PORT`, set once the server listens (Anthropic's results_url is absolute). */
  origin = '';

  constructor(private readonly answerItem: AnswerItem) {}

  setBehaviour(next: Partial<BatchBehaviour>): void {
    this.behaviour = { ...DEFAULT_BATCH_BEHAVIOUR, ...next };
  }

  stats(): BatchCounts {
    return { submissions: this.counts.submissions, items: this.counts.items, byCustomId: new Map(this.counts.byCustomId) };
  }

  resetStats(): void {
    this.counts = { submissions: 0, items: 0, byCustomId: new Map() };
  }

  /** Handles a batch route; null when the path is none of them. */
  async handle(method: string, path: string, raw: Buffer, headers: IncomingHttpHeaders): Promise<BatchReply | null> {
    const p = path.split('?')[0];
    let m: RegExpExecArray | null;
    // OpenAI
    if (method === 'POST' && p === '/v1/files') return this.openaiUpload(raw, headers);
    if (method === 'GET' && (m = /^\/v1\/files\/([^/]+)\/content$/.exec(p))) {
      const text = this.files.get(m[1]);
      return text === undefined ? notFound('openai-chat', p) : { status: 200, body: text, contentType: 'application/jsonl' };
    }
    if (method === 'POST' && p === '/v1/batches') return this.openaiCreate(raw, headers);
    if ((m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(p))) return this.poll('openai-chat', m[1], method === 'POST' && m[2] !== undefined, p);
    // Anthropic
    if (method === 'POST' && p === '/v1/messages/batches') return this.anthropicCreate(raw, headers);
    if (method === 'GET' && (m = /^\/v1\/messages\/batches\/([^/]+)\/results$/.exec(p))) return this.anthropicResults(m[1], p);
    if ((m = /^\/v1\/messages\/batches\/([^/]+)(\/cancel)?$/.exec(p))) return this.poll('anthropic-messages', m[1], method === 'POST' && m[2] !== undefined, p);
    // Gemini
    if (method === 'POST' && (m = /^\/(?:v1beta|v1|v1alpha)\/models\/([^/:]+):batchGenerateContent$/.exec(p)))
      return this.geminiCreate(decodeURIComponent(m[1]), raw, headers);
    if ((m = /^\/(?:v1beta|v1|v1alpha)\/batches\/([^/:]+)(:cancel)?$/.exec(p)))
      return this.poll('gemini-generate-content', m[1], method === 'POST' && m[2] !== undefined, p);
    return null;
  }

  private submit(wire: WireId, id: string, items: BatchItemRecord[], headers: IncomingHttpHeaders): BatchRecord {
    const rec: BatchRecord = { id, wire, state: 'accepted', polls: 0, cancelRequested: false, behaviour: { ...this.behaviour }, items };
    this.counts.submissions += 1;
    for (const it of items) {
      this.counts.items += 1;
      this.counts.byCustomId.set(it.customId, (this.counts.byCustomId.get(it.customId) ?? 0) + 1);
    }
    this.batches.set(id, rec);
    this.headers.set(id, headers);
    if (rec.behaviour.acceptedPolls === 0) rec.state = 'in_progress';
    return rec;
  }

  private readonly headers = new Map<string, IncomingHttpHeaders>();

  /** A GET (poll) or a cancel: advances the batch's life, answering its items when it ends. */
  private async poll(wire: WireId, id: string, cancel: boolean, path: string): Promise<BatchReply> {
    const rec = this.batches.get(id);
    if (!rec || rec.wire !== wire) return notFound(wire, path);
    if (!ended(rec.state)) {
      if (cancel) {
        rec.cancelRequested = true;
        await this.end(rec, 'cancelled');
      } else {
        rec.polls += 1;
        const b = rec.behaviour;
        if (rec.polls > b.acceptedPolls + b.inProgressPolls) await this.end(rec, b.outcome);
        else if (rec.polls > b.acceptedPolls) rec.state = 'in_progress';
      }
    }
    return { status: 200, body: this.view(rec) };
  }

  private async end(rec: BatchRecord, outcome: BatchOutcome): Promise<void> {
    const n = outcome === 'completed' ? rec.items.length : Math.min(rec.behaviour.answeredBeforeEnd, rec.items.length);
    const headers = this.headers.get(rec.id) ?? {};
    for (let i = 0; i < n; i++) {
      const it = rec.items[i];
      it.answer = await this.answerItem(rec.wire, it.model, it.body, headers);
    }
    rec.state = outcome;
    if (rec.wire === 'openai-chat') this.writeOpenaiFiles(rec);
  }

  private view(rec: BatchRecord): Record<string, unknown> {
    const answered = rec.items.filter((i) => i.answer !== null);
    const ok = answered.filter((i) => i.answer!.status === 200).length;
    const failed = answered.length - ok;
    const done = ended(rec.state);
    switch (rec.wire) {
      case 'openai-chat':
        return {
          id: rec.id,
          object: 'batch',
          endpoint: '/v1/chat/completions',
          errors: null,
          input_file_id: `file-in-${rec.id}`,
          completion_window: '24h',
          status: OPENAI_STATUS[rec.state],
          output_file_id: done && ok > 0 ? `file-out-${rec.id}` : null,
          error_file_id: done && (failed > 0 || answered.length < rec.items.length) ? `file-err-${rec.id}` : null,
          created_at: unixNow(),
          completed_at: rec.state === 'completed' ? unixNow() : null,
          expired_at: rec.state === 'expired' ? unixNow() : null,
          cancelled_at: rec.state === 'cancelled' ? unixNow() : null,
          request_counts: { total: rec.items.length, completed: ok, failed: done ? rec.items.length - ok : failed },
          metadata: null,
        };
      case 'anthropic-messages': {
        const notAnswered = rec.items.length - answered.length;
        return {
          id: rec.id,
          type: 'message_batch',
          processing_status: done ? 'ended' : rec.cancelRequested ? 'canceling' : 'in_progress',
          request_counts: {
            processing: done ? 0 : rec.items.length,
            succeeded: ok,
            errored: failed,
            canceled: rec.state === 'cancelled' ? notAnswered : 0,
            expired: rec.state === 'expired' ? notAnswered : 0,
          },
          ended_at: done ? isoNow() : null,
          created_at: isoNow(),
          expires_at: isoNow(),
          archived_at: null,
          cancel_initiated_at: rec.cancelRequested ? isoNow() : null,
          results_url: done ? `${this.origin}/v1/messages/batches/${rec.id}/results` : null,
        };
      }
      default: {
        const metadata: Record<string, unknown> = {
          '@type': 'type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch',
          model: `models/${rec.items[0]?.model ?? ''}`,
          displayName: rec.id,
          state: GEMINI_STATE[rec.state],
          createTime: isoNow(),
          updateTime: isoNow(),
          batchStats: { requestCount: String(rec.items.length), successfulRequestCount: String(ok), failedRequestCount: String(failed) },
        };
        if (done) {
          metadata.endTime = isoNow();
          metadata.output = {
            inlinedResponses: {
              inlinedResponses: answered.map((it) =>
                it.answer!.status === 200
                  ? { response: it.answer!.body, metadata: { key: it.customId } }
                  : { error: { code: it.answer!.status, message: errorMessage(it.answer!.body) }, metadata: { key: it.customId } },
              ),
            },
          };
        }
        return { name: `batches/${rec.id}`, metadata, done };
      }
    }
  }

  // ---- OpenAI ----

  private async openaiUpload(raw: Buffer, headers: IncomingHttpHeaders): Promise<BatchReply> {
    const form = await new Request('http://loopback/v1/files', {
      method: 'POST',
      headers: { 'content-type': String(headers['content-type'] ?? '') },
      body: new Uint8Array(raw),
    }).formData();
    const file = form.get('file');
    if (form.get('purpose') !== 'batch' || file === null || typeof file === 'string') {
      return { status: 400, body: defaultErrorBody('openai-chat', 400) };
    }
    const id = newId('file-');
    this.files.set(id, await file.text());
    return { status: 200, body: { id, object: 'file', bytes: file.size, created_at: unixNow(), filename: file.name, purpose: 'batch', status: 'processed' } };
  }

  private openaiCreate(raw: Buffer, headers: IncomingHttpHeaders): BatchReply {
    const body = parseJson(raw) as { input_file_id?: string; endpoint?: string } | null;
    const file = body?.input_file_id ? this.files.get(body.input_file_id) : undefined;
    const text = file === undefined ? undefined : file.toString();
    if (text === undefined || body?.endpoint !== '/v1/chat/completions') return { status: 400, body: defaultErrorBody('openai-chat', 400) };
    const items: BatchItemRecord[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const l = JSON.parse(line) as { custom_id: string; body: { model?: string } };
      items.push({ customId: l.custom_id, body: l.body, model: l.body.model ?? '', answer: null });
    }
    const rec = this.submit('openai-chat', newId('batch_'), items, headers);
    return { status: 200, body: this.view(rec) };
  }

  private writeOpenaiFiles(rec: BatchRecord): void {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    for (const it of rec.items) {
      const line = { id: `batch_req_${it.customId}`, custom_id: it.customId };
      if (it.answer === null) {
        err.push(
          jsonLine({
            ...line,
            response: null,
            error: { code: rec.state === 'expired' ? 'batch_expired' : 'batch_cancelled', message: `the batch ${rec.state} before this request ran` },
          }),
        );
      } else if (it.answer.status === 200) {
        out.push(jsonLine({ ...line, response: { status_code: 200, request_id: `req_${it.customId}`, body: it.answer.body }, error: null }));
      } else {
        err.push(jsonLine({ ...line, response: { status_code: it.answer.status, request_id: `req_${it.customId}`, body: it.answer.body }, error: null }));
      }
    }
    const NL = Buffer.from('\n');
    this.files.set(`file-out-${rec.id}`, Buffer.concat(out.flatMap((l) => [l, NL])));
    this.files.set(`file-err-${rec.id}`, Buffer.concat(err.flatMap((l) => [l, NL])));
  }

  // ---- Anthropic ----

  private anthropicCreate(raw: Buffer, headers: IncomingHttpHeaders): BatchReply {
    const body = parseJson(raw) as { requests?: { custom_id: string; params: { model?: string } }[] } | null;
    if (!body || !Array.isArray(body.requests) || body.requests.length === 0) return { status: 400, body: defaultErrorBody('anthropic-messages', 400) };
    const items = body.requests.map((r) => ({ customId: r.custom_id, body: r.params, model: r.params.model ?? '', answer: null }));
    const rec = this.submit('anthropic-messages', newId('msgbatch_'), items, headers);
    return { status: 200, body: this.view(rec) };
  }

  private anthropicResults(id: string, path: string): BatchReply {
    const rec = this.batches.get(id);
    if (!rec || rec.wire !== 'anthropic-messages') return notFound('anthropic-messages', path);
    if (!ended(rec.state)) return { status: 400, body: defaultErrorBody('anthropic-messages', 400) };
    const lines = rec.items.map((it) => {
      let result: unknown;
      if (it.answer === null) result = { type: rec.state === 'expired' ? 'expired' : 'canceled' };
      else if (it.answer.status === 200) result = { type: 'succeeded', message: it.answer.body };
      else result = { type: 'errored', error: it.answer.body };
      return Buffer.concat([jsonLine({ custom_id: it.customId, result }), Buffer.from('\n')]);
    });
    return { status: 200, body: Buffer.concat(lines), contentType: 'application/binary' };
  }

  // ---- Gemini ----

  private geminiCreate(model: string, raw: Buffer, headers: IncomingHttpHeaders): BatchReply {
    const body = parseJson(raw) as { batch?: { inputConfig?: { requests?: { requests?: { request: unknown; metadata?: { key?: string } }[] } } } } | null;
    const reqs = body?.batch?.inputConfig?.requests?.requests;
    if (!Array.isArray(reqs) || reqs.length === 0) return { status: 400, body: defaultErrorBody('gemini-generate-content', 400) };
    const items = reqs.map((r, i) => ({ customId: r.metadata?.key ?? String(i), body: r.request, model, answer: null }));
    const rec = this.submit('gemini-generate-content', newId('b'), items, headers);
    return { status: 200, body: this.view(rec) };
  }
}

/**
 * One JSONL line. An item's answer body given as bytes (a script's `http` reply with a Buffer body) is put in
 * as it is — JSON text JSON.stringify could not write (nested past its stack, or not UTF-8): a hostile vendor.
 */
function jsonLine(value: unknown): Buffer {
  const raw: Buffer[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v !== null && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
      raw.push(Buffer.from((v as { data: number[] }).data));
      return '@@RAW_BODY@@';
    }
    return v;
  });
  if (raw.length === 0) return Buffer.from(text, 'utf8');
  const pieces = text.split('"@@RAW_BODY@@"');
  return Buffer.concat(pieces.flatMap((p, i) => (i === 0 ? [Buffer.from(p, 'utf8')] : [raw[i - 1], Buffer.from(p, 'utf8')])));
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}

function notFound(wire: WireId, path: string): BatchReply {
  const body = defaultErrorBody(wire, 404);
  return { status: 404, body: { ...body, loopback: `no batch for ${path}` } };
}

function errorMessage(body: unknown): string {
  if (body !== null && typeof body === 'object' && 'error' in body) {
    const e = (body as { error: unknown }).error;
    if (e !== null && typeof e === 'object' && 'message' in e && typeof e.message === 'string') return e.message;
  }
  return typeof body === 'string' ? body : JSON.stringify(body);
}
