// Request/response logs of the three vendors' official SDKs (openai, @anthropic-ai/sdk, @google/genai), recorded
// by a pass-through fetch while each talks to the loopback server, import into candidates equal to what the
// server received and answered; a failed call, a cut-off answer and a broken line are refused by reason, and
// the counts add up to the lines read.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Content } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicMessageBody,
  geminiGenerateContentBody,
  openaiChatCompletionBody,
  startLoopbackServer,
  wireToolRounds,
  type LoopbackServer,
  type Script,
} from '../testing/loopback-server';
import { BOOK_ARGS, recordingFetch, SEARCH_ARGS, TRACE_SYSTEM, TRACE_TOOL_RESULT, TRACE_TOOLS, TRACE_USER, type ExchangeLine } from '../testing/trace-traffic';
import type { ImportItem, TraceFormat } from '../schema/trace-candidate';
import { fileLines, IMPORTERS } from './index';

const TRUNCATE = 'Please write a very long answer.';
const FAIL = 'This one fails.';

const script: Script = (req) => {
  const raw = req.raw;
  if (raw.includes(FAIL)) return { kind: 'http', status: 500 };
  if (raw.includes(TRUNCATE)) {
    const body =
      req.wire === 'openai-chat'
        ? openaiChatCompletionBody({ text: 'Once upon', finishReason: 'length', model: req.model })
        : req.wire === 'anthropic-messages'
          ? anthropicMessageBody({ text: 'Once upon', stopReason: 'max_tokens', model: req.model })
          : geminiGenerateContentBody({ text: 'Once upon', finishReason: 'MAX_TOKENS' });
    return { kind: 'http', status: 200, body };
  }
  if (wireToolRounds(req.wire, req.body).length > 0) return { kind: 'toolCalls', calls: [{ id: 'call_book', name: 'book_table', arguments: BOOK_ARGS }] };
  return { kind: 'toolCalls', calls: [{ id: 'call_search', name: 'search_restaurants', arguments: SEARCH_ARGS }] };
};

