import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from './client';
import { ARCHIVED_TABLES, UNARCHIVED_TABLES, tableColumns } from './archive';
import { dropDatabase, ensureDatabase, migrate } from './migrate';
import { saveReview } from './reviews';
import { ensureTemplateExperiment } from '../experiments/templates';
import { saveExperiment } from '../experiments/versions';
import { getExperiment } from './experiments';
import { closeQueues } from '../queue/connection';
import { TEMPLATES } from '../templates';
import { runCli, runToCompletion } from '../testing/engine';
import { zstdDecompressStream } from '../archive/zstd';
import type { ArchiveManifest } from '../archive/archive';

// Moving a lab (docs/archive.md) through the real CLI (the test sits in lib/db: it reads the second database directly): `tclab archive` of a reference-study run, a
// task-completion run and a catalog-scale run (simulated provider), `tclab restore` into a second database,
// and every export of each run — run JSON, trials, checks and choices CSV, TCC — byte-identical to the
// original's. A second restore is refused with nothing changed.

const dir = mkdtempSync(path.join(tmpdir(), 'tclab-archive-'));
const archive = path.join(dir, 'lab.tar.zst');
const second = (() => {
  const u = new URL(process.env.DATABASE_URL!);
  u.pathname = `${u.pathname}_restore`;
  return u.toString();
})();
const runs: string[] = [];

beforeAll(async () => {
  await ensureDatabase(second);
  await migrate(second);
  for (const template of ['reference-study', 'task-completion', 'catalog-scale']) {
    const exp = await ensureTemplateExperiment(template);
    runs.push(await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES[template]!.simulated.model }));
  }
  // a reviewed check: reviews travel with the run
  const v = await pool().query<{ trial_id: string; check_id: string; status: string }>(
    `SELECT v.trial_id, v.check_id, v.status FROM verdicts v JOIN trials t ON t.id = v.trial_id WHERE t.run_id = $1 AND v.status IN ('pass', 'fail') ORDER BY 1, 2 LIMIT 1`,
    [runs[0]],
  );
  await saveReview(
    { runId: runs[0], trialId: v.rows[0].trial_id, checkId: v.rows[0].check_id, humanStatus: 'pass', note: 'checked by hand' },
    { kind: 'local', label: 'itest', role: 'admin' },
  );
}, 300_000);

afterAll(async () => {
  await closeQueues();
  await closeDb();
  await dropDatabase(second);
  rmSync(dir, { recursive: true, force: true });
});

/** Every export of a run from the instance at `url`, file name → bytes. */
async function exportsOf(runId: string, url: string, where: string): Promise<Map<string, Buffer>> {
  const d = path.join(dir, where, runId);
  mkdirSync(d, { recursive: true });
  const r = await runCli(
    ['export', runId, '--out', `${d}/run.json`, '--csv', `${d}/trials.csv`, '--checks-csv', `${d}/checks.csv`, '--choices-csv', `${d}/choices.csv`, '--tcc', `${d}/tcc`],
    { DATABASE_URL: url },
  );
  expect(r.code, r.stderr).toBe(0);
  const files = new Map<string, Buffer>();
  const walk = (p: string, rel: string) => {
    for (const e of readdirSync(p, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(p, e.name), `${rel}${e.name}/`);
      else files.set(`${rel}${e.name}`, readFileSync(path.join(p, e.name)));
    }
  };
  walk(d, '');
  return files;
}

