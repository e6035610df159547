import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../lib/testing/engine';
import { benchSpec } from '../lib/testing/bench-spec';
import { echoScript, startLoopbackServer, type LoopbackServer } from '../lib/testing/loopback-server';
import { closeDb, pool } from '../lib/db/client';

// `tclab run` and the spend guards (docs/spend-guards.md), as a user runs it: a subprocess against the real SDK
// and a loopback OpenAI-wire server, with the confirmation threshold lowered to 50 paid requests.

const KEY = 'sk-tclab-spend-0123456789';
let dir: string;
let file: string;
let server: LoopbackServer;
let env: Record<string, string>;
const runsOf = async () => (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM runs WHERE experiment_id LIKE 'spend-cli%'`)).rows[0].n;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tclab-spend-'));
  server = await startLoopbackServer({ script: echoScript });
  file = path.join(dir, 'spec.json');
  await writeFile(file, JSON.stringify({ ...benchSpec(100), id: 'spend-cli' }));
  env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: server.openaiBaseUrl, TCLAB_CONFIRM_REQUESTS: '50' };
});

afterAll(async () => {
  await server.close();
  await closeDb();
});

describe('tclab run past the confirmation threshold', () => {
  const args = () => ['run', '--experiment', file, '--provider', 'openai', '--model', 'm'];

  it('exits 2 naming the number, sending and storing no run, without --yes or a high enough --max-requests', async () => {
    server.clearRequests();
    const r = await runCli(args(), env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tclab: this run sends 100 paid requests (more than TCLAB_CONFIRM_REQUESTS = 50): give --yes or --max-requests 100 to start it');
    const low = await runCli([...args(), '--max-requests', '99'], env);
    expect(low.code).toBe(2);
    expect(low.stderr).toContain('(99 was confirmed)');
    expect(await runsOf()).toBe(0);
    expect(server.count).toBe(0);
  });

  it('runs with --yes (exit 0), and with --max-requests at the number', async () => {
    const yes = await runCli([...args(), '--yes'], env);
    expect(yes.stderr).toMatch(/run r_\w+ \(100 trials/);
    expect(yes.code).toBe(0);
    const confirmed = await runCli([...args(), '--max-requests', '100'], env);
    expect(confirmed.code).toBe(0);
  });

  it('stops at --budget-requests: exit 1, "budget reached: 5 requests", 5 formal requests sent', async () => {
    const r = await runCli([...args(), '--yes', '--budget-requests', '5', '--concurrency', '2'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/run (r_\w+) cancelled: budget reached: 5 requests/);
    const runId = /run (r_\w+) \(/.exec(r.stderr)![1];
    const sent = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [runId]);
    expect(sent.rows[0].n).toBe(5);
    const bad = await runCli([...args(), '--yes', '--budget-requests', 'many'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--budget-requests: a whole number of at least 1 (got "many")');
  });
});
