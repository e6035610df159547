import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../lib/testing/engine';
import { benchSpec } from '../lib/testing/bench-spec';

// `tclab lint`: the description linter and catalog token estimates from the command line.

const dir = await mkdtemp(path.join(tmpdir(), 'tclab-lint-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('tclab lint', () => {
  it('reports the reference study baselines and exits 1 on their errors; --json carries every catalog', async () => {
    const text = await runCli(['lint', '--template', 'reference-study']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('error duplicate-description: restaurant_service: has the same description as "restaurant_gateway"');
    expect(text.stdout).toMatch(/selection\/clear\/restaurant\/en\s+2\s+\d+\s+clean/);
    const json = await runCli(['lint', '--template', 'reference-study', '--json']);
    const out = JSON.parse(json.stdout) as { tokenizer: string; catalogs: { tokens: number }[]; findings: { rule: string }[] };
    expect(out.tokenizer).toBe('o200k_base');
    expect(out.catalogs).toHaveLength(16);
    expect(out.catalogs.every((c) => c.tokens > 0)).toBe(true);
    expect(out.findings.some((f) => f.rule === 'codes-without-meanings')).toBe(true);
  });

  it('exits 0 on warnings only, and 2 naming the field on an invalid spec', async () => {
    const ok = path.join(dir, 'bench.json');
    await writeFile(ok, JSON.stringify(benchSpec(200)));
    const warned = await runCli(['lint', ok]); // its vague condition: short descriptions, no two alike
    expect(warned.stdout).toContain('warning too-short: lookup_order');
    expect(warned.stdout).toMatch(/\d+ findings \(0 errors, \d+ warnings\)/);
    expect(warned.code).toBe(0);
    const bad = path.join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ ...benchSpec(200), locales: ['english!'] }));
    const refused = await runCli(['lint', bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('locales');
  });
});
