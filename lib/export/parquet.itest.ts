import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { TEMPLATES } from '../templates';
import { runToCompletion } from '../testing/engine';
import { ExportSession, exportStream, loadRunForExport, runJsonStream, writeRunParquet } from '../runs/export';
import type { TrialExportRow } from '../schema/run-export';

// The Parquet export of a stored run, read back by DuckDB (an independent reader), equals the JSON export row
// for row: counts, statuses, verdicts, tokens; the zip download holds the same files.

const dir = mkdtempSync(path.join(tmpdir(), 'tclab-parquet-run-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeQueues();
  await closeDb();
});

async function bytes(s: Readable | Promise<Readable>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await s) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

async function duck<T = Record<string, unknown>>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql.replaceAll('$DIR', dir))).getRowObjectsJson() as T[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

describe('Parquet export', () => {
  it('reference study: trials, attempts, checks and choices equal the JSON export; the zip holds the same files', async () => {
    const exp = await ensureTemplateExperiment('reference-study');
    const runId = await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES['reference-study']!.simulated.model });
    const json = JSON.parse((await bytes(runJsonStream(runId))).toString('utf8')) as { trials: TrialExportRow[]; summary: unknown; run: { id: string } };
    const files = await writeRunParquet(new ExportSession(await loadRunForExport(runId)), dir);
    expect(files.map((f) => path.basename(f))).toEqual(['trials.parquet', 'attempts.parquet', 'checks.parquet', 'choices.parquet', 'run.json']);

    const trials = await duck<{
      id: string;
      status: string;
      attempts: number;
      verdicts: string;
      inputTokens: number | null;
      outputTokens: number | null;
      passed: boolean | null;
    }>(`SELECT id, status, attempts, verdicts, "inputTokens", "outputTokens", passed FROM read_parquet('$DIR/trials.parquet') ORDER BY id`);
    const sum = (xs: (number | null | undefined)[]) => (xs.some((x) => x != null) ? xs.reduce<number>((s, x) => s + (x ?? 0), 0) : null);
    const want = [...json.trials]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((t) => ({
        id: t.id,
        status: t.status,
        attempts: t.attempts.length,
        verdicts: t.verdicts.map((v) => `${v.checkId}=${v.status}${v.category ? `(${v.category})` : ''}`).join('; '),
        inputTokens: sum(t.attempts.map((a) => a.inputTokens)),
        outputTokens: sum(t.attempts.map((a) => a.outputTokens)),
        passed: t.verdicts.length === 0 ? null : t.verdicts.every((v) => v.status === 'pass'),
      }));
    expect(trials).toHaveLength(152);
    expect(trials).toEqual(want);

    const [attempts] = await duck<{ n: string; ok: string }>(`SELECT count(*) AS n, count(*) FILTER (outcome = 'ok') AS ok FROM read_parquet('$DIR/attempts.parquet')`);
    expect(Number(attempts.n)).toBe(json.trials.reduce((s, t) => s + t.attempts.length, 0));
    expect(Number(attempts.ok)).toBe(json.trials.reduce((s, t) => s + t.attempts.filter((a) => a.outcome === 'ok').length, 0));

    const checks = await duck<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM read_parquet('$DIR/checks.parquet') GROUP BY status ORDER BY status`);
    const byStatus = new Map<string, number>();
    for (const t of json.trials) for (const v of t.verdicts) byStatus.set(v.status, (byStatus.get(v.status) ?? 0) + 1);
    expect(checks.map((c) => [c.status, Number(c.n)])).toEqual([...byStatus].sort());

    const choices = await duck<{ trialId: string; chosen: string; position: number | null }>(
      `SELECT "trialId", chosen, position FROM read_parquet('$DIR/choices.parquet') ORDER BY "trialId"`,
    );
    expect(choices).toEqual(
      [...json.trials].sort((a, b) => (a.id < b.id ? -1 : 1)).map((t) => ({ trialId: t.id, chosen: t.choice!.chosen, position: t.choice!.position })),
    );

    const sidecar = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as {
      format: string;
      run: { id: string };
      summary: unknown;
      tables: Record<string, unknown[]>;
    };
    expect(sidecar.format).toBe('tclab.parquet/v1');
    expect(sidecar.run.id).toBe(runId);
    expect(sidecar.summary).toEqual(json.summary);
    expect(Object.keys(sidecar.tables)).toEqual(['trials', 'attempts', 'checks', 'choices']);

    // the zip download: the tables are stored (not compressed again), so each file's bytes stand in it whole
    const scratch = () => readdirSync(tmpdir()).filter((f) => f.startsWith('tclab-parquet-')).length;
    const before = scratch();
    const zip = await bytes(exportStream(runId, 'parquet.zip'));
    // the tables were written to a folder of their own first, removed once the zip was read
    await expect.poll(scratch).toBeLessThanOrEqual(before);
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    for (const f of files.filter((x) => x.endsWith('.parquet'))) expect(zip.indexOf(readFileSync(f)), path.basename(f)).toBeGreaterThan(0);
    expect(zip.length).toBeLessThan((await bytes(runJsonStream(runId))).length);
  }, 180_000);
});
