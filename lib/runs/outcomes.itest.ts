import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetEnvCache } from '../env';
import { closeDb } from '../db/client';
import { saveExperiment } from '../experiments/versions';
import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { iterateTrialRecords, type TrialRecord } from '../db/results';
import { loadRunSummary } from './summary';
import { savePriceTable } from '../runner/price-table';
import { closeQueues } from '../queue/connection';
import { engineViolations, runToCompletion } from '../testing/engine';
import { openaiChatCompletionBody, startLoopbackServer, wireToolNames, type LoopbackServer } from '../testing/loopback-server';
import { tinyExperiment } from '../testing/tiny-experiment';
import { compareRuns } from './compare';
import { formatNoiseFloor, formatPower } from '../analysis/format-outcomes';

// A run with replicates against the OpenAI SDK on the loopback server, whose
// answers flip between identical trials and report usage (cached tokens included). Every figure the run page
// and the export show — token totals and their paired difference, flip rates, the noise floor, the cases no
// condition passes — is recomputed here from the stored trials, one by one, and must be equal.

let server: LoopbackServer;

// a seeded generator: the answers differ between replicates, and the test never depends on which
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(24);

beforeAll(async () => {
  server = await startLoopbackServer({
    script: (req) => {
      const names = wireToolNames(req.wire, req.body);
      const text = JSON.stringify(req.body);
      const clear = text.includes('Read-only');
      // the write-only case: nobody reads for it, so every condition fails it (its card expects a read)
      const pass = !text.includes('INV-NEVER') && random() < (clear ? 0.75 : 0.4);
      const call = pass ? names.find((n) => n === 'get_invoice')! : names.find((n) => n === 'pay_invoice')!;
      const body = openaiChatCompletionBody({
        calls: [{ name: call, arguments: { invoice_id: 'INV-7' } }],
        usage: { inputTokens: 200 + (clear ? 40 : 0) + Math.floor(random() * 20), outputTokens: 10 + Math.floor(random() * 30) },
      });
      (body.usage as Record<string, unknown>).prompt_tokens_details = { cached_tokens: Math.floor(random() * 100) };
      return { kind: 'http', status: 200, body };
    },
  });
  process.env.OPENAI_API_KEY = 'sk-test-outcomes-0000';
  process.env.TCLAB_ALLOWED_BASE_URLS = server.url;
  resetEnvCache();
});

afterAll(async () => {
  await server.close();
  await closeQueues();
  await closeDb();
});

const spec = () => {
  const s = tinyExperiment('outcomes-itest') as ReturnType<typeof tinyExperiment> & { studies: { cases: Record<string, unknown>[]; orderPolicy?: string }[] };
  const first = s.studies[0].cases[0];
  s.studies[0].orderPolicy = 'fixed';
  s.studies[0].cases = [
    ...['INV-1', 'INV-2', 'INV-3', 'INV-4', 'INV-5'].map((inv, i) => ({ ...structuredClone(first), id: `read-${i + 1}`, task: `Show invoice ${inv}.` })),
    { ...structuredClone(first), id: 'read-never', task: 'Show invoice INV-NEVER.' },
  ];
  return { ...s, replicates: 4 };
};

async function runOnce(): Promise<string> {
  const exp = await saveExperiment(spec());
  const run = { id: await runToCompletion(exp.id, { provider: 'openai', model: 'outcomes-model', baseUrl: server.openaiBaseUrl, concurrency: 4 }, 4) };
  expect(await engineViolations(run.id)).toEqual([]);
  return run.id;
}

const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
const cachedOf = (t: TrialRecord) =>
  sum(t.attempts.map((a) => (a.response as { usage?: { prompt_tokens_details?: { cached_tokens?: number } } } | null)?.usage?.prompt_tokens_details?.cached_tokens ?? 0));

