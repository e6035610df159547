import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { restoreFromJsonb } from '../db/jsonb-escape';
import { resetEnvCache } from '../env';
import { countToolSnapshots, getToolSnapshot, importServerTools } from '../experiments/tool-snapshots';
import { saveExperiment } from '../experiments/versions';
import { ToolFileError } from '../mcp/tools';
import { closeQueues } from '../queue/connection';
import type { WireId } from '../providers/types';
import { FINAL_RUN_STATUSES } from '../schema/run-status';
import { engineViolations, waitForRunStatus } from '../testing/engine';
import { anthropicMessageBody, geminiGenerateContentBody, openaiChatCompletionBody, startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { tinyExperiment } from '../testing/tiny-experiment';
import { createRun, startRun } from './start';
import { startWorker, type WorkerHandle } from './worker';

// What a provider sends is kept (docs/faults.md › What a provider sends is kept), fuzzed over every wire: each
// provider's answers carry U+0000, lone surrogates, bytes that are not UTF-8, a 5 MB string, and JSON nested
// 20,000 levels deep (in the body, and in a call's arguments), sent through the real SDK to the real engine.
// Per trial: one final status and one formal result, no attempt `lost`; per run: the requests the loopback
// server answered = the attempt rows; per attempt: the body kept as it was sent (the `json` text, or the
// bytes in response_raw when the text cannot hold them). The wires: OpenAI, Anthropic, Gemini and
// OpenAI-compatible one request at a time, Anthropic's and OpenAI's tool search results, batch results, MCP
// listings.
// FUZZ_REPLICATES and FUZZ_PAYLOADS (comma-separated) widen or narrow a local run; the defaults are the suite's.

const KEYS = {
  OPENAI_API_KEY: 'sk-test-fuzz-0000',
  ANTHROPIC_API_KEY: 'sk-ant-test-fuzz',
  GEMINI_API_KEY: 'gm-test-fuzz',
  OPENAI_COMPATIBLE_API_KEY: 'sk-compat-fuzz',
};
const DEPTH = 20_000;
const BIG = 5 * 1024 * 1024;
const MAX_ATTEMPTS = 2;
const REPLICATES = Number(process.env.FUZZ_REPLICATES ?? 1); // × 2 conditions: 4 trials per wire and payload

type Provider = 'openai' | 'anthropic' | 'gemini' | 'openai-compatible';
const WIRES: { provider: Provider; wire: WireId }[] = [
  { provider: 'openai', wire: 'openai-chat' },
  { provider: 'anthropic', wire: 'anthropic-messages' },
  { provider: 'gemini', wire: 'gemini-generate-content' },
  { provider: 'openai-compatible', wire: 'openai-chat' },
];

type PayloadId = 'nul' | 'lone-surrogate' | 'invalid-utf8' | 'big-string' | 'big-hostile-string' | 'deep-body' | 'deep-arguments' | 'deep-content' | 'deep-root';
const PAYLOADS: PayloadId[] = (process.env.FUZZ_PAYLOADS?.split(',') as PayloadId[] | undefined) ?? [
  'nul',
  'lone-surrogate',
  'invalid-utf8',
  'big-string',
  'big-hostile-string',
  'deep-body',
  'deep-arguments',
  'deep-content',
  'deep-root',
];

const deepArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** Bytes that are not UTF-8: a lone 0xFF, an overlong NUL (C0 80), a CESU-8 surrogate (ED A0 80), a truncated sequence. */
const BAD_BYTES = [0xff, 0x20, 0xc0, 0x80, 0x20, 0xed, 0xa0, 0x80, 0x20, 0xe4, 0xb8];

/** A success body of `wire`: a call of `get_invoice` with `args` and a text beside it. */
function successBody(wire: WireId, text: string, args: Record<string, unknown> | string): Record<string, unknown> {
  const calls = [{ name: 'get_invoice', arguments: args }];
  if (wire === 'openai-chat') return openaiChatCompletionBody({ model: 'fuzz-model', calls, text });
  if (wire === 'anthropic-messages') return anthropicMessageBody({ model: 'fuzz-model', calls, text });
  return geminiGenerateContentBody({ model: 'fuzz-model', calls, text });
}

/** JSON text of `value` with each `"@@KEY@@"` string replaced by raw JSON text (nesting JSON.stringify cannot build). */
function spliced(value: unknown, raw: Record<string, string>): string {
  let text = JSON.stringify(value);
  for (const [k, v] of Object.entries(raw)) text = text.replace(`"@@${k}@@"`, () => v);
  return text;
}

/** What a payload's answers are sent as, and what the record must say of them. */
interface Hostile {
  bytes: Buffer;
  /** `ok`: scored from the text and arguments below (as a client reads them); otherwise the error kind of every attempt. */
  expect: 'ok' | 'malformed_body';
  text?: string;
  /** The call's arguments as read (null: unparseable, a malformed call). */
  args?: Record<string, unknown> | null;
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');

/** The exact bytes a provider of `wire` answers with for `payload`. */
function hostileBody(wire: WireId, payload: PayloadId): Hostile {
  switch (payload) {
    case 'nul': {
      const text = 'found it\u0000';
      const args = { invoice_id: 'INV-7\u0000', note: '\u0000' };
      return { bytes: utf8(JSON.stringify(successBody(wire, text, args))), expect: 'ok', text, args };
    }
    case 'lone-surrogate': {
      // JSON.stringify writes a lone surrogate as its \u escape: valid JSON text, no valid UTF-16 string
      const text = '\udc00found it\ud800';
      const args = { invoice_id: 'INV-7\ud800', ['k\udfff']: 'v\uffff' };
      return { bytes: utf8(JSON.stringify(successBody(wire, text, args))), expect: 'ok', text, args };
    }
    case 'invalid-utf8': {
      const json = JSON.stringify(successBody(wire, '@@BAD@@', { invoice_id: 'INV-7' }));
      const at = json.indexOf('@@BAD@@');
      // read as every client reads it: each bad sequence one U+FFFD (WHATWG decoding)
      const text = new TextDecoder().decode(Buffer.from(BAD_BYTES));
      return { bytes: Buffer.concat([utf8(json.slice(0, at)), Buffer.from(BAD_BYTES), utf8(json.slice(at + 7))]), expect: 'ok', text, args: { invoice_id: 'INV-7' } };
    }
    case 'big-string': {
      const text = 'x'.repeat(BIG);
      const args = { invoice_id: 'INV-7', blob: 'y'.repeat(BIG) };
      return { bytes: utf8(JSON.stringify(successBody(wire, text, args))), expect: 'ok', text, args };
    }
    case 'big-hostile-string': {
      // a 5 MB body of NULs, lone surrogates and U+FFFF (the escape character): 22 bytes of JSON per unit
      const hostile = '\u0000\ud800\uffff\udc00a'.repeat(Math.ceil(BIG / 2 / 22));
      const args = { invoice_id: 'INV-7', blob: hostile };
      return { bytes: utf8(JSON.stringify(successBody(wire, hostile, args))), expect: 'ok', text: hostile, args };
    }
    case 'deep-body':
      // an ordinary answer with an extra field nested DEPTH levels deep: past what PostgreSQL's json parser takes
      return {
        bytes: utf8(spliced({ ...successBody(wire, 'found it', { invoice_id: 'INV-7' }), x_deep: '@@DEEP@@' }, { DEEP: deepArray(DEPTH) })),
        expect: 'malformed_body',
      };
    case 'deep-arguments':
      // the call's arguments nest DEPTH levels deep. OpenAI sends arguments as a JSON string: the body is shallow
      // and the call is malformed (past MAX_ARGUMENT_NESTING). Anthropic and Gemini send them as JSON in the body:
      // the body nests past PostgreSQL's json parser, so it is kept as text and the answer is a parse error.
      return wire === 'openai-chat'
        ? { bytes: utf8(JSON.stringify(successBody(wire, 'found it', `{"invoice_id":"INV-7","x":${deepObject(DEPTH)}}`))), expect: 'ok', text: 'found it', args: null }
        : { bytes: utf8(spliced(successBody(wire, 'found it', { invoice_id: 'INV-7', x: '@@DEEP@@' }), { DEEP: deepObject(DEPTH) })), expect: 'malformed_body' };
    case 'deep-content':
      // DEPTH levels where the answer's text belongs
      return { bytes: utf8(spliced(successBody(wire, '@@DEEP@@', { invoice_id: 'INV-7' }), { DEEP: deepArray(DEPTH) })), expect: 'malformed_body' };
    case 'deep-root':
      // the whole body: an array DEPTH levels deep
      return { bytes: utf8(deepArray(DEPTH)), expect: 'malformed_body' };
  }
}

let server: LoopbackServer;
let worker: WorkerHandle;
let experimentId: string;

beforeAll(async () => {
  server = await startLoopbackServer();
  Object.assign(process.env, { ...KEYS, TCLAB_ALLOWED_BASE_URLS: server.url });
  resetEnvCache();
  const spec = tinyExperiment('wire-fuzz', 'What is the status of invoice INV-7?');
  spec.replicates = REPLICATES;
  experimentId = (await saveExperiment(spec)).id;
  worker = startWorker({ concurrency: 4, reconcileEveryMs: 500, batchPollMs: 100 });
  await worker.ready;
});
afterAll(async () => {
  await worker?.close();
  await server?.close();
  await closeQueues();
  await closeDb();
});

interface ObservationRow {
  text: string | null;
  toolCalls: { name: string; arguments: Record<string, unknown> | null }[];
  malformed: string | null;
}

interface AttemptRow {
  trial_id: string;
  n: number;
  started_at: Date;
  finished_at: Date | null;
  outcome: string;
  error_kind: string | null;
  response: string | null;
  response_raw: Buffer | null;
}

/** Runs `experimentId` against `provider` whose every answer is `body`; what was sent and what was kept. */
async function fuzzRun(provider: Provider, wire: WireId, body: Buffer) {
  server.clearRequests();
  const sentAt: string[] = [];
  server.setScript(() => {
    sentAt.push(new Date().toISOString());
    return { kind: 'http', status: 200, body };
  });
  const run = await createRun(experimentId, {
    provider,
    model: 'fuzz-model',
    baseUrl: server.baseUrlFor(wire),
    retryBaseMs: 20,
    maxAttempts: MAX_ATTEMPTS,
    timeoutMs: 60_000,
  });
  const before = server.count;
  expect((await startRun(run.id)).ok).toBe(true);
  const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES], 90_000);
  const requests = server.count - before;
  const attempts = (
    await pool().query<AttemptRow>(
      `SELECT trial_id, n, outcome, error_kind, response::text AS response, response_raw, started_at, finished_at FROM attempts WHERE run_id = $1 ORDER BY started_at`,
      [run.id],
    )
  ).rows;
  const trials = (
    await pool().query<{ id: string; status: string; observations: ObservationRow[] }>(
      `SELECT t.id, t.status,
              coalesce((SELECT json_agg(json_build_object('text', o.text, 'toolCalls', o.tool_calls, 'malformed', o.malformed)) FROM observations o WHERE o.trial_id = t.id), '[]') AS observations
         FROM trials t WHERE t.run_id = $1`,
      [run.id],
    )
  ).rows.map((t) => ({ ...t, observations: t.observations.map((o) => restoreFromJsonb(o)) }));
  return { runId: run.id, status: final.status, requests, sentAt, attempts, trials };
}

