import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { env } from '../lib/env';
import { deleteRedisPrefix } from '../lib/testing/cleanup';
import { runCli, spawnCli, waitFor, type WorkerProcess } from '../lib/testing/engine';
import { startLoopbackServer, echoScript, type LoopbackServer } from '../lib/testing/loopback-server';
import { startPrivatePostgres, type PrivatePostgres } from '../lib/testing/private-postgres';

// `tclab run` while its PostgreSQL restarts. The shared server on 5432 serves every other checkout, so this
// test starts a private cluster of its own (initdb into a temp dir, a free port), stops and starts it
// mid-run, and removes it afterwards. Its queue prefix is its own too: jobs the other integration files left
// in theirs (a delayed retry of a run in another database) would count as open jobs, so reconcile would not
// give back the job of a batch that failed while PostgreSQL was down (once seen: 16 trials left in flight).

const KEY = 'sk-test-dbrestart-0000';
const PREFIX = `tclab-dbrestart-${process.pid}-${randomBytes(3).toString('hex')}`;
let server: LoopbackServer;
let pg: PrivatePostgres;
let cli: WorkerProcess | undefined;

beforeAll(async () => {
  server = await startLoopbackServer({ script: async (req) => ({ kind: 'delay', ms: 100, then: await echoScript(req) }) });
  pg = await startPrivatePostgres();
});

afterAll(async () => {
  await cli?.kill();
  await server.close();
  await pg?.remove();
  await deleteRedisPrefix(env().REDIS_URL, `${PREFIX}:`);
});

describe('tclab run survives its database restarting', () => {
  it('waits while PostgreSQL is down, reconnects with backoff, and exits 0 with the run completed — no stack trace', async () => {
    const env = {
      DATABASE_URL: pg.url('tclab_restart'),
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: server.openaiBaseUrl,
      TCLAB_LOCK_MS: '2000',
      TCLAB_RECONCILE_MS: '1000',
      TCLAB_LOG_LEVEL: 'warn',
      TCLAB_QUEUE_PREFIX: PREFIX,
    };
    const args = [
      'run',
      '--template',
      'reference-study',
      '--provider',
      'openai',
      '--model',
      'loopback-model',
      '--concurrency',
      '2',
      '--timeout-ms',
      '2000',
      '--retry-base-ms',
      '50',
    ];
    const proc = spawnCli(args, env);
    cli = proc;
    const done = () => Math.max(0, ...[...proc.output().matchAll(/running\s+(\d+)\/152 done/g)].map((m) => Number(m[1])));
    // Each step has its own deadline, well inside the test's, and a failure prints what the CLI said so far.
    const step = async (what: string, p: Promise<unknown>) => {
      try {
        await p;
      } catch (e) {
        throw new Error(`${(e as Error).message}\n--- tclab output so far ---\n${proc.output()}`);
      }
    };
    await step(
      'under way',
      waitFor('the run under way', async () => done() >= 10 || proc.proc.exitCode !== null, 60_000, 50),
    );
    expect(proc.proc.exitCode).toBeNull();

    await pg.stop();
    await step(
      'notice',
      waitFor('the CLI to notice', async () => proc.output().includes('the database is unavailable'), 30_000, 50),
    );
    await pg.start();
    await step(
      'exit',
      waitFor('tclab run to exit after the restart', async () => proc.proc.exitCode !== null || proc.proc.signalCode !== null, 90_000, 100),
    );
    const code = await proc.exited;
    const output = proc.output();
    // tolerated (the run is final in PostgreSQL), but worth seeing in the log when it happens
    if (output.includes('the worker had not stopped')) console.log(`tclab's worker did not stop after the restart:\n${output}`);
    expect(code, output).toBe(0);
    expect(output).toContain('the database is back after');
    expect(output).toContain('selection: overlapping → clear'); // Table 1
    expect(output).not.toMatch(/^\s+at /m); // no stack trace

    const status = await runCli(['status', /run (r_\w+)/.exec(output)![1]], env);
    expect(status.code).toBe(0);
    const s = JSON.parse(status.stdout) as { status: string; progress: { done: number; total: number } };
    expect([s.status, s.progress.done, s.progress.total]).toEqual(['completed', 152, 152]);
  }, 240_000);
});
