import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { buildRequest } from '../design/matrix';
import { ExperimentSpec } from '../design/experiment-spec';
import { resetEnvCache } from '../env';
import { saveExperiment } from '../experiments/versions';
import { termSearch } from '../providers/tool-search';
import { SIMULATED_ENGINE } from '../simulator';
import { closeQueues } from '../queue/connection';
import { runJsonStream } from '../runs/export';
import { parseOrThrow, SpecError } from '../schema/common';
import { RunExport } from '../schema/run-export';
import { engineViolations, waitForRunStatus } from '../testing/engine';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { tinyExperiment } from '../testing/tiny-experiment';
import { createRun, startRun } from './start';
import { startWorker } from './worker';

// Discovery `vendor-search` as a condition (docs/discovery.md): every tool is sent deferred to the provider's
// own tool search, visibility is decided by what the provider returned (stored as the trial's `visible`), and
// a needed tool the search did not return is a visibility failure with selection untested.

const TASK = 'What is the status of invoice INV-2041?';
let server: LoopbackServer;

beforeAll(async () => {
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-vendor-search-0000';
  server = await startLoopbackServer();
  process.env.TCLAB_ALLOWED_BASE_URLS = server.url;
  resetEnvCache();
});

afterAll(async () => {
  await server.close();
  await closeQueues();
  await closeDb();
});

/**
 * The tiny experiment with 8 GitHub distractors under one vendor search; in the `clear` condition the needed
 * read tool is written without a word of the task (name, description and parameter share nothing with it).
 */
function vendorSearchSpec(id: string, search: 'anthropic-regex' | 'anthropic-bm25' | 'openai') {
  const input = tinyExperiment(id, TASK);
  const study = input.studies[0] as Record<string, unknown> & { conditions: { id: string; tools: Record<string, Record<string, Record<string, unknown>[]>> }[] };
  const opaque = study.conditions.find((c) => c.id === 'clear')!.tools.invoice.en[0];
  Object.assign(opaque, {
    name: 'fetch_bill_state',
    description: 'Returns a bill’s state by its reference.',
    parameters: { type: 'object', properties: { ref: { type: 'string' } } },
  });
  study.catalog = { source: { builtin: 'github-mcp-server' }, sizes: [8], seed: 'vendor-search-v1', discovery: [{ id: 'vs', mechanism: 'vendor-search', search }] };
  return input;
}

async function json(id: string): Promise<RunExport> {
  const chunks: Buffer[] = [];
  for await (const c of await runJsonStream(id)) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return RunExport.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
}

async function runToCompletion(runId: string) {
  expect((await startRun(runId)).ok).toBe(true);
  const worker = startWorker({ concurrency: 4, reconcileEveryMs: 500 });
  try {
    await worker.ready;
    expect((await waitForRunStatus(runId, ['completed'], 120_000)).status).toBe('completed');
  } finally {
    await worker.close();
  }
  expect(await engineViolations(runId)).toEqual([]);
  return json(runId);
}

