import { createReadStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { DuckDBInstance } from '@duckdb/node-api';
import type { TrialExportRow } from '../schema/run-export';

// The Parquet tables of a run read back by DuckDB (a reader of its own) against the run JSON export, row for row
// (docs/export.md#parquet): the integration test on the reference study and `npm run bench:results` on 100,000
// trials compare with this one function.

/** What trials.parquet and choices.parquet say of one trial, as the run JSON gives it. */
interface TrialView {
  id: string;
  status: string;
  attempts: number;
  verdicts: string;
  inputTokens: number | null;
  outputTokens: number | null;
  passed: boolean | null;
  chosen: string | null;
  position: number | null;
}

const sum = (xs: (number | null | undefined)[]) => (xs.some((x) => x != null) ? xs.reduce<number>((s, x) => s + (x ?? 0), 0) : null);

function viewOf(t: TrialExportRow): TrialView {
  return {
    id: t.id,
    status: t.status,
    attempts: t.attempts.length,
    verdicts: t.verdicts.map((v) => `${v.checkId}=${v.status}${v.category ? `(${v.category})` : ''}`).join('; '),
    inputTokens: sum(t.attempts.map((a) => a.inputTokens)),
    outputTokens: sum(t.attempts.map((a) => a.outputTokens)),
    passed: t.verdicts.length === 0 ? null : t.verdicts.every((v) => v.status === 'pass'),
    chosen: t.choice?.chosen ?? null,
    position: t.choice?.position ?? null,
  };
}

/** The trials of a run JSON export file (`tclab export --out`: one trial a line), read a line at a time. */
export async function* runJsonFileTrials(file: string): AsyncGenerator<TrialExportRow> {
  let inTrials = false;
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    if (!inTrials) {
      inTrials = line === '"trials":[';
      continue;
    }
    if (line.startsWith(']')) return;
    yield JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as TrialExportRow;
  }
}

async function duck<T>(sql: string): Promise<T[]> {
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    return (await c.runAndReadAll(sql)).getRowObjectsJson() as T[];
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/**
 * `trials.parquet`, `attempts.parquet`, `checks.parquet` and `choices.parquet` in `dir` against the run JSON's
 * trials: each trial's status, attempts, verdicts, tokens, passed and choice; the attempts by outcome; the checks
 * by status. Returns how many trials the JSON has and the differences (the first `limit`), none when they agree.
 */
export async function parquetAgainstJson(
  dir: string,
  trials: AsyncIterable<TrialExportRow> | Iterable<TrialExportRow>,
  limit = 20,
): Promise<{ trials: number; differences: string[] }> {
  const want = new Map<string, string>();
  const counts = { attempts: 0, ok: 0 };
  const checks = new Map<string, number>();
  for await (const t of trials) {
    want.set(t.id, JSON.stringify(viewOf(t)));
    counts.attempts += t.attempts.length;
    counts.ok += t.attempts.filter((a) => a.outcome === 'ok').length;
    for (const v of t.verdicts) checks.set(v.status, (checks.get(v.status) ?? 0) + 1);
  }
  const differences: string[] = [];
  const differ = (what: string) => void (differences.length < limit && differences.push(what));
  const file = (name: string) => `read_parquet('${path.join(dir, name).replaceAll("'", "''")}')`;
  const rows = await duck<TrialView>(
    `SELECT t.id, t.status, t.attempts, t.verdicts, t."inputTokens", t."outputTokens", t.passed, c.chosen, c.position
       FROM ${file('trials.parquet')} t LEFT JOIN ${file('choices.parquet')} c ON c."trialId" = t.id ORDER BY t.id`,
  );
  if (rows.length !== want.size) differ(`trials: ${rows.length} in Parquet, ${want.size} in the JSON`);
  for (const r of rows) {
    const view: TrialView = {
      id: r.id,
      status: r.status,
      attempts: r.attempts,
      verdicts: r.verdicts,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      passed: r.passed,
      chosen: r.chosen,
      position: r.position,
    };
    const got = JSON.stringify(view);
    const expected = want.get(r.id);
    if (expected === undefined) differ(`trial ${r.id}: in Parquet only`);
    else if (got !== expected) differ(`trial ${r.id}: Parquet ${got}, JSON ${expected}`);
  }
  const [a] = await duck<{ n: string; ok: string }>(`SELECT count(*) AS n, count(*) FILTER (outcome = 'ok') AS ok FROM ${file('attempts.parquet')}`);
  if (Number(a.n) !== counts.attempts || Number(a.ok) !== counts.ok) differ(`attempts: ${a.n} (${a.ok} ok) in Parquet, ${counts.attempts} (${counts.ok} ok) in the JSON`);
  const byStatus = await duck<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM ${file('checks.parquet')} GROUP BY status ORDER BY status`);
  const gotChecks = JSON.stringify(byStatus.map((c) => [c.status, Number(c.n)]));
  const wantChecks = JSON.stringify([...checks].sort());
  if (gotChecks !== wantChecks) differ(`checks by status: ${gotChecks} in Parquet, ${wantChecks} in the JSON`);
  return { trials: want.size, differences };
}
