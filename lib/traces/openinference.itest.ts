// OpenInference's instrumentation (@arizeai/openinference-instrumentation-openai) records the official openai
// SDK talking to the loopback server; the OTLP JSON it exports imports into candidates equal to what the
// server received and answered.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { expectedRestaurantCandidates, restaurantConversation, restaurantScript, TRACE_SYSTEM } from '../testing/trace-traffic';
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

describe('OpenInference spans of the openai SDK', () => {
  it('import into candidates equal to what the loopback server received and answered', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
    instrumentation.manuallyInstrument(OpenAI);
    const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const answered = await restaurantConversation(client);
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(3);
    const file = join(dir, 'openinference.jsonl');
    await writeFile(file, Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8') + '\n');

    const items: ImportItem[] = [];
    for await (const item of IMPORTERS.openinference(fileLines(file), 'openinference.jsonl')) items.push(item);
    expect(items.map((i) => i.kind)).toEqual(['candidate', 'candidate', 'skipped']);
    const [first, second] = items.flatMap((i) => (i.kind === 'candidate' ? [i.candidate] : []));
    const want = expectedRestaurantCandidates(
      server.requests.map((r) => r.body),
      answered,
    );

    expect(first.tools).toEqual(want.tools);
    expect(first.catalogCompleteness).toBe('full');
    expect(first.system).toBe(TRACE_SYSTEM);
    expect(first.conversation).toEqual(want.first.conversation);
    expect(first.observed.calls).toEqual(want.first.calls);
    expect(first.observed.finishReason).toBe('tool_calls');
    expect(first.model).toBe(want.first.model);
    expect(first.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(first.provenance).toMatchObject({ format: 'openinference', line: 1, spanId: spans[0].spanContext().spanId });
    expect(second.tools).toEqual(want.tools);
    expect(second.conversation).toEqual(want.second.conversation);
    expect(second.observed.calls).toEqual(want.second.calls);
  });
});