/** The body an attempt kept, as bytes: response_raw when set, else the stored JSON text (a parse error's `{"text": …}` unwrapped). */
function keptBytes(a: AttemptRow): Buffer {
  if (a.response_raw) return a.response_raw;
  const text = a.response ?? '';
  return Buffer.from(text, 'utf8');
}

describe.each(WIRES)('$provider ($wire) answers', ({ provider, wire }) => {
  it.each(PAYLOADS)(
    'holding %s: one formal result per trial, requests = attempt rows, the body kept as sent',
    async (payload) => {
      const h = hostileBody(wire, payload);
      const r = await fuzzRun(provider, wire, h.bytes);
      expect(await engineViolations(r.runId)).toEqual([]);
      expect(r.trials).toHaveLength(2 * REPLICATES);
      // every request the server answered is one attempt row, and none is booked lost
      const when = () => JSON.stringify({ sent: r.sentAt, attempts: r.attempts.map((a) => [a.trial_id, a.n, a.outcome, a.started_at, a.finished_at]) });
      expect(r.requests, `requests = attempt rows: ${when()}`).toBe(r.attempts.length);
      expect(r.attempts.filter((a) => a.outcome === 'lost')).toEqual([]);
      // every attempt keeps the body as sent: the json text, or the bytes when the text cannot hold them
      for (const a of r.attempts) expect(keptBytes(a).equals(h.bytes), `${provider} ${payload}: body kept`).toBe(true);
      if (h.expect === 'ok') {
        expect(r.status).toBe('completed');
        expect(r.attempts.map((a) => `${a.outcome}/${a.error_kind}`)).toEqual(r.trials.map(() => 'ok/null'));
        for (const t of r.trials) {
          expect(['passed', 'failed', 'untested']).toContain(t.status);
          expect(t.observations).toHaveLength(1);
          const [o] = t.observations;
          expect(o.text === h.text, `${provider} ${payload}: text as read`).toBe(true);
          expect(o.toolCalls).toHaveLength(1);
          expect(o.toolCalls[0].name).toBe('get_invoice');
          expect(o.toolCalls[0].arguments).toStrictEqual(h.args);
          expect(o.malformed).toBe(h.args === null ? 'unparseable_arguments' : null);
        }
        // invalid UTF-8 keeps its bytes in response_raw; every other body is the json text itself
        expect(r.attempts.every((a) => (a.response_raw !== null) === (payload === 'invalid-utf8'))).toBe(true);
      } else {
        // an answer that cannot be read or stored is an answer with a parse error: unresolved, never lost or scored
        expect(r.status).toBe('completed_with_unresolved');
        expect(new Set(r.attempts.map((a) => `${a.outcome}/${a.error_kind}`))).toEqual(new Set(['transport_error/malformed_body']));
        for (const t of r.trials) {
          expect(t.status).toBe('unresolved');
          expect(t.observations).toEqual([]);
          expect(r.attempts.filter((a) => a.trial_id === t.id).length).toBeLessThanOrEqual(MAX_ATTEMPTS);
        }
      }
    },
    120_000,
  );
});

