import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunExport } from '../schema/run-export';
import { runCli } from '../testing/engine';
import { closeDb, pool } from '../db/client';
import { getTrialRecord } from '../db/results';
import { choiceOfTrial, toExportTrial } from './run';
import { checksCsvStream, runJsonStream, trialsCsvStream } from '../runs/export';
import { checksCsv, trialsCsv } from './csv';
import { choiceResolver, type Choice, type ChoiceRow } from '../analysis/choices';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';

// The streamed exports (one text-checked query per page, the redaction walk skipped where the text shows
// nothing to redact) against the way every trial was exported before: the trial read on its own with the
// driver parsing its JSON, then deep-redacted — on the reference study (simulated), with a configured key
// planted in one trial's stored response and a credential header in its request.

const SECRET = 'sk-d-export-secret-0123456789abcdef';
process.env.OPENAI_API_KEY = SECRET;

let runId: string;
let ids: string[];

async function text(s: Readable): Promise<string> {
  let out = '';
  for await (const chunk of s) out += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return out;
}

// each trial line carries its choice (what the model did), resolved against the run's spec
let choice: (r: ChoiceRow) => Choice;
async function* before(): AsyncGenerator<ReturnType<typeof toExportTrial>> {
  for (const id of ids) {
    const t = (await getTrialRecord(runId, id))!;
    yield toExportTrial(t, false, choiceOfTrial(t, choice));
  }
}

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'tclab-export-stream-'));
  const out = path.join(dir, 'run.json');
  const r = await runCli(['run', '--template', 'reference-study', '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  runId = (JSON.parse(await readFile(out, 'utf8')) as { run: { id: string } }).run.id;
  choice = choiceResolver((await getExperiment((await getRun(runId))!.experimentId))!.spec);
  const planted = await pool().query(
    `UPDATE attempts SET response = $1::json, request = $2::json, catalog_id = NULL, catalog_at = NULL
      WHERE id = (SELECT id FROM attempts WHERE run_id = $3 AND kind <> 'precheck' ORDER BY started_at, n LIMIT 1) RETURNING trial_id`,
    [
      JSON.stringify({ echoed: `your key ${SECRET} was wrong` }),
      JSON.stringify({ headers: { Authorization: 'Bearer abc' }, url: 'https://x.test/?key=abcdefgh12' }),
      runId,
    ],
  );
  expect(planted.rowCount).toBe(1);
  ids = (await pool().query<{ id: string }>('SELECT id FROM trials WHERE run_id = $1 ORDER BY trial_key', [runId])).rows.map((x) => x.id);
}, 300_000);
afterAll(async () => {
  await closeDb();
});

describe('streamed run exports', () => {
  it('the JSON export writes every trial line as before, redacted, and parses as tclab.run/v2', async () => {
    const json = await text(await runJsonStream(runId));
    expect(json).not.toContain(SECRET);
    expect(json).not.toContain('Bearer abc');
    expect(json).toContain('[REDACTED]');
    const doc = RunExport.parse(JSON.parse(json));
    expect(doc.trials.map((t) => t.id)).toEqual(ids);
    expect(ids.length).toBe(152);
    const lines = json.split('\n');
    const start = lines.indexOf('"trials":[');
    const trialLines = lines.slice(start + 1, start + 1 + ids.length).map((l) => l.replace(/,$/, ''));
    let i = 0;
    for await (const t of before()) expect(trialLines[i++]).toBe(JSON.stringify(t));
  });

  it('the trials and checks CSVs equal the ones made from the trials read one by one', async () => {
    const csv = await text(await trialsCsvStream(runId));
    expect(csv.startsWith('id,study,kind,')).toBe(true);
    expect(csv).toBe(await text(trialsCsv(before())));
    expect(await text(await checksCsvStream(runId))).toBe(await text(checksCsv(before())));
  });
});
