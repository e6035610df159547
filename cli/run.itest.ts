import { readFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { RunExport } from '../lib/schema/run-export';
import { runCli } from '../lib/testing/engine';
import { benchSpec } from '../lib/testing/bench-spec';
import { getDescriptor } from '../lib/providers/registry';
import type { WireId } from '../lib/providers/types';
import { startLoopbackServer, wireToolNames, isInterpretationBody, type LoopbackServer, type Reply, type ScriptRequest } from '../lib/testing/loopback-server';
import { pool, closeDb } from '../lib/db/client';
import { TccCard, TccObservations } from '../lib/schema/tcc';
import { tccFileNames } from '../lib/export/tcc';
import { compareCard } from '../lib/scoring/compare';

// `tclab run` end to end as a user runs it: a subprocess, real PostgreSQL and Redis, an in-process
// worker, the simulated provider offline, and the real OpenAI / Gemini SDKs against a loopback server.

const FAKE_KEY = 'sk-tclab-FAKE-KEY-0123456789abcdefXYZ';
let dir: string;
let server: LoopbackServer;

/** A deterministic answer computed from the request alone, so a stored observation can be re-derived. */
function answerFor(wire: WireId, body: unknown): Reply {
  const digest = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  if (isInterpretationBody(wire, body)) return { kind: 'text', text: `STATUS: ${['AVAILABLE', 'CANNOT_DETERMINE', 'ERROR'][parseInt(digest[0], 16) % 3]}` };
  const names = wireToolNames(wire, body);
  const pick = parseInt(digest[1], 16) % (names.length + 1);
  if (pick === names.length) return { kind: 'text', text: `CLARIFY: which one? <b>${digest.slice(0, 6)}</b>` };
  return { kind: 'toolCalls', calls: [{ name: names[pick], arguments: { probe: digest.slice(0, 8) } }] };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-cli-'));
  server = await startLoopbackServer({ script: (req: ScriptRequest) => answerFor(req.wire, req.body) });
});

afterAll(async () => {
  await server.close();
  await closeDb();
});

async function readExport(file: string) {
  return RunExport.parse(JSON.parse(await readFile(file, 'utf8')));
}