// ---- Vendor tool search results (docs/discovery.md): Anthropic's regex tool search (a `tool_search_tool_result`
// naming the tools found) and OpenAI's `tool_search` (a `tool_search_output` holding their definitions). The
// hostile part is in the names (what the trial stores as `visible`), or the result nests DEPTH deep.

type SearchPayload = 'nul' | 'lone-surrogate' | 'invalid-utf8' | 'big-string' | 'deep-result';
const SEARCH_PAYLOADS: SearchPayload[] = ['nul', 'lone-surrogate', 'invalid-utf8', 'big-string', 'deep-result'];

/** How the vendor renames the tools it found (the first one, for the 5 MB name), as a client reads the names. */
function renamed(payload: SearchPayload, names: string[]): string[] {
  const suffix: Record<SearchPayload, string> = {
    nul: '\u0000',
    'lone-surrogate': '\ud800',
    'invalid-utf8': new TextDecoder().decode(Buffer.from(BAD_BYTES)),
    'big-string': 'z'.repeat(BIG),
    'deep-result': '',
  };
  return names.map((n, i) => (payload === 'big-string' && i > 0 ? n : n + suffix[payload]));
}

/** The search answer's bytes: the tools found renamed, or the search result given a member DEPTH levels deep. */
function hostileSearchAnswer(payload: SearchPayload, response: Record<string, unknown>): Buffer {
  const rename = (names: string[]) => {
    if (payload === 'invalid-utf8') return names.map((n, i) => `${n}@@BAD${i}@@`);
    const out = renamed(payload, names.slice(0, 1));
    return payload === 'big-string' ? [...out, ...names.slice(1)] : renamed(payload, names);
  };
  const blocks = (response.content ?? response.output) as Record<string, unknown>[];
  const hostile = blocks.map((block) => {
    if (block.type === 'tool_search_tool_result') {
      // Anthropic: the result's tool references name the tools found
      const result = block.content as { tool_references: { type: string; tool_name: string }[] };
      if (payload === 'deep-result') return { ...block, content: { ...result, x_deep: '@@DEEP@@' } };
      const names = rename(result.tool_references.map((r) => r.tool_name));
      return { ...block, content: { ...result, tool_references: result.tool_references.map((r, i) => ({ ...r, tool_name: names[i] })) } };
    }
    if (block.type === 'tool_search_output') {
      // OpenAI: the output holds the definitions of the tools found
      const tools = block.tools as { name: string }[];
      if (payload === 'deep-result') return { ...block, x_deep: '@@DEEP@@' };
      const names = rename(tools.map((t) => t.name));
      return { ...block, tools: tools.map((t, i) => ({ ...t, name: names[i] })) };
    }
    return block;
  });
  const text = spliced({ ...response, ...(response.content ? { content: hostile } : { output: hostile }) }, { DEEP: deepArray(DEPTH) });
  if (payload !== 'invalid-utf8') return utf8(text);
  const pieces = text.split(/@@BAD\d+@@/);
  return Buffer.concat(pieces.flatMap((p, i) => (i === 0 ? [utf8(p)] : [Buffer.from(BAD_BYTES), utf8(p)])));
}

