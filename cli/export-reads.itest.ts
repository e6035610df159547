import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../lib/db/client';
import { closeQueues } from '../lib/queue/connection';
import { saveExperiment } from '../lib/experiments/versions';
import { runCli, runToCompletion } from '../lib/testing/engine';
import { startStatementCounter, type StatementCounter } from '../lib/testing/pg-statement-counter';
import { tinyExperiment } from '../lib/testing/tiny-experiment';

// A use case loads a run (and its experiment) once and passes it down. `tclab export --out --csv
// --checks-csv` used to read the run row 4 times and the experiment 3 times. Measured on the wire: the real
// CLI process talks to PostgreSQL through a proxy that records every statement it sends.

const dir = mkdtempSync(path.join(tmpdir(), 'tclab-export-reads-'));
let counter: StatementCounter;
let runId: string;

beforeAll(async () => {
  const exp = await saveExperiment(tinyExperiment('export-reads'));
  const run = { id: await runToCompletion(exp.id, { provider: 'simulated', model: 'heuristic' }, 4) };
  runId = run.id;
  counter = await startStatementCounter(process.env.DATABASE_URL!);
});

afterAll(async () => {
  await counter?.close();
  rmSync(dir, { recursive: true, force: true });
  await closeQueues();
  await closeDb();
});

describe('tclab export reads the run and its experiment once', () => {
  it('--out --csv --checks-csv: one read of the run row, one of the experiment, every file written', async () => {
    const f = (n: string) => path.join(dir, n);
    const r = await runCli(['export', runId, '--out', f('run.json'), '--csv', f('trials.csv'), '--checks-csv', f('checks.csv')], { DATABASE_URL: counter.url });
    expect(r.code, r.stderr).toBe(0);
    // the files are the run's
    expect(JSON.parse(readFileSync(f('run.json'), 'utf8')).run.id).toBe(runId);
    expect(readFileSync(f('trials.csv'), 'utf8').split('\n').length).toBeGreaterThan(2);
    expect(readFileSync(f('checks.csv'), 'utf8').split('\n').length).toBeGreaterThan(2);
    expect(r.stdout).toContain(`Run ${runId}`);

    // the run row (lib/db/runs.ts getRun) and the experiment version (lib/db/experiments.ts getExperiment)
    const runReads = counter.statements.filter((s) => /^\s*SELECT id, experiment_id, provider, model, settings\b[\s\S]*\bFROM runs WHERE id = \$1\s*$/.test(s));
    const experimentReads = counter.statements.filter((s) => /\bFROM experiments WHERE id = \$1/.test(s));
    // besides: the results version of each stored result (lib/db/result-cache.ts: the run summary — Table 1 with
    // its outcomes — and, inside it, Table 1's cells and the trials' usage; what the model did, for the JSON),
    // read before and after each is computed on a cold cache — Table 1 is computed once, for the printed summary
    // and the JSON alike
    const versionChecks = counter.statements.filter((s) => /\bFROM runs WHERE id = \$1 AND status = ANY/.test(s));
    expect(counter.statements.length).toBeGreaterThan(5); // the proxy saw the export's queries
    expect(runReads).toHaveLength(1);
    expect(experimentReads).toHaveLength(1);
    expect(versionChecks).toHaveLength(8);
    expect(counter.statements.filter((s) => /\bFROM runs\b/.test(s))).toHaveLength(9);
  });
});
