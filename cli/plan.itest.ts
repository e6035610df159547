import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../lib/db/client';
import { runCli } from '../lib/testing/engine';
import { ExperimentSpec } from '../lib/design/experiment-spec';
import { getTemplate } from '../lib/templates';
import { planExperiment } from '../lib/design/plan';
import { PriceTable } from '../lib/design/cost';

// `tclab plan`: the designer's preview from the command line, no database.
const dir = await mkdtemp(path.join(tmpdir(), 'tclab-plan-'));
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await closeDb();
});

describe('tclab plan', () => {
  it('prints the matrix counts, tokens per catalog and the cost from a price file; --json is the plan object', async () => {
    const priceFile = path.join(dir, 'prices.json');
    const prices = { currency: 'EUR', outputTokensPerRequest: 200, prices: [{ provider: 'openai', model: 'some-model', inputPerMTok: 1.5, outputPerMTok: 6 }] };
    await writeFile(priceFile, JSON.stringify(prices));
    const json = await runCli(['plan', '--template', 'reference-study', '--price', priceFile, '--json']);
    expect(json.code).toBe(0);
    const expected = planExperiment(ExperimentSpec.parse(getTemplate('reference-study').build()), PriceTable.parse(prices));
    expect(JSON.parse(json.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    const text = await runCli(['plan', '--template', 'reference-study', '--price', priceFile]);
    expect(text.stdout).toContain('selection (selection): overlapping (baseline) 48, clear 48; pairs 48; trials 96');
    expect(text.stdout).toContain('formal requests: 152 · pre-checks: 2');
    expect(text.stdout).toMatch(/openai\/some-model\s+EUR \d+\.\d{4}/);
  });

  it('catalog-scale: tokens of the tools sent per request at each catalog size N, and the cost of each N', async () => {
    const priceFile = path.join(dir, 'prices-catalog.json');
    const prices = { currency: 'USD', outputTokensPerRequest: 200, prices: [{ provider: 'openai', model: 'some-model', inputPerMTok: 1.5, outputPerMTok: 6 }] };
    await writeFile(priceFile, JSON.stringify(prices));
    const json = await runCli(['plan', '--template', 'catalog-scale', '--price', priceFile, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as ReturnType<typeof planExperiment>;
    // 2 discovery variants × 4 sizes × 2 conditions; 6 cases × 2 orders under `all`, 6 under BM25 (its ranking fixes the order)
    expect(plan.catalogScale).toHaveLength(16);
    expect(plan.catalogScale.reduce((a, r) => a + r.requests, 0)).toBe(plan.matrix.formal);
    const row = (discovery: string, size: number, condition = 'clear') =>
      plan.catalogScale.find((r) => r.discovery === discovery && r.size === size && r.condition === condition)!;
    for (const condition of ['overlapping', 'clear'])
      for (const [i, size] of [0, 8, 32, 117].entries()) {
        const all = row('all', size, condition);
        const bm25 = row('bm25-top-5', size, condition);
        expect([all.requests, bm25.requests]).toEqual([12, 6]);
        // every tool under `all` (the 2 invoice tools + N); at most k under BM25
        expect(all.tools).toBe(2 + size);
        expect(bm25.tools).toBe(Math.min(5, 2 + size));
        if (i > 0) expect(all.toolTokens).toBeGreaterThan(row('all', [0, 8, 32, 117][i - 1], condition).toolTokens);
        expect(bm25.toolTokens).toBeLessThanOrEqual(all.toolTokens);
        // the cost of this N's requests at the price file's row: its prompt tokens (≥ the tools') and 200 output tokens a request
        for (const r of [all, bm25]) {
          const [c] = r.costs;
          expect(c.inputTokens).toBeGreaterThan(r.toolTokens * r.requests);
          expect(c.outputTokens).toBe(200 * r.requests);
          expect(c.cost).toBeCloseTo((c.inputTokens * 1.5 + c.outputTokens * 6) / 1e6, 12);
        }
      }
    expect(row('all', 117).costs[0].cost).toBeGreaterThan(row('all', 0).costs[0].cost * 10);
    // the text: a line per row with the same numbers
    const text = await runCli(['plan', '--template', 'catalog-scale', '--price', priceFile]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('tokens per catalog size');
    for (const r of plan.catalogScale) {
      const line = text.stdout.split('\n').find((l) => l.trim().startsWith(`${r.study}/${r.discovery}/N=${r.size}/${r.condition} `));
      expect(line, `${r.discovery} N=${r.size} ${r.condition}`).toBeDefined();
      expect(line).toContain(`${r.toolTokens.toLocaleString('en')} tokens × ${r.requests} requests`);
      expect(line).toContain(`openai/some-model USD ${r.costs[0].cost.toFixed(4)}`);
    }
  }, 180_000); // two CLI processes, each expanding 144 trials and counting their tokens

  it('exits 2 naming the field of an invalid price table', async () => {
    const bad = path.join(dir, 'bad-prices.json');
    await writeFile(bad, JSON.stringify({ prices: [{ provider: 'openai', model: 'm', inputPerMTok: -1, outputPerMTok: 1 }] }));
    const refused = await runCli(['plan', '--template', 'reference-study', '--price', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('prices.0.inputPerMTok');
  });
});

describe('tclab plan --pilot', () => {
  it("gives each comparison the pairs Connor's formula gives from the pilot's pairs, before and after the design effect", async () => {
    const run = await runCli(['run', '--template', 'reference-study']);
    expect(run.code, run.stderr).toBe(0);
    const runId = /^run (r_\w+)/m.exec(run.stderr)![1];
    const r = await runCli(['plan', '--pilot', runId, '--delta', '0.15', '--power', '0.9', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ delta: 0.15, power: 0.9, alpha: 0.05 });

    // By hand from the stored trials: per case, each pair's difference d = treatment − baseline (1 improved,
    // −1 regressed, 0 same); ψ = discordant / pairs; the one-way ANOVA ICC of d within cases; m = pairs / cases;
    // n = [z₀.₉₇₅·√ψ + z₀.₉·√(ψ − δ²)]² / δ² with z₀.₉₇₅ = 1.959964, z₀.₉ = 1.281552; with DE = 1 + (m − 1)·max(0, ICC).
    const pairs = (
      await pool().query<{ study: string; case_id: string; d: number }>(
        `SELECT b.study, b.case_id || '|' || b.scenario || '|' || b.locale AS case_id,
                (CASE WHEN t.status = 'passed' THEN 1 ELSE 0 END) - (CASE WHEN b.status = 'passed' THEN 1 ELSE 0 END) AS d
           FROM trials b JOIN trials t ON t.run_id = b.run_id AND t.pair_key = b.pair_key AND t.study = b.study AND t.condition <> b.condition
          WHERE b.run_id = $1 AND b.condition = ANY($2::text[]) AND b.status IN ('passed', 'failed') AND t.status IN ('passed', 'failed')`,
        [runId, plan.studies.map((s: { baseline: string }) => s.baseline)],
      )
    ).rows;
    expect(plan.studies.map((s: { study: string }) => s.study)).toEqual(['selection', 'interpretation']);
    for (const study of ['selection', 'interpretation']) {
      const mine = pairs.filter((p) => p.study === study);
      const cases = new Map<string, number[]>();
      for (const p of mine) cases.set(p.case_id, [...(cases.get(p.case_id) ?? []), p.d]);
      const N = mine.length;
      const G = cases.size;
      const psi = mine.filter((p) => p.d !== 0).length / N;
      const grand = mine.reduce((a, p) => a + p.d, 0) / N;
      let ssb = 0;
      let ssw = 0;
      for (const ds of cases.values()) {
        const m = ds.reduce((a, x) => a + x, 0) / ds.length;
        ssb += ds.length * (m - grand) ** 2;
        ssw += ds.reduce((a, x) => a + (x - m) ** 2, 0);
      }
      const msb = ssb / (G - 1);
      const msw = ssw / (N - G);
      const m0 = (N - [...cases.values()].reduce((a, ds) => a + ds.length ** 2, 0) / N) / (G - 1);
      // one pair per case (interpretation: one order, one replicate): no within-case variation, no ICC, DE 1
      const icc = N > G ? (msb - msw) / (msb + (m0 - 1) * msw) : null;
      const de = icc === null ? 1 : 1 + (N / G - 1) * Math.max(0, icc);
      const n = (1.959964 * Math.sqrt(psi) + 1.281552 * Math.sqrt(psi - 0.15 ** 2)) ** 2 / 0.15 ** 2;
      const row = plan.studies.find((s: { study: string }) => s.study === study);
      expect(row.pilot.pairs).toBe(N);
      expect(row.psi).toBeCloseTo(psi, 12);
      if (icc === null) expect(row.icc).toBeNull();
      else expect(row.icc).toBeCloseTo(icc, 9);
      expect(row.designEffect).toBeCloseTo(de, 9);
      expect(row.pairsNeeded).toBe(Math.ceil(n - 1e-6));
      expect(row.pairsNeededWithDesignEffect).toBe(Math.ceil(n * de - 1e-6));
      expect(row.pairsNeededWithDesignEffect).toBeGreaterThanOrEqual(row.pairsNeeded);
    }
    const text = await runCli(['plan', '--pilot', runId, '--delta', '0.15', '--power', '0.9']);
    expect(text.stdout).toContain(`pilot ${runId}: pairs to detect δ = +15.0 pts with power 90.0% at α 0.05`);
    expect(text.stdout).toMatch(/selection: overlapping → clear/);
  });

  it('exits 2 naming the flag of a bad share or an unknown pilot', async () => {
    const bad = await runCli(['plan', '--pilot', 'r_nope', '--delta', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--delta: expected a share between 0 and 1');
    const missing = await runCli(['plan', '--pilot', 'r_nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pilot: not found');
    const stray = await runCli(['plan', '--template', 'reference-study', '--power', '0.9']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--delta, --power and --alpha go with --pilot');
  });
});
