import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, pool } from '../db/client';
import { saveReview } from '../db/reviews';
import { dropStoredExport, readStoredExport, STORED_CHUNK_BYTES, storedExportVersion, storeExport } from '../db/stored-exports';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { commandLineActor } from '../auth/roles';
import { TEMPLATES } from '../templates';
import { runToCompletion } from '../testing/engine';
import { parquetAgainstJson } from '../testing/parquet-json';
import type { TrialExportRow } from '../schema/run-export';
import { PARQUET_TABLES } from '../export/run';
import { exportFormat, ExportSession, loadRunForExport, parquetStoreVersion, runJsonStream, storeRunParquet, writeRunParquet } from './export';
import { warmRunResults } from './warm';

// A large completed run's Parquet tables are stored once built (docs/export.md#stored-parquet-tables) and read back
// while nothing they were built from has changed: the same bytes as built afresh; a review, a lost chunk or a
// run still moving means building them again from the trials.

const root = mkdtempSync(path.join(tmpdir(), 'tclab-stored-parquet-'));
afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  await closeQueues();
  await closeDb();
});

let n = 0;
const freshDir = () => path.join(root, `d${++n}`);
const tables = (dir: string) => PARQUET_TABLES.map((t) => readFileSync(path.join(dir, `${t}.parquet`)));
const chunksOf = (bs: Buffer[]) => bs.reduce((n, b) => n + Math.ceil(b.length / STORED_CHUNK_BYTES), 0);
const chunkCount = async (runId: string) =>
  (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM stored_export_chunks WHERE run_id = $1 AND kind = 'parquet'`, [runId])).rows[0].n;

/** Every byte of a stream (node:stream/consumers). */
const bytes = async (s: Readable | Promise<Readable>): Promise<Buffer> => buffer(await s);

async function jsonTrials(runId: string): Promise<TrialExportRow[]> {
  return (JSON.parse((await bytes(runJsonStream(runId))).toString('utf8')) as { trials: TrialExportRow[] }).trials;
}

describe('stored Parquet tables', () => {
  it('are stored as the run completes, read back byte for byte, built again after a review or a lost chunk; a download stores what it built', async () => {
    const exp = await ensureTemplateExperiment('reference-study');
    const runId = await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES['reference-study']!.simulated.model });
    const session = async (minTrials?: number, downloadMaxBytes?: number) =>
      new ExportSession(await loadRunForExport(runId), 'case', undefined, { minTrials, downloadMaxBytes });
    const { run } = (await session()).loaded;

    // built afresh: a run below the threshold is never stored
    const fresh = freshDir();
    await writeRunParquet(await session(), fresh);
    expect(run.totalTrials).toBeLessThan(5000);
    expect(await parquetStoreVersion(run)).toBeNull();
    expect(await storedExportVersion(runId, 'parquet')).toBeNull();
    // a run still moving is never stored, whatever its size
    expect(await parquetStoreVersion({ ...run, status: 'running' }, 1)).toBeNull();

    // the worker's warming stores them; the export reads them back: the same bytes
    expect(await warmRunResults(runId, { minTrials: 1 })).toBe(true);
    const version = await parquetStoreVersion(run, 1);
    expect(version).toMatch(/^[0-9a-f]{64}$/);
    expect(await storedExportVersion(runId, 'parquet')).toBe(version);
    expect(await chunkCount(runId)).toBe(chunksOf(tables(fresh)));
    // a set of many chunks, read several at a time, comes back byte for byte (another kind: its own set)
    const big = freshDir();
    mkdirSync(big);
    const blob = randomBytes(2 * 1024 * 1024 + 12_345);
    writeFileSync(path.join(big, 'blob.bin'), blob);
    writeFileSync(path.join(big, 'empty.bin'), '');
    const files = await storeExport(runId, 'test-blob', 'v1', [path.join(big, 'blob.bin'), path.join(big, 'empty.bin')]);
    expect(files.map((f) => [f.name, f.bytes, f.chunks])).toEqual([
      ['blob.bin', blob.length, Math.ceil(blob.length / STORED_CHUNK_BYTES)],
      ['empty.bin', 0, 0],
    ]);
    const bigBack = freshDir();
    mkdirSync(bigBack);
    expect(await readStoredExport(runId, 'test-blob', 'v2', bigBack)).toBe(false);
    expect(await readStoredExport(runId, 'test-blob', 'v1', bigBack)).toBe(true);
    expect(readFileSync(path.join(bigBack, 'blob.bin')).equals(blob)).toBe(true);
    expect(readFileSync(path.join(bigBack, 'empty.bin'))).toHaveLength(0);
    await dropStoredExport(runId, 'test-blob');

    // read back whole (not built again: a read that fails is built afresh, and would pass the comparison below too)
    const readBack = freshDir();
    mkdirSync(readBack);
    expect(await readStoredExport(runId, 'parquet', version!, readBack)).toBe(true);
    expect(tables(readBack)).toEqual(tables(fresh));
    const stored = freshDir();
    await writeRunParquet(await session(1), stored);
    expect(tables(stored)).toEqual(tables(fresh));
    expect(readFileSync(path.join(stored, 'run.json'), 'utf8')).toBe(readFileSync(path.join(fresh, 'run.json'), 'utf8'));
    // warming again finds them current and stores nothing new
    const at = (await pool().query<{ at: Date }>(`SELECT stored_at AS at FROM stored_exports WHERE run_id = $1`, [runId])).rows[0].at;
    expect(await storeRunParquet(runId, { minTrials: 1 })).toBe(true);
    expect((await pool().query<{ at: Date }>(`SELECT stored_at AS at FROM stored_exports WHERE run_id = $1`, [runId])).rows[0].at).toEqual(at);

    // what is read back is what is stored (not built again): a set stored under the current version is served as it is
    const odd = freshDir();
    mkdirSync(odd);
    for (const t of PARQUET_TABLES) writeFileSync(path.join(odd, `${t}.parquet`), `stored ${t}`);
    await storeExport(
      runId,
      'parquet',
      version!,
      PARQUET_TABLES.map((t) => path.join(odd, `${t}.parquet`)),
    );
    const served = freshDir();
    await writeRunParquet(await session(1), served);
    expect(tables(served).map((b) => b.toString())).toEqual(PARQUET_TABLES.map((t) => `stored ${t}`));

    // a chunk lost: not served; the tables are built again (the same bytes as afresh) and stored again
    await pool().query(`DELETE FROM stored_export_chunks WHERE run_id = $1 AND file = 'checks.parquet'`, [runId]);
    const rebuilt = freshDir();
    await writeRunParquet(await session(1), rebuilt);
    expect(tables(rebuilt)).toEqual(tables(fresh));
    expect(await chunkCount(runId)).toBe(chunksOf(tables(fresh)));
    const again = freshDir();
    await writeRunParquet(await session(1), again);
    expect(tables(again)).toEqual(tables(fresh));

    // a review changes the version: the next export builds the tables again, the reviewer's reading in them
    const failed = (
      await pool().query<{ trial_id: string; check_id: string }>(
        `SELECT v.trial_id, v.check_id FROM verdicts v JOIN trials t ON t.id = v.trial_id WHERE t.run_id = $1 AND v.status = 'fail' ORDER BY v.trial_id, v.check_id LIMIT 1`,
        [runId],
      )
    ).rows[0];
    await saveReview(
      { runId, trialId: failed.trial_id, checkId: failed.check_id, humanStatus: 'pass', note: 'stored export test' },
      commandLineActor('stored-parquet-test'),
    );
    const reviewed = await parquetStoreVersion(run, 1);
    expect(reviewed).not.toBe(version);
    const after = freshDir();
    await writeRunParquet(await session(1), after);
    expect(await storedExportVersion(runId, 'parquet')).toBe(reviewed);
    expect(tables(after)[2]).not.toEqual(tables(fresh)[2]);
    expect(await parquetAgainstJson(after, await jsonTrials(runId))).toEqual({ trials: 152, differences: [] });
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const db = await DuckDBInstance.create(':memory:');
    const con = await db.connect();
    const rows = await con.runAndReadAll(
      `SELECT reviewStatus, reviewNote FROM read_parquet('${path.join(after, 'checks.parquet')}') WHERE trialId = '${failed.trial_id}' AND checkId = '${failed.check_id}'`,
    );
    expect(rows.getRowObjects()).toEqual([{ reviewStatus: 'pass', reviewNote: 'stored export test' }]);
    con.closeSync();

    // the download (the zip): with nothing stored it builds the tables, and stores them once it has been read — if
    // they are no larger than it stores
    await dropStoredExport(runId, 'parquet');
    const scratch = () => readdirSync(tmpdir()).filter((f) => f.startsWith('tclab-parquet-')).length;
    const before = scratch();
    await bytes(exportFormat('parquet.zip')!.stream(await session(1, 100)));
    await expect.poll(scratch).toBeLessThanOrEqual(before);
    expect(await storedExportVersion(runId, 'parquet')).toBeNull();
    const zip = await bytes(exportFormat('parquet.zip')!.stream(await session(1)));
    await expect.poll(() => storedExportVersion(runId, 'parquet')).toBe(reviewed);
    const read = freshDir();
    await writeRunParquet(await session(1), read);
    expect(tables(read)).toEqual(tables(after));
    for (const b of tables(after)) expect(zip.indexOf(b)).toBeGreaterThan(0);
    // and the next download reads them back: the same zip
    expect(await bytes(exportFormat('parquet.zip')!.stream(await session(1)))).toEqual(zip);
  }, 240_000);
});