const SEARCH_VENDORS: { provider: 'anthropic' | 'openai'; search: 'anthropic-regex' | 'openai' }[] = [
  { provider: 'anthropic', search: 'anthropic-regex' },
  { provider: 'openai', search: 'openai' },
];

describe.each(SEARCH_VENDORS)('$provider tool search answers', ({ provider, search }) => {
  let searchExperimentId: string;
  beforeAll(async () => {
    const spec = tinyExperiment(`wire-fuzz-search-${provider}`, 'What is the status of invoice INV-2041?');
    spec.replicates = REPLICATES;
    (spec.studies[0] as Record<string, unknown>).catalog = {
      source: { builtin: 'github-mcp-server' },
      sizes: [8],
      seed: 'vendor-search-v1',
      discovery: [{ id: 'vs', mechanism: 'vendor-search', search }],
    };
    searchExperimentId = (await saveExperiment(spec)).id;
  });

  it.each(SEARCH_PAYLOADS)(
    'naming tools with %s: one formal result per trial, one request each, the result kept as sent',
    async (payload) => {
      const sent: Buffer[] = [];
      server.clearRequests();
      server.setToolSearchRewrite((response) => {
        const bytes = hostileSearchAnswer(payload, response);
        sent.push(bytes);
        return bytes;
      });
      try {
        const run = await createRun(searchExperimentId, {
          provider,
          model: 'fuzz-model',
          baseUrl: provider === 'anthropic' ? server.anthropicBaseUrl : server.openaiBaseUrl,
          retryBaseMs: 20,
          maxAttempts: MAX_ATTEMPTS,
          timeoutMs: 60_000,
        });
        expect((await startRun(run.id)).ok).toBe(true);
        const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES], 90_000);
        expect(await engineViolations(run.id)).toEqual([]);
        const attempts = (
          await pool().query<AttemptRow>(`SELECT trial_id, n, outcome, error_kind, response::text AS response, response_raw FROM attempts WHERE run_id = $1`, [run.id])
        ).rows;
        const trials = (
          await pool().query<{ id: string; status: string; visible: string[] | null }>(`SELECT id, status, visible FROM trials WHERE run_id = $1`, [run.id])
        ).rows;
        expect(trials).toHaveLength(2 * REPLICATES);
        // one request per attempt row, none lost, each answer kept as it was sent
        expect(sent.length).toBe(attempts.length);
        expect(attempts.filter((a) => a.outcome === 'lost')).toEqual([]);
        const sentSet = new Set(sent.map((b) => b.toString('base64')));
        for (const a of attempts) expect(sentSet.has(keptBytes(a).toString('base64')), `${payload}: the answer kept as sent`).toBe(true);
        if (payload === 'deep-result') {
          expect(final.status).toBe('completed_with_unresolved');
          expect(new Set(attempts.map((a) => `${a.outcome}/${a.error_kind}`))).toEqual(new Set(['transport_error/malformed_body']));
          expect(trials.every((t) => t.status === 'unresolved')).toBe(true);
          return;
        }
        // one request per trial, each scored once, `visible` holding the names as the vendor sent them
        expect(final.status).toBe('completed');
        expect(attempts.map((a) => `${a.outcome}/${a.error_kind}`)).toEqual(trials.map(() => 'ok/null'));
        expect(server.toolSearchRequests).toHaveLength(trials.length);
        expect(trials.some((t) => (t.visible ?? []).length > 0)).toBe(true);
        const named = new Set(server.toolSearchRequests.map((q) => JSON.stringify(renamed(payload, q.found))));
        for (const t of trials) {
          expect(['passed', 'failed', 'untested']).toContain(t.status);
          expect(named.has(JSON.stringify(restoreFromJsonb(t.visible ?? []))), `${payload}: visible as named`).toBe(true);
        }
        expect(attempts.every((a) => (a.response_raw !== null) === (payload === 'invalid-utf8'))).toBe(true);
      } finally {
        server.setToolSearchRewrite(null);
      }
    },
    120_000,
  );
});

