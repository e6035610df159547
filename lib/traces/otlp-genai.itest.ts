// OpenTelemetry's own instrumentation (@opentelemetry/instrumentation-openai, GenAI conventions) records the
// official openai SDK talking to the loopback server. For Chat Completions it writes the span's attributes
// and the messages as event records (gen_ai.user.message, gen_ai.choice, …) and no tool definitions: the
// OTLP JSON imports as candidates whose conversation and calls equal what the server received and answered,
// with the catalog `missing`. A call the server failed is refused as aborted.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { metrics } from '@opentelemetry/api';
import * as openaiModule from 'openai';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import { JsonLogsSerializer, JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { OpenAIInstrumentation } from '@opentelemetry/instrumentation-openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { expectedRestaurantCandidates, restaurantConversation, restaurantScript, TRACE_SYSTEM, TRACE_TOOLS } from '../testing/trace-traffic';
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

async function importFile(file: string): Promise<ImportItem[]> {
  const items: ImportItem[] = [];
  for await (const item of IMPORTERS.otlp(fileLines(file), 'genai.jsonl')) items.push(item);
  return items;
}

describe('GenAI-convention spans and events of the openai SDK', () => {
  it('import with the catalog missing, the conversation and calls as the server saw them, an aborted call refused', async () => {
    const spanExporter = new InMemorySpanExporter();
    const tracerProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });
    const logExporter = new InMemoryLogRecordExporter();
    const loggerProvider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: logExporter })] });
    const instrumentation = new OpenAIInstrumentation({ captureMessageContent: true });
    instrumentation.setTracerProvider(tracerProvider);
    instrumentation.setLoggerProvider(loggerProvider);
    // Its metric instruments are made when a meter provider is set (the global one: no metrics are read here).
    instrumentation.setMeterProvider(metrics.getMeterProvider());
    // The instrumentation hooks require(); an ESM import is patched through its module definition.
    for (const def of instrumentation.getModuleDefinitions()) def.patch?.(openaiModule, '6.49.0');
    const client = new OpenAI({ apiKey: 'sk-loopback', baseURL: server.openaiBaseUrl, maxRetries: 0 });
    const answered = await restaurantConversation(client);
    server.setScript(() => ({ kind: 'http', status: 500 }));
    await expect(client.chat.completions.create({ model: 'gpt-loopback', messages: [{ role: 'user', content: 'Book it.' }], tools: TRACE_TOOLS })).rejects.toThrow();
    server.setScript(restaurantScript);
    await tracerProvider.forceFlush();
    await loggerProvider.forceFlush();
    const spans = spanExporter.getFinishedSpans();
    const logs = logExporter.getFinishedLogRecords();
    expect(spans).toHaveLength(4);
    const spanLine = Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8');
    const logLine = Buffer.from(JsonLogsSerializer.serializeRequest(logs)!).toString('utf8');

    const want = expectedRestaurantCandidates(
      server.requests.map((r) => r.body),
      answered,
    );
    for (const order of [
      [spanLine, logLine],
      [logLine, spanLine],
    ]) {
      const file = join(dir, 'genai.jsonl');
      await writeFile(file, order.join('\n') + '\n');
      const items = await importFile(file);
      expect(items.map((i) => i.kind)).toEqual(['candidate', 'candidate', 'skipped', 'refused']);
      const [first, second] = items.flatMap((i) => (i.kind === 'candidate' ? [i.candidate] : []));
      expect(first.tools).toEqual([]);
      expect(first.catalogCompleteness).toBe('missing');
      expect(first.system).toBe(TRACE_SYSTEM);
      expect(first.conversation).toEqual(want.first.conversation);
      expect(first.observed.calls).toEqual(want.first.calls);
      expect(first.provider).toBe('openai');
      expect(first.model).toBe(want.first.model);
      expect(first.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
      expect(second.conversation).toEqual(want.second.conversation);
      expect(second.observed.calls).toEqual(want.second.calls);
      expect(items[3]).toMatchObject({ kind: 'refused', reason: 'aborted', where: expect.stringContaining(spans[3].spanContext().spanId) });
    }
  });
});
