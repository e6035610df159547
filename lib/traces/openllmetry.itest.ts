// OpenLLMetry's own instrumentation (@traceloop/instrumentation-openai) records the official openai SDK
// talking to the loopback server; the OTLP JSON it exports imports into candidates that equal what the
// server received and answered.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OpenAIInstrumentation } from '@traceloop/instrumentation-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { restaurantConversation, restaurantScript, SEARCH_ARGS, BOOK_ARGS, TRACE_SYSTEM, TRACE_TOOL_RESULT, TRACE_TOOLS, TRACE_USER } from '../testing/trace-traffic';
import type { ImportItem } from '../schema/trace-candidate';
import { fileLines, IMPORTERS } from './index';

let server: LoopbackServer;
let dir: string;
beforeAll(async () => {
  server = await startLoopbackServer({ script: restaurantScript });
  dir = await mkdtemp(join(tmpdir(), 'tclab-traces-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function collect(gen: AsyncIterable<ImportItem>): Promise<ImportItem[]> {
  const out: ImportItem[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

describe('OpenLLMetry spans of the openai SDK', () => {
  it('import into candidates equal to what the loopback server received and answered', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const instrumentation = new OpenAIInstrumentation({ traceContent: true });
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument(OpenAI);
    const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const answered = await restaurantConversation(client);
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(3);
    const file = join(dir, 'openllmetry.jsonl');
    await writeFile(file, Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8') + '\n');

    const items = await collect(IMPORTERS.openllmetry(fileLines(file), 'openllmetry.jsonl'));
    expect(items.map((i) => i.kind)).toEqual(['candidate', 'candidate', 'skipped']);
    const [first, second] = items.flatMap((i) => (i.kind === 'candidate' ? [i.candidate] : []));
    const received = server.requests.map((r) => r.body as { tools: typeof TRACE_TOOLS; messages: unknown[] });

    const toolsReceived = received[0].tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters }));
    expect(first.tools).toEqual(toolsReceived);
    expect(first.catalogCompleteness).toBe('full');
    expect(first.system).toBe(TRACE_SYSTEM);
    expect(first.conversation).toEqual([{ role: 'user', text: TRACE_USER }]);
    const firstCall = answered.first.choices[0].message.tool_calls![0];
    expect(first.observed.calls).toEqual([{ id: firstCall.id, name: 'search_restaurants', arguments: SEARCH_ARGS }]);
    expect(first.model).toBe(answered.first.model);
    expect(first.provider).toBe('openai');
    expect(first.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(first.provenance).toMatchObject({
      format: 'openllmetry',
      file: 'openllmetry.jsonl',
      line: 1,
      spanId: spans[0].spanContext().spanId,
      traceId: spans[0].spanContext().traceId,
    });

    expect(second.tools).toEqual(toolsReceived);
    expect(second.conversation).toEqual([
      { role: 'user', text: TRACE_USER },
      { role: 'assistant', text: null, calls: [{ id: firstCall.id, name: 'search_restaurants', arguments: SEARCH_ARGS }] },
      { role: 'tool', text: TRACE_TOOL_RESULT, callId: firstCall.id },
    ]);
    expect(second.observed.calls).toEqual([{ id: answered.second.choices[0].message.tool_calls![0].id, name: 'book_table', arguments: BOOK_ARGS }]);
    expect(received).toHaveLength(3);
  });
});
