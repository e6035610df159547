import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../lib/testing/engine';
import { ExperimentSpec } from '../lib/design/experiment-spec';
import { getTemplate } from '../lib/templates';
import { planExperiment } from '../lib/design/plan';
import { PriceTable } from '../lib/design/cost';

// `tclab plan`: the designer's preview from the command line, no database.
const dir = await mkdtemp(path.join(tmpdir(), 'tclab-plan-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

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

  it('exits 2 naming the field of an invalid price table', async () => {
    const bad = path.join(dir, 'bad-prices.json');
    await writeFile(bad, JSON.stringify({ prices: [{ provider: 'openai', model: 'm', inputPerMTok: -1, outputPerMTok: 1 }] }));
    const refused = await runCli(['plan', '--template', 'reference-study', '--price', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('prices.0.inputPerMTok');
  });
});