describe('tclab run', () => {
  it('runs the reference study offline: 152 formal trials, 2 pre-checks, pairs that add up, Table 1 in summary', async () => {
    const out = path.join(dir, 'run.json');
    const csv = path.join(dir, 'run.csv');
    const r = await runCli(['run', '--template', 'reference-study', '--out', out, '--csv', csv]);
    expect(r.stderr).toMatch(/run r_\w+ \(152 trials/);
    expect(r.code).toBe(0);
    // 152 trials, under TCLAB_WARM_MIN_TRIALS (5000): the pages' aggregates are left to the first view
    expect(r.stderr).not.toContain('storing what its pages read');
    expect(r.stdout).toContain('selection: overlapping → clear');
    expect(r.stdout).toContain('simulated');
    const run = await readExport(out);
    expect(run.run.simulated).toBe(true);
    expect(run.prechecks).toHaveLength(2);
    expect(run.trials).toHaveLength(152);
    const count = (study: string, condition: string) => run.trials.filter((t) => t.study === study && t.condition === condition).length;
    expect([
      count('selection', 'overlapping'),
      count('selection', 'clear'),
      count('interpretation', 'no-code-meanings'),
      count('interpretation', 'code-meanings'),
    ]).toEqual([48, 48, 28, 28]);
    for (const s of run.summary.studies) {
      const pairs = s.pairs.improved + s.pairs.same + s.pairs.regressed + (s.pairs.incomplete ?? 0);
      expect(pairs).toBe(s.study === 'selection' ? 48 : 28);
      expect(s.total.baseline.pass).toBe(s.rows.reduce((a, x) => a + x.baseline.pass, 0));
      expect(s.total.treatment.n).toBe(s.study === 'selection' ? 48 : 28);
    }
    expect(run.trials.every((t) => t.checkpoints && Object.keys(t.checkpoints).length === 5)).toBe(true);
    const rows = parse(await readFile(csv, 'utf8'), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(152);

    // round trip: every trial exported as its TCC card + observation file compares to its own verdicts
    const runId = /run (r_\w+)/.exec(r.stderr)![1];
    const tccDir = path.join(dir, 'tcc');
    const parquetDir = path.join(dir, 'parquet');
    const exported = await runCli(['export', runId, '--tcc', tccDir, '--parquet', parquetDir]);
    expect(exported.code).toBe(0);
    // the Parquet files (read back against the JSON export in lib/export/parquet.itest.ts)
    for (const f of ['trials.parquet', 'attempts.parquet', 'checks.parquet', 'choices.parquet'])
      expect((await readFile(path.join(parquetDir, f))).subarray(0, 4).toString()).toBe('PAR1');
    expect(JSON.parse(await readFile(path.join(parquetDir, 'run.json'), 'utf8')).run.id).toBe(runId);
    for (const t of run.trials) {
      const names = tccFileNames(t.id);
      const card = TccCard.parse(JSON.parse(await readFile(path.join(tccDir, names.card), 'utf8')));
      const obs = TccObservations.parse(JSON.parse(await readFile(path.join(tccDir, names.observations), 'utf8')));
      expect(card.context.tool_set_ref).toBe(t.toolSetRef);
      const cmp = compareCard(card, obs);
      const byId = (a: string[], b: string[]) => a[0].localeCompare(b[0]);
      expect(cmp.checks.map((c) => [c.id, c.status, c.reason]).sort(byId)).toEqual(t.verdicts.map((v) => [v.checkId, v.status, v.reason]).sort(byId));
    }
    const failed = run.trials.find((t) => t.status === 'failed')!;
    const names = tccFileNames(failed.id);
    const cli = await runCli(['compare', path.join(tccDir, names.card), path.join(tccDir, names.observations), '--json']);
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout).summary.fail).toBe(failed.verdicts.filter((v) => v.status === 'fail').length);
  });

  it("runs the catalog-scale template offline: visible per trial, the funnel and the description pairs in --out; a large run's pages stored after", async () => {
    const out = path.join(dir, 'catalog-scale.json');
    const r = await runCli(['run', '--template', 'catalog-scale', '--out', out], { TCLAB_WARM_MIN_TRIALS: '100' });
    expect(r.stderr).toMatch(/run r_\w+ \(144 trials/);
    expect(r.code, r.stderr).toBe(0);
    // 144 trials ≥ TCLAB_WARM_MIN_TRIALS: the in-process worker's run has what its pages read stored, after the results were written
    const runId = /run (r_\w+)/.exec(r.stderr)![1];
    expect(r.stderr).toContain(`run ${runId}: storing what its pages read`);
    const keys = await pool().query<{ key: string }>(`SELECT split_part(key, '|', 1) AS key FROM result_cache WHERE run_id = $1`, [runId]);
    expect(new Set(keys.rows.map((k) => k.key))).toEqual(new Set(['cells2', 'usage', 'summary', 'choice-summary.json', 'review-pairs', 'funnel']));
    expect((await pool().query(`SELECT 1 FROM review_pairs WHERE run_id = $1`, [runId])).rowCount).toBeGreaterThan(0);
    // and its Parquet tables, four files (docs/export.md#stored-parquet-tables)
    const stored = await pool().query<{ files: { name: string }[] }>(`SELECT files FROM stored_exports WHERE run_id = $1 AND kind = 'parquet'`, [runId]);
    expect(stored.rows[0].files.map((f) => f.name)).toEqual(['trials.parquet', 'attempts.parquet', 'checks.parquet', 'choices.parquet']);
    // the export read back from the stored values is the one written before, byte for byte
    const again = path.join(dir, 'catalog-scale-again.json');
    expect((await runCli(['export', runId, '--out', again])).code).toBe(0);
    expect(await readFile(again, 'utf8')).toBe(await readFile(out, 'utf8'));
    const run = await readExport(out);
    expect(run.trials).toHaveLength(144);
    for (const t of run.trials) {
      expect(t.visible).not.toBeNull();
      expect(t.checkpoints?.visibility).toMatch(/^(pass|fail)$/);
      if (t.discovery === 'all') expect(t.visible).toEqual(t.order);
      else expect(t.visible!.length).toBeLessThanOrEqual(5);
    }
    expect(run.funnel).toHaveLength(16);
    expect(run.descriptionPairs).toHaveLength(8);
  }, 240_000);

  it('reports pass^k beside the plain rate for an experiment with replicates', async () => {
    const file = path.join(dir, 'replicated.json');
    await writeFile(file, JSON.stringify(benchSpec(12))); // one case × 6 replicates per condition
    const r = await runCli(['run', '--experiment', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pass\^k \(plain rate\)\s+pass\^6 (\d\.\d\d \(\d\.\d\d\)|—) → (\d\.\d\d \(\d\.\d\d\)|—)/);
  });

  it('says when trials ended unresolved: `completed with unresolved trials`, exit 1 unless --allow-unresolved', async () => {
    const file = path.join(dir, 'unresolved.json');
    await writeFile(file, JSON.stringify(benchSpec(4)));
    server.setScript(() => ({ kind: 'http', status: 503 }));
    try {
      const args = ['run', '--experiment', file, '--provider', 'openai', '--model', 'm', '--max-attempts', '1', '--out', path.join(dir, 'unresolved-run.json')];
      const env = { OPENAI_API_KEY: FAKE_KEY, OPENAI_BASE_URL: server.openaiBaseUrl };
      const strict = await runCli(args, env);
      expect(strict.code, strict.stderr).toBe(1);
      expect(strict.stderr).toMatch(/completed with unresolved trials: 4 of 4 trials unresolved/);
      expect(strict.stderr).not.toContain('    at '); // no stack trace
      const exported = await readExport(path.join(dir, 'unresolved-run.json'));
      expect(exported.run.status).toBe('completed_with_unresolved');
      expect(exported.run.statusLabel).toBe('completed with unresolved trials');
      const allowed = await runCli([...args, '--allow-unresolved'], env);
      expect(allowed.code, allowed.stderr).toBe(0);
      expect(allowed.stderr).toContain('completed with unresolved trials');
    } finally {
      server.setScript((req: ScriptRequest) => answerFor(req.wire, req.body));
    }
  });

  it('exits 2 and names the field on invalid input, storing nothing', async () => {
    const before = (await pool().query('SELECT count(*)::int AS n FROM runs')).rows[0].n;
    const bad = await runCli(['run', '--template', 'reference-study', '--concurrency', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('concurrency');
    const unknown = await runCli(['run', '--template', 'no-such-template']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--template');
    expect((await pool().query('SELECT count(*)::int AS n FROM runs')).rows[0].n).toBe(before);
  });

  it('does not start when the pre-checks fail, and says why in words a researcher understands', async () => {
    server.setScript(() => ({ kind: 'http', status: 401 }));
    try {
      const r = await runCli(['run', '--template', 'reference-study', '--provider', 'openai', '--model', 'm'], {
        OPENAI_API_KEY: FAKE_KEY,
        OPENAI_BASE_URL: server.openaiBaseUrl,
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/did not start: pre-check 1 failed \(requests go to .*\(fixed on the run\)\): .*key/i);
      expect(r.stderr).not.toContain(FAKE_KEY);
      const runId = /run (r_\w+)/.exec(r.stderr)![1];
      const trials = await pool().query(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [runId]);
      expect(trials.rows[0].n).toBe(0);
      const resumed = await runCli(['resume', runId]);
      expect(resumed.code).toBe(1);
      expect(resumed.stdout).toContain('pre-checks failed');
    } finally {
      server.setScript((req: ScriptRequest) => answerFor(req.wire, req.body));
    }
  });

  for (const [provider, wire] of [
    ['openai', 'openai-chat'],
    ['gemini', 'gemini-generate-content'],
    ['anthropic', 'anthropic-messages'],
  ] as const) {
    it(`runs against ${provider}'s wire format: stored observations equal the server's answers; tool order as sent; the key is stored nowhere`, async () => {
      const out = path.join(dir, `${provider}.json`);
      const csv = path.join(dir, `${provider}.csv`);
      // the key and base-URL variables the provider's descriptor names
      const d = getDescriptor(provider);
      const keyEnv = { [d.keyVars[0]]: FAKE_KEY, [d.baseUrlVar!]: server.baseUrlFor(wire) };
      server.clearRequests();
      const r = await runCli(['run', '--template', 'reference-study', '--provider', provider, '--model', 'm', '--out', out, '--csv', csv], keyEnv);
      expect(r.code, r.stderr).toBe(0);
      // every request carried the key over the wire
      const auth = server.requests.map((q) => d.secretHeaders.map((h) => q.headers[h]).find((v) => v !== undefined));
      expect(auth.every((a) => a && String(a).includes(FAKE_KEY))).toBe(true);
      expect(server.requests).toHaveLength(154);

      const run = await readExport(out);
      expect(run.trials).toHaveLength(152);
      for (const t of run.trials) {
        expect(t.attempts).toHaveLength(1);
        const request = t.attempts[0].request;
        expect(wireToolNames(wire, request)).toEqual(t.order);
        const answer = answerFor(wire, request);
        const obs = t.observation!;
        if (answer.kind === 'toolCalls') {
          expect(obs.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }))).toEqual(answer.calls);
          expect(obs.text ?? null).toBeNull();
        } else if (answer.kind === 'text') {
          expect(obs.toolCalls).toEqual([]);
          expect(obs.text).toBe(answer.text);
        }
      }

      // the whole database, the exports and the CLI's output: the key appears 0 times
      const tables = (await pool().query<{ tablename: string }>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)).rows.map((x) => x.tablename);
      let dump = '';
      for (const table of tables) dump += (await pool().query(`SELECT coalesce(string_agg(row_to_json(t)::text, E'\\n'), '') AS d FROM "${table}" t`)).rows[0].d;
      expect(dump.length).toBeGreaterThan(100_000);
      const files = (await readFile(out, 'utf8')) + (await readFile(csv, 'utf8'));
      for (const [what, text] of [
        ['database', dump],
        ['exports', files],
        ['cli output', r.stdout + r.stderr],
      ] as const)
        expect(text.split(FAKE_KEY).length - 1, what).toBe(0);
    });
  }
});