// ---- Batch results (docs/batch.md): the same answers as items of a vendor's batch, read from its results file
// (OpenAI, Anthropic: JSONL, where an item's body may be bytes JSON.stringify cannot write) or from the batch's
// inlined responses (Gemini: one JSON document, so only what JSON.stringify writes).

const BATCH_WIRES: { provider: 'openai' | 'anthropic' | 'gemini'; wire: WireId; payloads: PayloadId[] }[] = [
  { provider: 'openai', wire: 'openai-chat', payloads: ['nul', 'lone-surrogate', 'invalid-utf8', 'big-string', 'deep-body'] },
  { provider: 'anthropic', wire: 'anthropic-messages', payloads: ['nul', 'lone-surrogate', 'invalid-utf8', 'big-string', 'deep-body'] },
  { provider: 'gemini', wire: 'gemini-generate-content', payloads: ['nul', 'lone-surrogate', 'big-string'] },
];

describe.each(BATCH_WIRES)('$provider batch results', ({ provider, wire, payloads }) => {
  afterAll(() => {
    server.setBatchBehaviour({});
    server.resetBatchStats();
  });

  it.each(payloads)(
    'holding %s: one formal result per item, items = attempt rows',
    async (payload) => {
      const h = hostileBody(wire, payload);
      // an object when JSON.stringify can write it (the loopback writes it into the line), else the bytes as they are
      const body: unknown = payload === 'invalid-utf8' || payload.startsWith('deep') ? h.bytes : JSON.parse(h.bytes.toString('utf8'));
      server.setScript(() => ({ kind: 'http', status: 200, body }));
      server.setBatchBehaviour({ acceptedPolls: 0, inProgressPolls: 1 });
      server.resetBatchStats();
      const run = await createRun(experimentId, {
        provider,
        model: 'fuzz-model',
        baseUrl: server.baseUrlFor(wire),
        retryBaseMs: 20,
        maxAttempts: MAX_ATTEMPTS,
        batch: true,
      });
      expect((await startRun(run.id)).ok).toBe(true);
      const final = await waitForRunStatus(run.id, [...FINAL_RUN_STATUSES], 90_000);
      expect(await engineViolations(run.id)).toEqual([]);
      const attempts = (
        await pool().query<AttemptRow>(`SELECT trial_id, n, outcome, error_kind, response::text AS response, response_raw FROM attempts WHERE run_id = $1`, [run.id])
      ).rows;
      const trials = (await pool().query<{ id: string; status: string }>(`SELECT id, status FROM trials WHERE run_id = $1`, [run.id])).rows;
      const stats = server.batchStats();
      expect(trials).toHaveLength(2 * REPLICATES);
      expect(stats.items).toBe(attempts.length);
      expect([...stats.byCustomId.values()].every((n) => n === 1)).toBe(true);
      expect(attempts.filter((a) => a.outcome === 'lost')).toEqual([]);

      if (payload === 'deep-body') {
        // read from the results file, nested past what PostgreSQL's json parser takes: an answer with a parse error,
        // its body kept as the results line holds it (the bytes sent)
        expect(final.status).toBe('completed_with_unresolved');
        expect(new Set(attempts.map((a) => `${a.outcome}/${a.error_kind}`))).toEqual(new Set(['transport_error/malformed_body']));
        expect(trials.every((t) => t.status === 'unresolved')).toBe(true);
        for (const a of attempts) expect(keptBytes(a).equals(h.bytes), `${provider} batch ${payload}: body kept`).toBe(true);
        return;
      }
      expect(final.status).toBe('completed');
      expect(attempts.map((a) => `${a.outcome}/${a.error_kind}`)).toEqual(trials.map(() => 'ok/null'));
      // a batch item's body is kept as the JSON text of the item as read: the bytes sent, or for bytes that are not
      // UTF-8 the text with each bad sequence replaced by U+FFFD (the results file is read as text)
      const kept = payload === 'invalid-utf8' ? utf8(h.bytes.toString('utf8')) : h.bytes;
      // Gemini's inlined responses reach the record as the SDK's object of them, not as their text (docs/faults.md)
      if (provider === 'gemini') return;
      for (const a of attempts) expect(keptBytes(a).equals(kept), `${provider} batch ${payload}: body kept`).toBe(true);
    },
    120_000,
  );
});

