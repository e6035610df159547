import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WireId } from '../providers/types';
import {
  anthropicMessageBody,
  defaultErrorBody,
  geminiGenerateContentBody,
  isInterpretationBody,
  openaiChatCompletionBody,
  wireToolNames,
  wireToolRounds,
  type WireCall,
} from './wire-bodies';
import { LoopbackBatches, type BatchBehaviour, type BatchCounts, type BatchRecord } from './loopback-batch';

import { regexSearch, terms, termSearch } from '../providers/tool-search';
import type { WireTool } from '../schema/request';

export * from './wire-bodies';
export type { BatchBehaviour, BatchCounts, BatchRecord, BatchState, BatchOutcome } from './loopback-batch';

// A real HTTP server on 127.0.0.1 that speaks every wire format a provider descriptor names (WireId),
// driven by a script, so that the real SDKs can be tested end to end (never mocked) and the run engine
// benchmarked without a network:
//   openai-chat               POST /v1/chat/completions                     (base URL `${url}/v1`)
//   gemini-generate-content   POST /v1beta/models/{model}:generateContent   (base URL `${url}`)
//   anthropic-messages        POST /v1/messages                             (base URL `${url}`)
// and the three vendors' batch endpoints (lib/testing/loopback-batch.ts), whose items the same script answers.
// Error bodies come from the descriptors' error shapes. Keep-alive, no per-request logging; recording of
// requests can be switched off for benchmarks.

