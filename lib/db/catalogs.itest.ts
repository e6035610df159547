import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/engine';
import { benchSpec } from '../testing/bench-spec';
import { startLoopbackServer, type LoopbackServer } from '../testing/loopback-server';
import { closeDb, pool } from './client';
import { getTrialRecord } from './results';
import { catalogRefOf } from './catalogs';

// Catalogs stored once (docs/benchmarks.md): a run of a 128-tool catalog through each SDK against the loopback
// server. Every attempt refers to its catalog (one row per distinct catalog text); the request rebuilt by
// PostgreSQL, read by the trial page (getTrialRecord) and written by `tclab export` is the body the server
// received, byte for byte; and the attempt's request column holds a tenth or less of the request's bytes as
// sent (uncompressed; on-disk figures after TOAST compression: scripts/bench-catalogs.ts, docs/benchmarks.md).

let dir: string;
let server: LoopbackServer;
const KEYS = { OPENAI_API_KEY: 'sk-tclab-catalogs-0123456789', ANTHROPIC_API_KEY: 'sk-ant-tclab-catalogs-0123456789', GEMINI_API_KEY: 'gm-tclab-catalogs-0123456789' };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-catalogs-'));
  server = await startLoopbackServer();
});

afterAll(async () => {
  await server.close();
  await closeDb();
});

async function runOn(provider: 'openai' | 'anthropic' | 'gemini', tools: number): Promise<string> {
  const file = path.join(dir, `${provider}-${tools}.json`);
  await writeFile(file, JSON.stringify({ ...benchSpec(4, { tools }), id: `catalogs-${provider}-${tools}` }));
  const out = path.join(dir, `${provider}-${tools}.run.json`);
  const r = await runCli(['run', '--experiment', file, '--provider', provider, '--model', 'm', '--out', out], {
    ...KEYS,
    OPENAI_BASE_URL: server.openaiBaseUrl,
    ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
    GEMINI_BASE_URL: server.geminiBaseUrl,
  });
  expect(r.code, r.stderr).toBe(0);
  return out;
}

interface StoredAttempt {
  trial_id: string;
  rebuilt: string;
  catalog_id: number | null;
  stored_bytes: number;
  whole_bytes: number;
}