describe('noise floor, cost and unpassable cases, recomputed from the trials', () => {
  let runId: string;
  let other: string;

  it('every figure equals the one recomputed from the stored trials', async () => {
    await savePriceTable({ currency: 'USD', outputTokensPerRequest: 150, prices: [{ provider: 'openai', model: 'outcomes-model', inputPerMTok: 2, outputPerMTok: 8 }] });
    runId = await runOnce();
    const trials: TrialRecord[] = [];
    for await (const t of iterateTrialRecords(runId)) trials.push(t);
    expect(trials).toHaveLength(6 * 2 * 4); // cases × conditions × replicates (one order: the policy is fixed)
    const exp = (await getExperiment((await getRun(runId))!.experimentId))!;
    const summary = await loadRunSummary(runId, exp.spec);
    const s = summary.studies[0];

    // cost: totals per condition over every attempt, and the mean per-pair difference treatment − baseline
    for (const c of ['overlapping', 'clear']) {
      const mine = trials.filter((t) => t.condition === c);
      const row = s.cost!.conditions.find((x) => x.condition === c)!;
      const input = sum(mine.flatMap((t) => t.attempts.map((a) => a.inputTokens ?? 0)));
      const output = sum(mine.flatMap((t) => t.attempts.map((a) => a.outputTokens ?? 0)));
      expect(row.metrics.inputTokens.total).toBe(input);
      expect(row.metrics.outputTokens.total).toBe(output);
      expect(row.metrics.cachedTokens.total).toBe(sum(mine.map(cachedOf)));
      expect(row.metrics.toolCalls.total).toBe(sum(mine.map((t) => t.observation?.toolCalls.length ?? 0)));
      expect(row.metrics.turns.total).toBe(mine.filter((t) => t.observation).length);
      // the price table is global: another test file may have replaced it meanwhile, so the row used is the one named
      const price = s.cost!.price;
      if (price) expect(row.cost).toBeCloseTo((input * price.inputPerMTok + output * price.outputPerMTok) / 1e6, 12);
      else expect(row.cost).toBeNull();
    }
    const byPair = new Map<string, Record<string, TrialRecord>>();
    for (const t of trials) byPair.set(t.pairKey, { ...byPair.get(t.pairKey), [t.condition]: t });
    const inputOf = (t: TrialRecord) => sum(t.attempts.map((a) => a.inputTokens ?? 0));
    const diffs = [...byPair.values()].map((p) => inputOf(p.clear) - inputOf(p.overlapping));
    const d = s.cost!.conditions.find((x) => x.condition === 'clear')!.difference!.inputTokens;
    expect(d.pairs).toBe(24);
    expect(d.clusters).toBe(6);
    expect(d.estimate).toBeCloseTo(sum(diffs) / diffs.length, 9);
    expect(d.estimate).toBeGreaterThan(20); // the clear descriptions cost 40 more prompt tokens per request

    // noise: per task (case × order) the four replicates; flipped when they disagree; within variance pooled
    for (const c of ['overlapping', 'clear']) {
      const tasks = new Map<string, number[]>();
      for (const t of trials.filter((x) => x.condition === c && (x.status === 'passed' || x.status === 'failed')))
        tasks.set(`${t.caseId}|${t.orderIndex}`, [...(tasks.get(`${t.caseId}|${t.orderIndex}`) ?? []), t.status === 'passed' ? 1 : 0]);
      const ys = [...tasks.values()];
      const flipped = ys.filter((y) => new Set(y).size > 1).length;
      const ss = sum(ys.map((y) => sum(y.map((v) => (v - sum(y) / y.length) ** 2))));
      const df = sum(ys.map((y) => y.length - 1));
      const n = sum(ys.map((y) => y.length));
      const noise = s.noise!.conditions.find((x) => x.condition === c)!;
      expect(noise).toMatchObject({ tasks: 6, flipped, n });
      expect(noise.flipRate).toBeCloseTo(flipped / 6, 12);
      expect(noise.withinVariance).toBeCloseTo(ss / df, 12);
      expect(noise.noiseFloor).toBeCloseTo(1.96 * Math.sqrt((2 * ss) / df / n), 5);
    }
    const [b, t] = ['overlapping', 'clear'].map((c) => s.noise!.conditions.find((x) => x.condition === c)!);
    expect(s.noise!.noiseFloor).toBeCloseTo(1.96 * Math.sqrt(b.withinVariance! / b.n + t.withinVariance! / t.n), 5);
    expect(s.noise!.withinNoise).toBe(Math.abs(s.difference!.estimate!) < s.noise!.noiseFloor!);
    expect(formatNoiseFloor(s.noise!)).toMatch(/^noise floor ±\d+\.\d pts — (within|beyond) noise$/);

    // the case no condition passes
    expect(s.unpassable).toEqual([{ scenario: 'invoice', locale: 'en', caseId: 'read-never', trials: 8 }]);
    expect(trials.filter((x) => x.caseId === 'read-never').every((x) => x.status === 'failed')).toBe(true);

    // power: the run's pairs and discordant share
    const decided = [...byPair.values()].filter((p) => ['passed', 'failed'].includes(p.clear.status) && ['passed', 'failed'].includes(p.overlapping.status));
    expect(s.power!.pairs).toBe(decided.length);
    expect(s.power!.psi).toBeCloseTo(decided.filter((p) => p.clear.status !== p.overlapping.status).length / decided.length, 12);
    expect(formatPower(s.power!)).toMatch(/^this run could detect ≥ \d+\.\d points|^minimum detectable difference — /);
  }, 180_000);

  it('a comparison flags the case every run failed', async () => {
    other = await runOnce();
    const cmp = await compareRuns([runId, other]);
    expect(cmp.unpassable).toEqual([{ study: 'selection', cases: [{ scenario: 'invoice', locale: 'en', caseId: 'read-never', trials: 16 }] }]);
  }, 180_000);
});
