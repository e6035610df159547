import { afterAll, describe, expect, it } from 'vitest';
import { text } from 'node:stream/consumers';
import { closeDb, pool } from '../db/client';
import { getRun, listRuns } from '../db/runs';
import { runAudit } from '../db/audit';
import { runJsonStream } from './export';
import { RunExport } from '../schema/run-export';
import { SpecError } from '../schema/common';
import { runCli } from '../testing/engine';
import type { Actor } from '../auth/roles';
import { labelRun } from './label';
import { table1Document } from './export';

// A run's name and note — given at `tclab run --name --note`, edited later under an account
// (recorded in the audit log), found by the runs list's search, and in the JSON export's `run`.

const researcher: Actor = { kind: 'user', userId: 'u_label', email: 'label-researcher@example.test', name: 'R', role: 'researcher' };

afterAll(async () => {
  await closeDb();
});

function runIdOf(stdoutOrErr: string): string {
  const m = /run (r_\w+) \(/.exec(stdoutOrErr);
  if (!m) throw new Error(`no run id in: ${stdoutOrErr}`);
  return m[1];
}

describe('run name and note', () => {
  it('tclab run --name --note stores both; an edit is audited; the search and the export see them', async () => {
    const tag = `lbl${Date.now().toString(36)}`;
    const r = await runCli(['run', '--template', 'reference-study', '--no-wait', '--name', `Baseline ${tag}`, '--note', `first pass, ${tag} descriptions`]);
    expect(r.code, r.stderr).toBe(0);
    const id = runIdOf(r.stderr);
    const stored = (await getRun(id))!;
    expect({ name: stored.name, note: stored.note }).toEqual({ name: `Baseline ${tag}`, note: `first pass, ${tag} descriptions` });

    // the search matches name or note, in any case; another run is not matched
    expect((await listRuns(undefined, `BASELINE ${tag}`)).map((x) => x.id)).toEqual([id]);
    expect((await listRuns(undefined, `${tag} DESCRIPTIONS`)).map((x) => x.id)).toEqual([id]);
    expect(await listRuns(undefined, `${tag}-nothing`)).toEqual([]);

    const saved = await labelRun(researcher, id, { name: `  v2 ${tag}  `, note: '' });
    expect(saved).toEqual({ name: `v2 ${tag}`, note: null });
    expect((await getRun(id))!.note).toBeNull();
    expect(await listRuns(undefined, `${tag} descriptions`)).toEqual([]);
    const audit = (await runAudit(id)).filter((a) => a.action === 'run.labelled');
    const mine = audit.find((a) => a.actor === 'label-researcher@example.test');
    expect(mine?.detail).toMatchObject({ name: `v2 ${tag}`, note: null, before: { name: `Baseline ${tag}`, note: `first pass, ${tag} descriptions` } });

    const exported = RunExport.parse(JSON.parse(await text(await runJsonStream(id))));
    expect(exported.run.name).toBe(`v2 ${tag}`);
    expect(exported.run.note).toBeUndefined();
    // Table 1 for a report is titled with the run's name (docs/results.md)
    expect((await table1Document(id, 'md')).split('\n')[0]).toMatch(new RegExp(`^## Table 1 — v2 ${tag} \\(Reference study.* v1, simulated/${stored.model}\\)$`));
    expect(await table1Document(id, 'tex')).toMatch(new RegExp(`\\\\caption\\{Table 1 --- v2 ${tag} \\(Reference study.* v1, simulated/${stored.model}\\)\\}`));
  }, 120_000);

  it('refuses bad input naming the field, and stores nothing', async () => {
    const before = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM runs`);
    const r = await runCli(['run', '--template', 'reference-study', '--no-wait', '--name', 'x'.repeat(201)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--name: at most 200 characters/);
    const after = await pool().query<{ n: string }>(`SELECT count(*) AS n FROM runs`);
    expect(after.rows[0].n).toBe(before.rows[0].n);

    const err = await labelRun(researcher, 'r_missing', { note: 'a\u0007b' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).issues[0].path).toBe('note');
    const missing = await labelRun(researcher, 'r_missing', { name: 'ok' }).catch((e: unknown) => e);
    expect((missing as SpecError).issues[0].path).toBe('runId');
  }, 60_000);
});