describe('discovery vendor-search', () => {
  it('simulated: visible is what its term search returned; a needed tool it did not find fails visibility, selection untested', async () => {
    const input = vendorSearchSpec('vendor-search-sim', 'anthropic-bm25');
    const spec = parseOrThrow(ExperimentSpec, input, 'spec');
    const exp = await saveExperiment(input);
    const run = await createRun(exp.id, { provider: 'simulated', model: SIMULATED_ENGINE });
    const doc = await runToCompletion(run.id);
    expect(doc.trials.length).toBeGreaterThan(0);
    for (const t of doc.trials) {
      expect(t.discovery).toBe('vs');
      // the request: every tool sent (scenario tools and 8 distractors), every one deferred to the vendor search
      const request = buildRequest(spec, { study: t.study, caseId: t.caseId, condition: t.condition, names: t.order, discovery: t.discovery });
      expect(request.toolSearch).toEqual({ mechanism: 'anthropic-bm25', deferred: t.order });
      expect(t.order).toHaveLength(10);
      // stored visible = what the simulator's search over the deferred tools returned for the task
      expect(t.visible).toEqual(termSearch(request.tools, TASK).map((x) => x.name));
      if (t.condition === 'clear') {
        expect(t.visible).not.toContain('fetch_bill_state');
        expect(t.checkpoints?.visibility).toBe('fail');
        expect(t.checkpoints?.selection).toBe('untested');
        expect(t.verdicts.every((v) => v.status !== 'fail')).toBe(true);
      } else {
        expect(t.visible).toContain('get_invoice');
        expect(t.checkpoints?.visibility).toBe('pass');
      }
    }
  }, 180_000);

  it('anthropic over the loopback server: the stored visible is the tool references the server returned', async () => {
    const exp = await saveExperiment(vendorSearchSpec('vendor-search-anthropic', 'anthropic-regex'));
    server.clearRequests();
    const run = await createRun(exp.id, { provider: 'anthropic', model: 'claude-loopback', baseUrl: server.anthropicBaseUrl, retryBaseMs: 20, maxAttempts: 3 });
    const doc = await runToCompletion(run.id);
    expect(doc.trials.length).toBeGreaterThan(0);
    expect(server.toolSearchRequests).toHaveLength(doc.trials.length);
    for (const t of doc.trials) {
      // the request of this trial as the server received it: the search tool first, then every tool deferred
      const got = server.toolSearchRequests.find((q) => {
        const tools = (q.body as { tools: { name: string; defer_loading?: boolean }[] }).tools;
        return JSON.stringify(tools.slice(1).map((x) => x.name)) === JSON.stringify(t.order);
      });
      expect(got).toBeDefined();
      const tools = (got!.body as { tools: { type?: string; name: string; defer_loading?: boolean }[] }).tools;
      expect(tools[0]).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
      expect(tools.slice(1).every((x) => x.defer_loading === true)).toBe(true);
      expect(t.visible).toEqual(got!.found);
      expect(t.checkpoints?.visibility).toBe(t.visible!.includes(t.condition === 'clear' ? 'fetch_bill_state' : 'get_invoice') ? 'pass' : 'fail');
    }
    expect(doc.trials.some((t) => t.condition === 'clear' && t.checkpoints?.visibility === 'fail')).toBe(true);
  }, 180_000);

  it('openai over the loopback server (Responses API): the stored visible is what its tool_search returned', async () => {
    process.env.OPENAI_API_KEY = 'sk-test-vendor-search-openai-0000';
    resetEnvCache();
    const exp = await saveExperiment(vendorSearchSpec('vendor-search-openai', 'openai'));
    server.clearRequests();
    const run = await createRun(exp.id, { provider: 'openai', model: 'gpt-loopback', baseUrl: server.openaiBaseUrl, retryBaseMs: 20, maxAttempts: 3 });
    const doc = await runToCompletion(run.id);
    expect(doc.trials.length).toBeGreaterThan(0);
    expect(server.toolSearchRequests).toHaveLength(doc.trials.length);
    expect(server.requests).toEqual([]); // nothing went to chat completions
    for (const t of doc.trials) {
      const got = server.toolSearchRequests.find((q) => {
        const tools = (q.body as { tools: { name?: string }[] }).tools;
        return JSON.stringify(tools.slice(1).map((x) => x.name)) === JSON.stringify(t.order);
      });
      expect(got).toBeDefined();
      expect(got!.path).toBe('/v1/responses');
      const tools = (got!.body as { tools: { type: string; name?: string; defer_loading?: boolean }[] }).tools;
      expect(tools[0]).toEqual({ type: 'tool_search' });
      expect(tools.slice(1).every((x) => x.type === 'function' && x.defer_loading === true)).toBe(true);
      // stored: the tool_search_output's tools, in the order returned; they decide visibility
      expect(t.visible).toEqual(got!.found);
      const needed = t.condition === 'clear' ? 'fetch_bill_state' : 'get_invoice';
      expect(t.checkpoints?.visibility).toBe(t.visible!.includes(needed) ? 'pass' : 'fail');
      if (t.checkpoints?.visibility === 'fail') expect(t.checkpoints.selection).toBe('untested');
    }
    expect(doc.trials.some((t) => t.condition === 'clear' && t.checkpoints?.visibility === 'fail')).toBe(true);
    expect(doc.trials.some((t) => t.condition !== 'clear' && t.checkpoints?.visibility === 'pass')).toBe(true);
  }, 180_000);

  it('a provider that does not speak the vendor search is refused, naming the field', async () => {
    const exp = await saveExperiment(vendorSearchSpec('vendor-search-refused', 'openai'));
    const err = await createRun(exp.id, { provider: 'anthropic', model: 'claude-loopback', baseUrl: server.anthropicBaseUrl }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).issues).toEqual([
      { path: 'studies.0.catalog.discovery.0.search', message: 'vendor-search "openai" is not spoken by provider anthropic (it speaks anthropic-regex, anthropic-bm25)' },
    ]);
  });
});