let server: LoopbackServer;
let dir: string;
beforeAll(async () => {
  server = await startLoopbackServer({ script });
  dir = await mkdtemp(join(tmpdir(), 'tclab-traces-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const tools = TRACE_TOOLS.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));

async function importLog(format: TraceFormat, log: ExchangeLine[]): Promise<ImportItem[]> {
  const file = join(dir, `${format}.jsonl`);
  await writeFile(file, [...log.map((l) => JSON.stringify(l)), '{"request": {"messages": [', ''].join('\n'));
  const items: ImportItem[] = [];
  for await (const item of IMPORTERS[format](fileLines(file), `${format}.jsonl`)) items.push(item);
  return items;
}

function expectImported(items: ImportItem[], firstId: string | null, secondId: string | null, provider: string) {
  expect(items.map((i) => (i.kind === 'refused' ? `refused:${i.reason}` : i.kind))).toEqual([
    'candidate',
    'candidate',
    'refused:truncated',
    'refused:aborted',
    'refused:unparseable',
  ]);
  expect(items.length).toBe(5); // five lines read, five outcomes
  expect(items[4]).toMatchObject({ where: 'line 5' });
  const [first, second] = items.flatMap((i) => (i.kind === 'candidate' ? [i.candidate] : []));
  expect(first.tools).toEqual(tools);
  expect(first.catalogCompleteness).toBe('full');
  expect(first.system).toBe(TRACE_SYSTEM);
  expect(first.conversation).toEqual([{ role: 'user', text: TRACE_USER }]);
  expect(first.observed.calls).toEqual([{ id: firstId, name: 'search_restaurants', arguments: SEARCH_ARGS }]);
  expect(first.provider).toBe(provider);
  expect(first.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
  expect(first.provenance.line).toBe(1);
  expect(second.conversation).toEqual([
    { role: 'user', text: TRACE_USER },
    { role: 'assistant', text: null, calls: [{ id: firstId, name: 'search_restaurants', arguments: SEARCH_ARGS }] },
    { role: 'tool', text: TRACE_TOOL_RESULT, callId: firstId },
  ]);
  expect(second.observed.calls).toEqual([{ id: secondId, name: 'book_table', arguments: BOOK_ARGS }]);
}

describe('request/response logs of the vendor SDKs', () => {
  it('OpenAI Chat Completions', async () => {
    const log: ExchangeLine[] = [];
    const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0, fetch: recordingFetch(log) });
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'system', content: TRACE_SYSTEM },
      { role: 'user', content: TRACE_USER },
    ];
    const a = await client.chat.completions.create({ model: 'gpt-loopback', messages, tools: TRACE_TOOLS });
    const m = a.choices[0].message;
    const b = await client.chat.completions.create({
      model: 'gpt-loopback',
      messages: [...messages, m, { role: 'tool', tool_call_id: m.tool_calls![0].id, content: TRACE_TOOL_RESULT }],
      tools: TRACE_TOOLS,
    });
    await client.chat.completions.create({ model: 'gpt-loopback', messages: [{ role: 'user', content: TRUNCATE }], tools: TRACE_TOOLS });
    await expect(client.chat.completions.create({ model: 'gpt-loopback', messages: [{ role: 'user', content: FAIL }], tools: TRACE_TOOLS })).rejects.toThrow();
    expect(log).toHaveLength(4);
    expectImported(await importLog('openai-log', log), m.tool_calls![0].id, b.choices[0].message.tool_calls![0].id, 'openai');
  });

  it('Anthropic Messages', async () => {
    const log: ExchangeLine[] = [];
    const client = new Anthropic({ apiKey: 'sk-ant-loopback', baseURL: server.anthropicBaseUrl, maxRetries: 0, fetch: recordingFetch(log) });
    const anthropicTools = tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema }));
    const user: Anthropic.MessageParam = { role: 'user', content: TRACE_USER };
    const a = await client.messages.create({ model: 'claude-loopback', max_tokens: 256, system: TRACE_SYSTEM, messages: [user], tools: anthropicTools });
    const use = a.content.find((c) => c.type === 'tool_use')!;
    const b = await client.messages.create({
      model: 'claude-loopback',
      max_tokens: 256,
      system: TRACE_SYSTEM,
      messages: [user, { role: 'assistant', content: a.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: TRACE_TOOL_RESULT }] }],
      tools: anthropicTools,
    });
    await client.messages.create({ model: 'claude-loopback', max_tokens: 5, messages: [{ role: 'user', content: TRUNCATE }], tools: anthropicTools });
    await expect(
      client.messages.create({ model: 'claude-loopback', max_tokens: 5, messages: [{ role: 'user', content: FAIL }], tools: anthropicTools }),
    ).rejects.toThrow();
    expect(log).toHaveLength(4);
    const secondUse = b.content.find((c) => c.type === 'tool_use')!;
    expectImported(await importLog('anthropic-log', log), use.id, secondUse.id, 'anthropic');
  });

  it('Gemini generateContent', async () => {
    const log: ExchangeLine[] = [];
    const ids: (string | null)[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = recordingFetch(log, realFetch);
    try {
      const client = new GoogleGenAI({ apiKey: 'loopback', vertexai: false, httpOptions: { baseUrl: server.geminiBaseUrl } });
      const config = {
        systemInstruction: TRACE_SYSTEM,
        tools: [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }],
      };
      const user: Content = { role: 'user', parts: [{ text: TRACE_USER }] };
      const a = await client.models.generateContent({ model: 'gemini-loopback', contents: [user], config });
      const fc = a.functionCalls![0];
      const b = await client.models.generateContent({
        model: 'gemini-loopback',
        contents: [
          user,
          a.candidates![0].content!,
          { role: 'user', parts: [{ functionResponse: { id: fc.id, name: fc.name, response: JSON.parse(TRACE_TOOL_RESULT) as Record<string, unknown> } }] },
        ],
        config,
      });
      ids.push(fc.id ?? null, b.functionCalls![0].id ?? null);
      await client.models.generateContent({ model: 'gemini-loopback', contents: [{ role: 'user', parts: [{ text: TRUNCATE }] }], config });
      await expect(client.models.generateContent({ model: 'gemini-loopback', contents: [{ role: 'user', parts: [{ text: FAIL }] }], config })).rejects.toThrow();
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(log).toHaveLength(4);
    const items = await importLog('gemini-log', log);
    expectImported(
      items.map((i) =>
        // Gemini's tool result is the response object; the log keeps it as JSON text of what was sent.
        i.kind === 'candidate'
          ? {
              ...i,
              candidate: {
                ...i.candidate,
                conversation: i.candidate.conversation.map((m) => (m.role === 'tool' ? { ...m, text: JSON.stringify(JSON.parse(m.text!)) } : m)),
              },
            }
          : i,
      ),
      ids[0],
      ids[1],
      'gemini',
    );
    const first = items[0].kind === 'candidate' ? items[0].candidate : null;
    expect(first?.model).toBe('gemini-loopback');
  });
});