// ---- MCP listings (docs/faults.md): a real MCP server over stdio (newline-delimited JSON-RPC, written out
// plainly: no SDK server sends bytes that are not UTF-8) whose tools/list answer holds one hostile tool beside a
// fine one. The import stores the listing exactly (escaped reversibly) or refuses it with a ToolFileError naming
// the tool's place; it never crashes another way, hangs, or stores something else.

type ListingPayload = 'lone-surrogate' | 'invalid-utf8' | 'big-string' | 'deep-schema';
const LISTING_PAYLOADS: ListingPayload[] = ['lone-surrogate', 'invalid-utf8', 'big-string', 'deep-schema'];

describe('MCP listings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tclab-wire-fuzz-'));
  const serverFile = join(dir, 'hostile-server.mjs');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    serverFile,
    `import { createInterface } from 'node:readline';
const kind = process.argv[2];
const fine = { name: 'fine_tool', description: 'Looks up one order by its id.', inputSchema: { type: 'object' } };
const hostile = { name: 'hostile_tool', description: 'Looks up one invoice.', inputSchema: { type: 'object' } };
if (kind === 'lone-surrogate') hostile.description = 'Looks up \\ud800 one invoice.';
if (kind === 'big-string') hostile.description = 'd'.repeat(${BIG});
if (kind === 'invalid-utf8') hostile.description = '@@RAW@@';
if (kind === 'deep-schema') hostile.inputSchema = { type: 'object', properties: { x: '@@RAW@@' } };
const send = (m) => {
  const text = JSON.stringify(m);
  if (!text.includes('"@@RAW@@"')) return process.stdout.write(text + '\\n');
  const [a, b] = text.split('"@@RAW@@"');
  const raw = kind === 'invalid-utf8' ? Buffer.concat([Buffer.from('"bad '), Buffer.from(${JSON.stringify(BAD_BYTES)}), Buffer.from('"')]) : Buffer.from('['.repeat(${DEPTH}) + ']'.repeat(${DEPTH}));
  process.stdout.write(Buffer.concat([Buffer.from(a), raw, Buffer.from(b + '\\n')]));
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile-server', version: '1.0.0' } } });
  else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [fine, hostile] } });
  else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'no such method' } });
});
`,
  );

  it.each(LISTING_PAYLOADS)(
    'a listing holding %s: stored as read, or refused naming the field',
    async (payload) => {
      const before = await countToolSnapshots();
      const outcome = await importServerTools({ kind: 'stdio', command: process.execPath, args: [serverFile, payload] }, { timeoutMs: 30_000 }).then(
        (snap) => ({ snap }),
        (error: unknown) => ({ error }),
      );
      // a lone surrogate and nesting past the import's limit are refused, naming the field; the rest is stored
      const refused: Partial<Record<ListingPayload, RegExp>> = {
        'lone-surrogate': /the tool "hostile_tool" at tools\[1\] cannot be stored: tools\[1\]\.description: contains a lone surrogate/,
        'deep-schema': /the tool "hostile_tool" at tools\[1\] cannot be stored: tools\[1\]\.inputSchema\.properties\.x\.0\.0.*nested deeper than the limit/,
      };
      const reason = refused[payload];
      if (reason) {
        expect('error' in outcome && outcome.error, `${payload}: refused`).toBeInstanceOf(ToolFileError);
        expect(String(('error' in outcome && (outcome.error as Error).message) || '')).toMatch(reason);
        expect(await countToolSnapshots()).toBe(before);
        return;
      }
      if ('error' in outcome) throw outcome.error;
      const stored = await getToolSnapshot(outcome.snap.id);
      const hostile = stored!.tools.find((t) => t.name === 'hostile_tool');
      expect(hostile).toBeDefined();
      const description: Record<ListingPayload, string> = {
        'lone-surrogate': 'Looks up \ud800 one invoice.',
        'invalid-utf8': `bad ${new TextDecoder().decode(Buffer.from(BAD_BYTES))}`,
        'big-string': 'd'.repeat(BIG),
        'deep-schema': 'Looks up one invoice.',
      };
      expect(hostile!.description === description[payload], `${payload}: description stored as listed`).toBe(true);
      expect(stored!.tools.map((t) => t.name)).toEqual(['fine_tool', 'hostile_tool']);
    },
    60_000,
  );
});
