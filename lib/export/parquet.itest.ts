import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb } from '../db/client';
import { ensureTemplateExperiment } from '../experiments/templates';
import { closeQueues } from '../queue/connection';
import { TEMPLATES } from '../templates';
import { runToCompletion } from '../testing/engine';
import { ExportSession, exportStream, loadRunForExport, runJsonStream, writeRunParquet } from '../runs/export';
import type { TrialExportRow } from '../schema/run-export';
import { parquetAgainstJson } from '../testing/parquet-json';

// The Parquet export of a stored run, read back by DuckDB (an independent reader), equals the JSON export row
// for row: counts, statuses, verdicts, tokens; the zip download holds the same files.

const dir = mkdtempSync(path.join(tmpdir(), 'tclab-parquet-run-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeQueues();
  await closeDb();
});

/** Every byte of a stream (node:stream/consumers). */
const bytes = async (s: Readable | Promise<Readable>): Promise<Buffer> => buffer(await s);

describe('Parquet export', () => {
  it('reference study: trials, attempts, checks and choices equal the JSON export; the zip holds the same files', async () => {
    const exp = await ensureTemplateExperiment('reference-study');
    const runId = await runToCompletion(exp.id, { provider: 'simulated', model: TEMPLATES['reference-study']!.simulated.model });
    const json = JSON.parse((await bytes(runJsonStream(runId))).toString('utf8')) as { trials: TrialExportRow[]; summary: unknown; run: { id: string } };
    const files = await writeRunParquet(new ExportSession(await loadRunForExport(runId)), dir);
    expect(files.map((f) => path.basename(f))).toEqual(['trials.parquet', 'attempts.parquet', 'checks.parquet', 'choices.parquet', 'run.json']);

    // trials, attempts, checks and choices against the JSON, row for row (the comparison bench:results runs at 100,000 trials)
    expect(await parquetAgainstJson(dir, json.trials)).toEqual({ trials: 152, differences: [] });
    // and it sees a difference: one trial's tokens off by one, one trial left out of the JSON
    const [first, second, ...rest] = json.trials;
    const off = { ...first, attempts: first.attempts.map((a, i) => (i === 0 ? { ...a, inputTokens: (a.inputTokens ?? 0) + 1 } : a)) };
    const seen = await parquetAgainstJson(dir, [off, ...rest]);
    expect(seen.trials).toBe(151);
    expect(seen.differences).toEqual([
      'trials: 152 in Parquet, 151 in the JSON',
      ...[first.id, second.id].sort().map((id) => (id === first.id ? expect.stringMatching(`^trial ${id}: Parquet .*"inputTokens"`) : `trial ${id}: in Parquet only`)),
      expect.stringMatching(/^attempts: /),
      expect.stringMatching(/^checks by status: /),
    ]);

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