describe('tool catalogs stored once', () => {
  for (const provider of ['openai', 'anthropic', 'gemini'] as const) {
    it(`${provider}: each attempt refers to its catalog; the request read back is what the server received; ≤ 1/10 of the bytes with 128 tools`, async () => {
      server.clearRequests();
      const out = await runOn(provider, 128);
      const exported = JSON.parse(await readFile(out, 'utf8')) as { run: { id: string }; trials: { id: string; attempts: { request: unknown }[] }[] };
      const runId = exported.run.id;
      const received = server.requests.map((q) => q.raw);
      expect(received).toHaveLength(4);

      // stored: the request without its catalog, and the bytes it takes; whole: the same request as it was stored before
      const rows = (
        await pool().query<StoredAttempt>(
          `SELECT a.trial_id, tclab_attempt_request(a.request, a.catalog_id, a.catalog_at)::text AS rebuilt, a.catalog_id,
                  pg_column_size(a.request) AS stored_bytes, pg_column_size(tclab_attempt_request(a.request, a.catalog_id, a.catalog_at)) AS whole_bytes
             FROM attempts a WHERE a.run_id = $1 AND a.kind = 'formal' ORDER BY a.trial_id`,
          [runId],
        )
      ).rows;
      expect(rows).toHaveLength(4);
      expect(rows.map((r) => r.rebuilt).sort()).toEqual([...received].sort());
      for (const r of rows) expect(r.catalog_id).toEqual(expect.any(Number));
      // two conditions: two catalogs, each stored once, its text the key's
      const ids = [...new Set(rows.map((r) => r.catalog_id!))];
      expect(ids).toHaveLength(2);
      const catalogs = await pool().query<{ ref: string; body: string }>(`SELECT ref, body FROM tool_catalogs WHERE id = ANY($1::int[])`, [ids]);
      expect(catalogs.rows).toHaveLength(2);
      for (const c of catalogs.rows) expect(catalogRefOf(c.body)).toBe(c.ref);

      // the trial page and the export read the request as sent
      for (const r of rows) {
        const page = await getTrialRecord(runId, r.trial_id);
        expect(JSON.stringify(page!.attempts[0].request)).toBe(r.rebuilt);
        const t = exported.trials.find((x) => x.id === r.trial_id)!;
        expect(JSON.stringify(t.attempts[0].request)).toBe(r.rebuilt);
      }

      const stored = rows.reduce((s, r) => s + r.stored_bytes, 0) / rows.length;
      const whole = rows.reduce((s, r) => s + r.whole_bytes, 0) / rows.length;
      console.log(`catalogs ${provider} 128 tools: request bytes per attempt ${Math.round(whole)} → ${Math.round(stored)}`);
      expect(stored).toBeLessThanOrEqual(whole / 10);
    }, 180_000);
  }

  it('tclab_catalog_id: two transactions storing the same new catalog at once get the same id; an unknown catalog without its text is an error', async () => {
    const body = JSON.stringify([{ name: `t-${Date.now()}`, description: 'x'.repeat(80) }]);
    const ref = catalogRefOf(body);
    const [a, b] = [await pool().connect(), await pool().connect()];
    try {
      await a.query('BEGIN');
      await b.query('BEGIN');
      const first = (await a.query<{ id: number }>('SELECT tclab_catalog_id($1, $2) AS id', [ref, body])).rows[0].id;
      // b's insert conflicts with a's row not yet committed: it waits for a, then finds a's row
      const bPid = (await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const second = b.query<{ id: number }>('SELECT tclab_catalog_id($1, $2) AS id', [ref, body]);
      // wait until b waits on a's row (the INSERT's conflict), so the second look-up is what finds it
      for (let i = 0; ; i++) {
        const w = await pool().query(`SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = 'Lock'`, [bPid]);
        if (w.rowCount) break;
        if (i > 5000) throw new Error('the second transaction never waited on the first');
      }
      await a.query('COMMIT');
      expect((await second).rows[0].id).toBe(first);
      await b.query('COMMIT');
    } finally {
      a.release();
      b.release();
    }
    const rows = await pool().query<{ id: number; body: string }>('SELECT id, body FROM tool_catalogs WHERE ref = $1', [ref]);
    expect(rows.rows).toEqual([{ id: expect.any(Number), body }]);
    expect((await pool().query<{ id: number }>('SELECT tclab_catalog_id($1, NULL) AS id', [ref])).rows[0].id).toBe(rows.rows[0].id);
    expect((await pool().query('SELECT tclab_catalog_id(NULL, NULL) AS id')).rows[0].id).toBeNull();
    await expect(pool().query('SELECT tclab_catalog_id($1, NULL)', [catalogRefOf('[1]')])).rejects.toThrow(/body/);
  });

  it('an attempt stored before the migration (request whole, no catalog_id) reads and exports as before', async () => {
    const out = await runOn('openai', 3);
    const runId = (JSON.parse(await readFile(out, 'utf8')) as { run: { id: string } }).run.id;
    // make one attempt an old row: its whole request inline, no reference
    const old = await pool().query<{ trial_id: string; whole: string }>(
      `UPDATE attempts a SET request = tclab_attempt_request(a.request, a.catalog_id, a.catalog_at), catalog_id = NULL, catalog_at = NULL
        WHERE a.id = (SELECT id FROM attempts WHERE run_id = $1 AND kind = 'formal' ORDER BY id LIMIT 1)
        RETURNING a.trial_id, a.request::text AS whole`,
      [runId],
    );
    expect(old.rows).toHaveLength(1);
    const { trial_id, whole } = old.rows[0];
    expect(JSON.parse(whole).tools).toHaveLength(3);
    const page = await getTrialRecord(runId, trial_id);
    expect(JSON.stringify(page!.attempts[0].request)).toBe(whole);
    const again = path.join(dir, 'old.json');
    const r = await runCli(['export', runId, '--out', again]);
    expect(r.code, r.stderr).toBe(0);
    const trials = (JSON.parse(await readFile(again, 'utf8')) as { trials: { id: string; attempts: { request: unknown }[] }[] }).trials;
    expect(JSON.stringify(trials.find((t) => t.id === trial_id)!.attempts[0].request)).toBe(whole);
    // the other attempts of the run still refer to their catalog
    const refs = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal' AND catalog_id IS NOT NULL`, [runId]);
    expect(refs.rows[0].n).toBe(3);
  }, 180_000);
});
