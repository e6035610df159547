import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../lib/db/client';
import { RunComparison } from '../lib/schema/compare';
import { runCli } from '../lib/testing/engine';
import { tinyExperiment } from '../lib/testing/tiny-experiment';

// Several models at once on the command line: one run per target in one group, and `tclab runs compare`.

let dir: string;
let specFile: string;
let otherSpec: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-compare-'));
  specFile = path.join(dir, 'tiny.json');
  otherSpec = path.join(dir, 'other.json');
  await writeFile(specFile, JSON.stringify(tinyExperiment('compare-tiny')));
  await writeFile(otherSpec, JSON.stringify(tinyExperiment('compare-other', 'Pay invoice INV-9.')));
});

afterAll(async () => {
  await closeDb();
});

const runIdsOf = (stderr: string) => [...stderr.matchAll(/^run (r_\w+) \(/gm)].map((m) => m[1]);

describe('tclab run with several targets, and tclab runs compare', () => {
  let ids: string[] = [];

  it('--target repeated: one run per target, sharing a group and the experiment version; both Table 1s and the comparison printed', async () => {
    const r = await runCli(['run', '--experiment', specFile, '--target', 'simulated:simulated-lexical-v1', '--target', 'simulated:simulated-position-biased-v1']);
    expect(r.code, r.stderr).toBe(0);
    ids = runIdsOf(r.stderr);
    expect(ids).toHaveLength(2);
    const rows = (
      await pool().query<{ id: string; model: string; group_id: string | null; experiment_id: string }>(
        'SELECT id, model, group_id, experiment_id FROM runs WHERE id = ANY($1)',
        [ids],
      )
    ).rows;
    expect(new Set(rows.map((x) => x.group_id)).size).toBe(1);
    expect(rows[0].group_id).toMatch(/^g_/);
    expect(new Set(rows.map((x) => x.experiment_id)).size).toBe(1);
    expect(rows.map((x) => x.model).sort()).toEqual(['simulated-lexical-v1', 'simulated-position-biased-v1']);
    expect(r.stdout).toContain('simulated/simulated-lexical-v1');
    expect(r.stdout).toContain('== run vs run on identical trials');
    expect(r.stderr).toContain(`tclab runs compare ${ids.join(' ')}`);
  });

  it('--model A --model B does the same for one provider', async () => {
    const r = await runCli(['run', '--experiment', specFile, '--model', 'simulated-lexical-v1', '--model', 'simulated-position-biased-v1', '--no-wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(runIdsOf(r.stderr)).toHaveLength(2);
    expect(r.stderr).toMatch(/run group g_\w+: 2 runs/);
  });

  it('runs compare --json: Table 1 per model and model-vs-model cells over identical trials', async () => {
    const r = await runCli(['runs', 'compare', ...ids, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const c = RunComparison.parse(JSON.parse(r.stdout));
    expect(c.runs.map((x) => x.runId)).toEqual(ids);
    expect(c.runs.every((x) => x.simulated && x.summary.studies.length > 0)).toBe(true);
    const trials = (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM trials WHERE run_id = $1 AND status IN ('passed', 'failed')`, [ids[0]])).rows[0].n;
    const cells = c.differences.flatMap((d) => d.conditions);
    expect(cells.reduce((a, x) => a + x.pairs, 0)).toBe(trials); // every decided trial is paired with its twin
    for (const x of cells) expect(x.otherPass - x.referencePass).toBe(x.otherBetter - x.referenceBetter);
  });

  it('refuses fewer than two runs, an unknown run and runs of different experiment versions, naming them (exit 2)', async () => {
    const one = await runCli(['runs', 'compare', ids[0]]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('runs: at least two different run ids');
    const unknown = await runCli(['runs', 'compare', ids[0], 'r_nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('runs.1: no run "r_nope"');
    const other = await runCli(['run', '--experiment', otherSpec, '--no-wait']);
    const otherId = runIdsOf(other.stderr)[0];
    const mixed = await runCli(['runs', 'compare', ids[0], otherId]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/runs\.1: run r_\w+ is of experiment compare-other-v1, not a version of compare-tiny \(compare-tiny-v1\)/);
  });

  it('a target that is not provider:model, or a duplicate, is refused before anything is stored', async () => {
    const before = (await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM runs')).rows[0].n;
    const bad = await runCli(['run', '--experiment', specFile, '--target', 'nonsense']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--target (#1): "nonsense" is not provider:model');
    const twice = await runCli(['run', '--experiment', specFile, '--target', 'simulated:m', '--target', 'simulated:m']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('targets.1: simulated:m is given twice');
    expect((await pool().query<{ n: number }>('SELECT count(*)::int AS n FROM runs')).rows[0].n).toBe(before);
  });
});