export type Reply =
  | { kind: 'toolCalls'; calls: WireCall[]; text?: string }
  | { kind: 'text'; text: string }
  | { kind: 'refusal'; text?: string }
  /** Gemini: finishReason MALFORMED_FUNCTION_CALL. OpenAI has none; it gets a call with broken JSON. */
  | { kind: 'malformedFunctionCall' }
  /** Any status and body (object → JSON; string or bytes → as is). Default body: the provider's error envelope. */
  | { kind: 'http'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Destroy the socket without answering. */
  | { kind: 'reset' }
  /** Never answer (the client times out). */
  | { kind: 'hang' }
  /** 200 with a body that is not JSON (default: an HTML page served as text/html). */
  | { kind: 'nonJson'; body?: string; contentType?: string }
  | { kind: 'delay'; ms: number; then: Reply };

export interface ScriptRequest {
  /** The wire format the request came in. */
  wire: WireId;
  /** The parsed JSON body. */
  body: unknown;
  /** The body's text exactly as received. */
  raw: string;
  headers: IncomingHttpHeaders;
  /** From the body, or from the path where the wire puts it there (Gemini). */
  model: string;
  /** Path and query as received. */
  path: string;
}

export type Script = (req: ScriptRequest) => Reply | Promise<Reply>;

export interface LoopbackOptions {
  script?: Script;
  /** Fixed delay before every answer, in ms. */
  latencyMs?: number;
  /** Keep every received request in `requests` (default true; switch off for benchmarks). */
  record?: boolean;
  /** Port to listen on (default: a random free port). */
  port?: number;
}

export interface LoopbackLoad {
  /** performance.now() of the first request received and of the last answer sent (null: none yet). */
  firstAtMs: number | null;
  lastEndMs: number | null;
  /** Integral of requests in flight over time (ms): divided by the span, the mean concurrency served. */
  busyMs: number;
  maxInFlight: number;
  /** performance.now() when maxInFlight was first reached. */
  maxAtMs: number | null;
  /** Requests finished (answered or dropped). */
  finished: number;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:PORT` — Gemini's base URL. */
  url: string;
  port: number;
  /** `${url}/v1` — OpenAI's base URL. */
  openaiBaseUrl: string;
  geminiBaseUrl: string;
  anthropicBaseUrl: string;
  /** The base URL a provider of this wire is configured with. */
  baseUrlFor(wire: WireId): string;
  /** Every received request (when recording), in arrival order. */
  requests: ScriptRequest[];
  /** Requests answered so far (counted even when not recording). */
  readonly count: number;
  /** Requests open right now (received, or still being read, and not yet closed). */
  readonly inFlight: number;
  /** In-flight accounting since the last reset: where a benchmark's wall time went. */
  load(): LoopbackLoad;
  resetLoad(): void;
  setScript(script: Script): void;
  setLatency(ms: number): void;
  clearRequests(): void;
  /** Tool-search requests received (Anthropic with a tool search tool, OpenAI Responses), in arrival order. */
  toolSearchRequests: ToolSearchWireRequest[];
  /** The query the loopback "model" searches with (null: derived from the user's task, see toolSearchQueryFor). */
  setToolSearchQuery(query: string | null): void;
  /**
   * Rewrites each tool search answer before it is sent (null: sent as the search made it) — a hostile vendor. An
   * object is sent as JSON; a string or bytes are sent as they are (bodies JSON.stringify cannot write).
   */
  setToolSearchRewrite(rewrite: ToolSearchRewrite | null): void;
  /** Batch mode: how the next batches live (accepted → in progress → completed / expired / cancelled). */
  setBatchBehaviour(next: Partial<BatchBehaviour>): void;
  /** Batches submitted and items received (per custom id) since the start or the last reset. */
  batchStats(): BatchCounts;
  resetBatchStats(): void;
  /** Every batch received, by its provider id. */
  readonly batches: ReadonlyMap<string, BatchRecord>;
  /** Stops listening and destroys every open connection, hanging ones included. */
  close(): Promise<void>;
}

/**
 * Answers a selection request by calling the first tool listed with `{}`, and an interpretation request
 * (one that carries an injected tool result) with "STATUS: CANNOT_DETERMINE". No tools → a STOP marker.
 */
export const echoScript: Script = (req) => {
  if (isInterpretationBody(req.wire, req.body)) return { kind: 'text', text: 'STATUS: CANNOT_DETERMINE' };
  const names = wireToolNames(req.wire, req.body);
  if (names.length === 0) return { kind: 'text', text: 'STOP: no tools were offered.' };
  return { kind: 'toolCalls', calls: [{ name: names[0], arguments: {} }] };
};

interface WireRoute {
  /** Matches the request path; the model is taken from group `model` when the path holds it. */
  path: RegExp;
  /** The base URL's path below the server's root. */
  basePath: string;
  success(model: string, reply: Reply, toolNames: string[]): Record<string, unknown>;
}

/**
 * A scripted multi-turn conversation (task studies): a request that carries n rounds of earlier tool
 * results gets `turns[n]` (the last one once the script runs out). Calls without an id get `call_<turn>_<i>`
 * on the OpenAI wire (ids must be unique over a conversation); on Gemini they go without one, as Gemini
 * often sends them.
 */
export function conversationScript(turns: Reply[]): Script {
  return (req) => {
    const n = wireToolRounds(req.wire, req.body).length;
    const reply = turns[Math.min(n, turns.length - 1)];
    if (reply.kind !== 'toolCalls' || req.wire !== 'openai-chat') return reply;
    return { ...reply, calls: reply.calls.map((c, i) => ({ ...c, id: c.id ?? `call_${n + 1}_${i + 1}` })) };
  };
}

/** One route per wire format: TypeScript refuses a WireId without one. */
const ROUTES: Record<WireId, WireRoute> = {
  'openai-chat': {
    path: /^\/v1\/chat\/completions(?:\?|$)/,
    basePath: '/v1',
    success(model, reply, toolNames) {
      switch (reply.kind) {
        case 'toolCalls':
          return openaiChatCompletionBody({ model, calls: reply.calls, text: reply.text ?? null });
        case 'text':
          return openaiChatCompletionBody({ model, text: reply.text });
        case 'refusal':
          return openaiChatCompletionBody({ model, refusal: reply.text ?? "I'm sorry, but I can't help with that." });
        default: // malformedFunctionCall
          return openaiChatCompletionBody({ model, calls: [{ name: toolNames[0] ?? 'unknown', arguments: '{"broken": ' }] });
      }
    },
  },
  'gemini-generate-content': {
    path: /^\/(?:v1beta|v1|v1alpha)\/models\/(?<model>[^/:?]+):generateContent(?:\?|$)/,
    basePath: '',
    success(model, reply) {
      switch (reply.kind) {
        case 'toolCalls':
          return geminiGenerateContentBody({ model, calls: reply.calls, text: reply.text ?? null });
        case 'text':
          return geminiGenerateContentBody({ model, text: reply.text });
        case 'refusal':
          return geminiGenerateContentBody({ model, finishReason: 'SAFETY', noContent: true });
        default: // malformedFunctionCall
          return geminiGenerateContentBody({ model, finishReason: 'MALFORMED_FUNCTION_CALL', noContent: true });
      }
    },
  },
  'anthropic-messages': {
    path: /^\/v1\/messages(?:\?|$)/,
    basePath: '',
    success(model, reply, toolNames) {
      switch (reply.kind) {
        case 'toolCalls':
          return anthropicMessageBody({ model, calls: reply.calls, text: reply.text ?? null });
        case 'text':
          return anthropicMessageBody({ model, text: reply.text });
        case 'refusal':
          return anthropicMessageBody({ model, text: reply.text ?? null, stopReason: 'refusal' });
        default: // malformedFunctionCall: a tool_use block whose input is not an object
          return anthropicMessageBody({ model, calls: [{ name: toolNames[0] ?? 'unknown', arguments: '{"broken": ' }] });
      }
    },
  },
};

/** The wire formats this server speaks. */
export const LOOPBACK_WIRES = Object.keys(ROUTES) as WireId[];

function route(path: string): { wire: WireId; pathModel: string | null } | null {
  for (const wire of LOOPBACK_WIRES) {
    const m = ROUTES[wire].path.exec(path);
    if (m) return { wire, pathModel: m.groups?.model !== undefined ? decodeURIComponent(m.groups.model) : null };
  }
  return null;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function sendBody(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, contentType = 'application/json'): void {
  const text = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export async function startLoopbackServer(opts: LoopbackOptions = {}): Promise<LoopbackServer> {
  let script: Script = opts.script ?? echoScript;
  let latencyMs = opts.latencyMs ?? 0;
  const record = opts.record ?? true;
  const requests: ScriptRequest[] = [];
  const toolSearchRequests: ToolSearchWireRequest[] = [];
  let toolSearchQuery: string | null = null;
  let toolSearchRewrite: ToolSearchRewrite | null = null;
  let count = 0;
  let load: LoopbackLoad = { firstAtMs: null, lastEndMs: null, busyMs: 0, maxInFlight: 0, maxAtMs: null, finished: 0 };
  let inFlight = 0;
  let lastChange = 0;
  const track = (delta: number) => {
    const now = performance.now();
    load.busyMs += inFlight * (now - lastChange);
    lastChange = now;
    inFlight += delta;
    if (delta > 0) {
      load.firstAtMs ??= now;
      if (inFlight > load.maxInFlight) {
        load.maxInFlight = inFlight;
        load.maxAtMs = now;
      }
    } else {
      load.lastEndMs = now;
      load.finished += 1;
    }
  };

  async function respond(req: IncomingMessage, res: ServerResponse, sreq: ScriptRequest, reply: Reply): Promise<void> {
    switch (reply.kind) {
      case 'delay':
        await sleep(reply.ms);
        return respond(req, res, sreq, reply.then);
      case 'hang':
        return; // closeAllConnections() in close() ends it
      case 'reset':
        req.socket.destroy();
        return;
      case 'http':
        return sendBody(res, reply.status, reply.body ?? defaultErrorBody(sreq.wire, reply.status), reply.headers);
      case 'nonJson':
        return sendBody(res, 200, reply.body ?? '<html><body><h1>Welcome to the proxy</h1></body></html>', {}, reply.contentType ?? 'text/html; charset=utf-8');
      default:
        return sendBody(res, 200, ROUTES[sreq.wire].success(sreq.model, reply, wireToolNames(sreq.wire, sreq.body)));
    }
  }

  /** A batch item: what the script answers for the same request sent alone (a status and a body). */
  async function answerItem(wire: WireId, model: string, body: unknown, headers: IncomingHttpHeaders): Promise<{ status: number; body: unknown }> {
    const sreq: ScriptRequest = { wire, body, raw: JSON.stringify(body), headers, model, path: 'batch' };
    let reply: Reply = await script(sreq);
    while (reply.kind === 'delay') reply = reply.then;
    switch (reply.kind) {
      case 'http':
        return { status: reply.status, body: reply.body ?? defaultErrorBody(wire, reply.status) };
      case 'hang':
      case 'reset':
      case 'nonJson':
        return { status: 500, body: defaultErrorBody(wire, 500) };
      default:
        return { status: 200, body: ROUTES[wire].success(model, reply, wireToolNames(wire, body)) };
    }
  }
  const batches = new LoopbackBatches(answerItem);

  async function handle(req: IncomingMessage, res: ServerResponse, rawBytes: Buffer): Promise<void> {
    const path = req.url ?? '/';
    const batchReply = await batches.handle(req.method ?? 'GET', path, rawBytes, req.headers);
    if (batchReply !== null) {
      if (latencyMs > 0) await sleep(latencyMs);
      return sendBody(res, batchReply.status, batchReply.body, {}, batchReply.contentType);
    }
    const raw = rawBytes.toString('utf8');
    const found = route(path) ?? (TOOL_SEARCH_ONLY_PATH.test(path) ? { wire: 'openai-chat' as const, pathModel: null } : null);
    if (req.method !== 'POST' || found === null) {
      return sendBody(res, 404, { error: { code: 404, message: `loopback: no route for ${req.method} ${path}` } });
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return sendBody(res, 400, defaultErrorBody(found.wire, 400));
    }
    const bodyModel = body !== null && typeof body === 'object' && 'model' in body && typeof body.model === 'string' ? body.model : '';
    const sreq: ScriptRequest = { wire: found.wire, body, raw, headers: req.headers, model: found.pathModel ?? bodyModel, path };
    const searched = answerToolSearch(path, body, toolSearchQuery);
    if (searched) {
      count += 1;
      if (record) toolSearchRequests.push({ ...searched.request, headers: req.headers });
      if (latencyMs > 0) await sleep(latencyMs);
      return sendBody(res, 200, toolSearchRewrite ? toolSearchRewrite(searched.response) : searched.response);
    }
    count += 1;
    if (record) requests.push(sreq);
    let reply: Reply;
    try {
      reply = await script(sreq);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return sendBody(res, 500, { error: { code: 500, message: `loopback script failed: ${message}` } });
    }
    if (latencyMs > 0) await sleep(latencyMs);
    return respond(req, res, sreq, reply);
  }

  const server = createServer((req, res) => {
    track(1);
    res.once('close', () => track(-1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks)).catch(() => {
        if (!res.headersSent) sendBody(res, 500, { error: { code: 500, message: 'loopback: internal error' } });
        else res.destroy();
      });
    });
  });
  // longer than undici's 4 s idle timeout, so the client, not the server, closes idle sockets (no races)
  server.keepAliveTimeout = 10_000;
  server.headersTimeout = 15_000;
  server.requestTimeout = 0;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  batches.origin = url;

  return {
    url,
    port,
    openaiBaseUrl: `${url}${ROUTES['openai-chat'].basePath}`,
    geminiBaseUrl: `${url}${ROUTES['gemini-generate-content'].basePath}`,
    anthropicBaseUrl: `${url}${ROUTES['anthropic-messages'].basePath}`,
    baseUrlFor: (wire) => `${url}${ROUTES[wire].basePath}`,
    requests,
    get count() {
      return count;
    },
    get inFlight() {
      return inFlight;
    },
    load: () => ({ ...load }),
    resetLoad() {
      load = { firstAtMs: null, lastEndMs: null, busyMs: 0, maxInFlight: inFlight, maxAtMs: null, finished: 0 };
    },
    setScript(next) {
      script = next;
    },
    setLatency(ms) {
      latencyMs = ms;
    },
    clearRequests() {
      requests.length = 0;
      toolSearchRequests.length = 0;
    },
    toolSearchRequests,
    setToolSearchQuery(query) {
      toolSearchQuery = query;
    },
    setToolSearchRewrite: (rewrite) => {
      toolSearchRewrite = rewrite;
    },
    setBatchBehaviour: (next) => batches.setBehaviour(next),
    batchStats: () => batches.stats(),
    resetBatchStats: () => batches.resetStats(),
    batches: batches.batches,
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

// ---- Vendor tool search (docs/discovery.md) ----------------------------------------------------------------
// Kept apart from the routes above. A Messages request whose tools include Anthropic's tool search tool, and
// any POST /v1/responses (OpenAI's Responses API, spoken here only for `tool_search`), are answered by
// playing both the vendor's search and the model: the "model" searches once (query: setToolSearchQuery's,
// else toolSearchQueryFor the user's task), the server runs a real search over the deferred tools
// (regex: regexSearch; BM25 and OpenAI: termSearch — deterministic stand-ins, lib/providers/tool-search.ts)
// and answers in the vendor's format: the search blocks / items, then a call of the first tool found with
// `{}` (none found: the first non-deferred tool; none at all: a STOP text).

/** The Responses API route (POST /v1/responses), spoken only for tool search. */
const TOOL_SEARCH_ONLY_PATH = /^\/v1\/responses(?:\?|$)/;
const ANTHROPIC_MESSAGES_PATH = /^\/v1\/messages(?:\?|$)/;

/** A hostile vendor's tool search answer: an object (sent as JSON), or a body sent as it is. */
export type ToolSearchRewrite = (response: Record<string, unknown>) => Record<string, unknown> | string | Uint8Array;

export interface ToolSearchWireRequest {
  vendor: 'anthropic' | 'openai';
  /** The search tool's type (`tool_search_tool_regex_20251119`, `tool_search_tool_bm25_20251119`, `tool_search`). */
  searchTool: string;
  path: string;
  model: string;
  body: unknown;
  /** The query the loopback model searched with, and the names its search returned, in rank order. */
  query: string;
  found: string[];
  headers?: IncomingHttpHeaders;
}

const rec = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The query a model would derive from the task: for a regex search its words (≥ 3 letters) as alternatives, otherwise the text. */
export function toolSearchQueryFor(task: string, regex: boolean): string {
  return regex ? terms(task).join('|') : task;
}

function firstUserText(items: unknown): string {
  if (typeof items === 'string') return items;
  if (!Array.isArray(items)) return '';
  for (const m of items) {
    const msg = rec(m);
    if (!msg || msg.role !== 'user') continue;
    if (typeof msg.content === 'string') return msg.content;
    if (Array.isArray(msg.content)) {
      const t = msg.content.map((p) => rec(p)).find((p) => p && (p.type === 'text' || p.type === 'input_text') && typeof p.text === 'string');
      if (t) return t.text as string;
    }
  }
  return '';
}

/** A tool search request's answer, or null when the request is no tool search request. */
export function answerToolSearch(
  path: string,
  body: unknown,
  queryOverride: string | null,
): { request: ToolSearchWireRequest; response: Record<string, unknown> } | null {
  const b = rec(body);
  if (!b || !Array.isArray(b.tools)) return TOOL_SEARCH_ONLY_PATH.test(path) && b ? openaiToolSearchAnswer(path, b, [], queryOverride) : null;
  const tools = b.tools.map(rec).filter((t): t is Record<string, unknown> => t !== null);
  if (TOOL_SEARCH_ONLY_PATH.test(path)) return openaiToolSearchAnswer(path, b, tools, queryOverride);
  if (ANTHROPIC_MESSAGES_PATH.test(path)) {
    const search = tools.find((t) => typeof t.type === 'string' && t.type.startsWith('tool_search_tool_'));
    if (search) return anthropicToolSearchAnswer(path, b, tools, search, queryOverride);
  }
  return null;
}

function wireTool(t: Record<string, unknown>, schemaField: 'input_schema' | 'parameters'): WireTool {
  return { name: String(t.name ?? ''), description: typeof t.description === 'string' ? t.description : '', parameters: rec(t[schemaField]) ?? {} };
}

function anthropicToolSearchAnswer(
  path: string,
  b: Record<string, unknown>,
  tools: Record<string, unknown>[],
  search: Record<string, unknown>,
  queryOverride: string | null,
) {
  const regex = String(search.type).includes('regex');
  const query = queryOverride ?? toolSearchQueryFor(firstUserText(b.messages), regex);
  const functions = tools.filter((t) => t !== search && t.type === undefined);
  const deferred = functions.filter((t) => t.defer_loading === true).map((t) => wireTool(t, 'input_schema'));
  const found = (regex ? regexSearch(deferred, query) : termSearch(deferred, query)).map((t) => t.name);
  const loaded = functions.filter((t) => t.defer_loading !== true).map((t) => String(t.name));
  const callName = found[0] ?? loaded[0] ?? null;
  const model = typeof b.model === 'string' ? b.model : '';
  const content: Record<string, unknown>[] = [
    { type: 'server_tool_use', id: 'srvtoolu_loopback_1', name: search.name, input: { query } },
    {
      type: 'tool_search_tool_result',
      tool_use_id: 'srvtoolu_loopback_1',
      content: { type: 'tool_search_tool_search_result', tool_references: found.map((n) => ({ type: 'tool_reference', tool_name: n })) },
    },
    callName ? { type: 'tool_use', id: 'toolu_1', name: callName, input: {} } : { type: 'text', text: 'STOP: the search found no tool.' },
  ];
  return {
    request: { vendor: 'anthropic' as const, searchTool: String(search.type), path, model, body: b, query, found },
    response: {
      id: 'msg_loopback_search',
      type: 'message',
      role: 'assistant',
      model,
      content,
      stop_reason: callName ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 10, server_tool_use: { tool_search_requests: 1 } },
    },
  };
}

function openaiToolSearchAnswer(path: string, b: Record<string, unknown>, tools: Record<string, unknown>[], queryOverride: string | null) {
  const query = queryOverride ?? toolSearchQueryFor(firstUserText(b.input), false);
  const functions = tools.filter((t) => t.type === 'function');
  const deferredDefs = functions.filter((t) => t.defer_loading === true);
  const found = termSearch(
    deferredDefs.map((t) => wireTool(t, 'parameters')),
    query,
  ).map((t) => t.name);
  const loaded = functions.filter((t) => t.defer_loading !== true).map((t) => String(t.name));
  const callName = found[0] ?? loaded[0] ?? null;
  const model = typeof b.model === 'string' ? b.model : '';
  const searching = tools.some((t) => t.type === 'tool_search');
  const output: Record<string, unknown>[] = [];
  if (searching) {
    output.push(
      { type: 'tool_search_call', id: 'tsc_loopback_1', call_id: null, execution: 'server', status: 'completed', arguments: { query } },
      {
        type: 'tool_search_output',
        id: 'tso_loopback_1',
        call_id: null,
        execution: 'server',
        status: 'completed',
        tools: found.map((n) => deferredDefs.find((t) => t.name === n)),
      },
    );
  }
  output.push(
    callName
      ? { type: 'function_call', id: 'fc_loopback_1', call_id: 'call_1', name: callName, arguments: '{}', status: 'completed' }
      : {
          type: 'message',
          id: 'msg_loopback_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'STOP: the search found no tool.', annotations: [] }],
        },
  );
  return {
    request: { vendor: 'openai' as const, searchTool: searching ? 'tool_search' : '', path, model, body: b, query, found: searching ? found : [] },
    response: {
      id: 'resp_loopback_1',
      object: 'response',
      created_at: 0,
      status: 'completed',
      model,
      output,
      usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    },
  };
}