async function counts(url: string): Promise<Record<string, number>> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const out: Record<string, number> = {};
    for (const t of ARCHIVED_TABLES) out[t] = (await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`)).rows[0].n;
    return out;
  } finally {
    await c.end();
  }
}

async function manifestOf(file: string): Promise<ArchiveManifest> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), zstdDecompressStream(), extract).catch(() => {});
  for await (const e of extract) {
    const chunks: Buffer[] = [];
    for await (const c of e) chunks.push(c as Buffer);
    extract.destroy();
    await reading;
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as ArchiveManifest;
  }
  throw new Error('empty archive');
}

describe('tclab archive → tclab restore', () => {
  it('restores three runs into another database with every export byte-identical, and refuses a second restore with nothing changed', async () => {
    const a = await runCli(['archive', ...runs, '--out', archive]);
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout).runs.sort()).toEqual([...runs].sort());

    const r = await runCli(['restore', archive], { DATABASE_URL: second });
    expect(r.code, r.stderr).toBe(0);
    const restored = JSON.parse(r.stdout) as { runs: string[]; rows: Record<string, number> };
    expect(restored.runs.sort()).toEqual([...runs].sort());
    expect(restored.rows.reviews).toBe(1);

    for (const run of runs) {
      const [before, after] = await Promise.all([exportsOf(run, process.env.DATABASE_URL!, 'a'), exportsOf(run, second, 'b')]);
      expect(before.size).toBeGreaterThan(4);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [name, bytes] of before) {
        const got = after.get(name)!;
        let at = 0;
        while (at < bytes.length && bytes[at] === got[at]) at++;
        // where they part, if they do: the bytes around it
        expect(got.subarray(Math.max(0, at - 80), at + 80).toString('utf8'), `${run}: ${name}`).toBe(bytes.subarray(Math.max(0, at - 80), at + 80).toString('utf8'));
        expect(got.equals(bytes), `${run}: ${name} differs after the restore`).toBe(true);
      }
    }

    // the restore is attributed, with no run of its own (a run's audit — part of its export — stays as archived)
    const audit = new pg.Client({ connectionString: second });
    await audit.connect();
    const entry = await audit.query<{ actor: string; run_id: string | null; detail: { runs: string[] } }>(
      `SELECT actor, run_id, detail FROM audit_events WHERE action = 'lab.restored'`,
    );
    await audit.end();
    expect(entry.rows).toHaveLength(1);
    expect(entry.rows[0]).toMatchObject({ run_id: null, actor: expect.stringMatching(/^command line/) });
    expect(entry.rows[0].detail.runs.sort()).toEqual([...runs].sort());

    const was = await counts(second);
    const again = await runCli(['restore', archive], { DATABASE_URL: second });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`refused: run ${runs.slice().sort()[0]} is already in this instance.*nothing was restored`));
    expect(await counts(second)).toEqual(was);
  }, 300_000);

  it('an experiment improved by the loop: its record, select and confirm versions and runs travel with it, their exports byte-identical', async () => {
    const template = (await getExperiment((await ensureTemplateExperiment('politely-ignored')).id))!.spec;
    const exp = await saveExperiment({ ...structuredClone(template), id: `politely-ignored-archive-${process.pid}` });
    const o = await runCli(['optimize', '--experiment-id', exp.id, '--study', 'selection', '--targets', 'simulated:simulated-generic-preferring-v1', '--json']);
    expect(o.code, o.stderr).toBe(0);
    const record = JSON.parse(o.stdout) as { id: string; stage: string; selectRunId: string; confirmRunIds: string[] };
    expect(record.stage).toBe('confirmed');
    const file = path.join(dir, 'improved.tar.zst');
    const a = await runCli(['archive', exp.id, '--out', file]);
    expect(a.code, a.stderr).toBe(0);
    const stageRuns = [record.selectRunId, ...record.confirmRunIds];
    expect((JSON.parse(a.stdout) as { runs: string[] }).runs.sort()).toEqual([...stageRuns].sort());
    const r = await runCli(['restore', file], { DATABASE_URL: second });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { rows: Record<string, number> }).rows.optimisations).toBe(1);
    // the record as stored, and every export of its runs (the run JSON carries the record)
    const rowOf = async (url: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query<{ row: string }>(`SELECT row_to_json(o)::text AS row FROM optimisations o WHERE id = $1`, [record.id])).rows[0]?.row;
      } finally {
        await c.end();
      }
    };
    expect(await rowOf(second)).toBe(await rowOf(process.env.DATABASE_URL!));
    for (const run of stageRuns) {
      const [before, after] = await Promise.all([exportsOf(run, process.env.DATABASE_URL!, 'a'), exportsOf(run, second, 'b')]);
      expect(JSON.parse(before.get('run.json')!.toString('utf8')).optimisation.record.id).toBe(record.id);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [name, bytes] of before) expect(after.get(name)!.equals(bytes), `${run}: ${name} differs after the restore`).toBe(true);
    }
  }, 300_000);

  it('carries every column of every table it archives, and every table is archived or left out by name', async () => {
    const manifest = await manifestOf(archive);
    const columns = await tableColumns();
    for (const t of ARCHIVED_TABLES) expect(manifest.columns[t], t).toEqual(columns.get(t)!.map((c) => c.name));
    expect([...columns.keys()].sort()).toEqual([...ARCHIVED_TABLES, ...UNARCHIVED_TABLES].sort());
  });

  it('refuses unknown ids, naming them, and writes nothing', async () => {
    const out = path.join(dir, 'none.tar.zst');
    const r = await runCli(['archive', 'r_nope', '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/ids: no experiment or run r_nope/);
    expect(readdirSync(dir).filter((f) => f.startsWith('none'))).toEqual([]);
  });
});
