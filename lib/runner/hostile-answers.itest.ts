import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { resetEnvCache } from '../env';
import { saveExperiment } from '../experiments/versions';
import { closeQueues } from '../queue/connection';
import { runJsonStream } from '../runs/export';
import { RunExport } from '../schema/run-export';
import { engineViolations, waitForRunStatus } from '../testing/engine';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { tinyExperiment } from '../testing/tiny-experiment';
import { createRun, startRun } from './start';
import { startWorker } from './worker';

// What a provider sends is kept (docs/faults.md › What a provider sends is kept): a vendor tool search whose
// result names tools with U+0000 and a lone surrogate, through the real Anthropic SDK. Each trial ends with one
// formal result from one request, no attempt is `lost` or left `sending`, and the names are stored as sent.

const KEYS = { OPENAI_API_KEY: 'sk-test-hostile-0000', ANTHROPIC_API_KEY: 'sk-ant-test-hostile', GEMINI_API_KEY: 'gm-test-hostile' };
let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
  Object.assign(process.env, { ...KEYS, OPENAI_COMPATIBLE_API_KEY: 'sk-compat-hostile', TCLAB_ALLOWED_BASE_URLS: server.url });
  resetEnvCache();
});
afterAll(async () => {
  await server?.close();
  await closeQueues();
  await closeDb();
});

async function exportOf(runId: string): Promise<RunExport> {
  const chunks: Buffer[] = [];
  for await (const c of await runJsonStream(runId)) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return RunExport.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
}

async function complete(runId: string): Promise<void> {
  expect((await startRun(runId)).ok).toBe(true);
  const worker = startWorker({ concurrency: 4, reconcileEveryMs: 500 });
  try {
    await worker.ready;
    expect((await waitForRunStatus(runId, ['completed'], 120_000)).status).toBe('completed');
  } finally {
    await worker.close();
  }
  expect(await engineViolations(runId)).toEqual([]);
}

/** Formal attempts of the run by outcome and error kind, and trials by status. */
async function ledger(runId: string) {
  const a = await pool().query<{ outcome: string; error_kind: string | null; n: number }>(
    `SELECT outcome, error_kind, count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal' GROUP BY 1, 2`,
    [runId],
  );
  const t = await pool().query<{ status: string; n: number; observed: number }>(
    `SELECT t.status, count(*)::int AS n, count(o.trial_id)::int AS observed FROM trials t LEFT JOIN observations o ON o.trial_id = t.id WHERE t.run_id = $1 GROUP BY 1`,
    [runId],
  );
  return { attempts: a.rows, trials: t.rows, attemptCount: a.rows.reduce((s, x) => s + x.n, 0) };
}

/** The tiny experiment with 8 GitHub distractors, every tool deferred to Anthropic's regex tool search. */
function vendorSearchSpec(id: string) {
  const input = tinyExperiment(id, 'What is the status of invoice INV-2041?');
  const study = input.studies[0] as Record<string, unknown>;
  study.catalog = {
    source: { builtin: 'github-mcp-server' },
    sizes: [8],
    seed: 'vendor-search-v1',
    discovery: [{ id: 'vs', mechanism: 'vendor-search', search: 'anthropic-regex' }],
  };
  return input;
}

describe('a vendor tool search naming a tool with U+0000', () => {
  it('is stored as named, each trial scored once from one request', async () => {
    const exp = await saveExperiment(vendorSearchSpec('hostile-tool-search'));
    server.clearRequests();
    // the vendor's search result names every tool it found with a NUL and a lone surrogate appended
    server.setToolSearchRewrite((response) => {
      const content = (response.content as Record<string, unknown>[]).map((block) => {
        if (block.type !== 'tool_search_tool_result') return block;
        const result = block.content as { tool_references: { type: string; tool_name: string }[] };
        return { ...block, content: { ...result, tool_references: result.tool_references.map((r) => ({ ...r, tool_name: `${r.tool_name}\u0000\ud800` })) } };
      });
      return { ...response, content };
    });
    try {
      const run = await createRun(exp.id, { provider: 'anthropic', model: 'claude-loopback', baseUrl: server.anthropicBaseUrl, retryBaseMs: 20, maxAttempts: 3 });
      await complete(run.id);
      const l = await ledger(run.id);
      const doc = await exportOf(run.id);
      expect(doc.trials.length).toBeGreaterThan(0);
      // one request per trial, one attempt per request, every trial scored (none unresolved, none lost)
      expect(server.toolSearchRequests).toHaveLength(doc.trials.length);
      expect(l.attemptCount).toBe(doc.trials.length);
      expect(l.attempts).toEqual([{ outcome: 'ok', error_kind: null, n: doc.trials.length }]);
      for (const t of doc.trials) {
        expect(['passed', 'failed', 'untested']).toContain(t.status);
        expect(t.attempts).toHaveLength(1);
        const got = server.toolSearchRequests.find(
          (q) => JSON.stringify((q.body as { tools: { name: string }[] }).tools.slice(1).map((x) => x.name)) === JSON.stringify(t.order),
        );
        expect(got).toBeDefined();
        // stored as the vendor named them, NUL and lone surrogate included
        expect(t.visible).toEqual(got!.found.map((n) => `${n}\u0000\ud800`));
      }
      expect(doc.trials.some((t) => (t.visible ?? []).length > 0)).toBe(true);
    } finally {
      server.setToolSearchRewrite(null);
    }
  }, 180_000);
});
