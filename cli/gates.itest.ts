import { readFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { XMLParser } from 'fast-xml-parser';
import { RunExport } from '../lib/schema/run-export';
import { runCli } from '../lib/testing/engine';
import { pool, closeDb } from '../lib/db/client';

// CI gates, JUnit and Markdown from `tclab run` and `tclab export` on the reference study (simulated,
// offline), and the statistics (docs/statistics.md) read back from the JSON export.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-gates-'));
});
afterAll(async () => {
  await closeDb();
});

const runCount = async () => (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM runs`)).rows[0].n;

describe('tclab run --gate', () => {
  it('exits 0 when every gate holds; writes JUnit (152 test cases) and Table 1 as Markdown; the export carries the clustered statistics', async () => {
    const junit = path.join(dir, 'junit.xml');
    const md = path.join(dir, 'summary.md');
    const out = path.join(dir, 'run.json');
    const r = await runCli([
      'run',
      '--template',
      'reference-study',
      '--out',
      out,
      '--junit',
      junit,
      '--summary-md',
      md,
      '--gate',
      'selection.treatment.unwanted_write == 0',
      '--gate',
      'interpretation.treatment.pass_rate >= 0.95',
      '--gate',
      'selection.difference.ci_low > 0',
    ]);
    expect(r.stderr).toContain('gate passed: selection.treatment.unwanted_write == 0');
    expect(r.stderr).not.toContain('FAILED');
    expect(r.code).toBe(0);

    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await readFile(junit, 'utf8'));
    type Case = { failure?: unknown };
    const suites: { testcase: Case | Case[] }[] = [doc.testsuites.testsuite].flat();
    const cases: Case[] = suites.flatMap((s) => [s.testcase].flat());
    expect(cases).toHaveLength(152);
    expect(Number(doc.testsuites.tests)).toBe(152);
    const failures = cases.filter((c) => c.failure);
    expect(failures.length).toBe(Number(doc.testsuites.failures));
    expect(failures.length).toBeGreaterThan(0);
    expect(JSON.stringify(failures)).toContain('unwanted_write');

    const markdown = await readFile(md, 'utf8');
    expect(markdown).toContain('| scenario / locale |');
    expect(markdown).toContain('McNemar exact p / mid-p');

    const run = RunExport.parse(JSON.parse(await readFile(out, 'utf8')));
    const [sel, int] = run.summary.studies;
    expect(sel.clustered!.baseline).toMatchObject({ clusters: 24, df: 23 });
    expect(sel.clustered!.baseline.se).toBeGreaterThan(0);
    expect(sel.clustered!.baseline.ci95).toHaveLength(2);
    expect(sel.clustered!.baseline.designEffect).toBeGreaterThan(0);
    expect(sel.difference).toMatchObject({ pairs: 48, clusters: 24, df: 23 });
    expect(sel.difference!.ci95![0]).toBeGreaterThan(0);
    expect(sel.mcnemar).toMatchObject({ b: sel.pairs.improved, c: sel.pairs.regressed });
    expect(sel.mcnemar!.pMid).toBeLessThanOrEqual(sel.mcnemar!.pExact);
    expect(sel.orderConsistency!.baseline).toMatchObject({ cases: 24 });
    expect(sel.orderConsistency!.baseline!.flipRate).toBeGreaterThanOrEqual(0);
    expect(sel.orderConsistency!.treatment!.firstPositionRate).not.toBeNull();
    expect(sel.rows[0].clustered!.treatment.clusters).toBe(6);
    expect(sel.rows[0].difference!.pairs).toBe(12);
    expect(sel.rows[0].mcnemar).toBeDefined();
    expect(int.orderConsistency).toBeUndefined();
    expect(int.clustered!.treatment).toMatchObject({ estimate: 1, clusters: 28 });
  });

  it('exits 1 naming each failed gate', async () => {
    const r = await runCli([
      'run',
      '--template',
      'reference-study',
      '--gate',
      'selection.treatment.unwanted_write == 0',
      '--gate',
      'selection.baseline.unwanted_write == 0',
      '--gate',
      'selection.treatment.pass_rate >= 1',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gate FAILED: selection.baseline.unwanted_write == 0');
    expect(r.stderr).toContain('gate FAILED: selection.treatment.pass_rate >= 1');
    expect(r.stderr).toContain('2 of 3 gates failed');
  });

  it('exits 2 on a gate that names nothing, listing what can be named, before anything runs', async () => {
    const before = await runCount();
    const r = await runCli(['run', '--template', 'reference-study', '--gate', 'selection.treatment.unwanted_writes == 0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('names nothing: selection.treatment.unwanted_writes');
    expect(r.stderr).toContain('selection.treatment.unwanted_write');
    expect(r.stderr).toContain('selection.difference.ci_low');
    expect(await runCount()).toBe(before);
    const syntax = await runCli(['run', '--template', 'reference-study', '--gate', 'selection.regressed = 0']);
    expect(syntax.code).toBe(2);
    expect(syntax.stderr).toContain('use == to compare');
  });

  it('tclab export takes the same gates', async () => {
    const runId = (await pool().query<{ id: string }>(`SELECT id FROM runs ORDER BY created_at DESC LIMIT 1`)).rows[0].id;
    const ok = await runCli(['export', runId, '--gate', 'selection.regressed <= 5']);
    expect(ok.code).toBe(0);
    const bad = await runCli(['export', runId, '--gate', 'selection.improved < 0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('gate FAILED: selection.improved < 0');
  });
});
