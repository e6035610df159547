import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { echoScript } from '../testing/loopback-server';
import { loopbackEngine } from '../testing/loopback-engine';
import { engineViolations, doneCount, spawnWorker, waitFor, waitForRunStatus, type WorkerProcess } from '../testing/engine';
import { pool } from '../db/client';
import { env } from '../env';
import { createRun, startRun } from './start';
import { startWorker } from './worker';
import { runJsonStream } from '../runs/export';

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks).toString('utf8');
}

// Recovery after a crash (docs/faults.md › Recovery after a crash: heartbeats), with the default heartbeat
// (1 s, lapses after 3 s), the default BullMQ lock (30 s) and the default request timeout (60 s: a claim's
// lease is over a minute, so without heartbeats a dead worker's trials would wait that long).

const KEY = 'sk-test-recovery-0000';
const RESUME_LIMIT_MS = 10_000;
const workers: WorkerProcess[] = [];
const workerEnv = () => ({ OPENAI_API_KEY: KEY, TCLAB_WORKER_CONCURRENCY: '8' });
// While closed, the loopback server answers none of the victim's requests (it sends with a key of its own): a
// request of the victim in flight stays in flight until the gate opens.
const VICTIM_KEY = 'sk-test-recovery-victim';
let gate: { closed: Promise<void>; open: () => void; held: number } | null = null;
const closeGate = () => {
  let open = () => {};
  const closed = new Promise<void>((r) => (open = r));
  gate = { closed, open, held: 0 };
};
const openGate = () => {
  gate?.open();
  gate = null;
};
const engine = loopbackEngine({
  key: KEY,
  server: {
    script: async (req) => {
      if (gate && String(req.headers.authorization).includes(VICTIM_KEY)) {
        gate.held++;
        await gate.closed;
      }
      return { kind: 'delay', ms: 300, then: await echoScript(req) };
    },
  },
  env: (server) => ({ TCLAB_ALLOWED_BASE_URLS: server.url }),
  settings: { timeoutMs: 60_000, concurrency: 8, maxAttempts: 8 },
});

afterEach(async () => {
  openGate();
  await Promise.all(workers.splice(0).map((w) => w.kill()));
});

const lostCount = async (runId: string) =>
  (await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND outcome = 'lost'`, [runId])).rows[0].n;

// Blocks this process's event loop (a synchronous child) until another worker has claimed the trial anew (a
// lease token newer than `token`), booking this one's attempt `lost`: what a worker stuck in a long GC pause or
// a synchronous loop looks like to the others. (The loopback server runs in this process too, so no request
// is answered until the loop runs again.)
const WAIT_TAKEN_OVER = `
const { Client } = require('pg');
const [url, id, token] = process.argv.slice(1);
const c = new Client({ connectionString: url });
(async () => {
  await c.connect();
  for (;;) {
    const r = await c.query(
      "SELECT 1 FROM trials t JOIN attempts a ON a.trial_id = t.id AND a.n = 1 AND a.outcome = 'lost' WHERE t.id = $1 AND t.lease_token > $2",
      [id, Number(token)],
    );
    if (r.rowCount === 1) break;
    await new Promise((res) => setTimeout(res, 50));
  }
  await c.end();
})().catch(async (e) => { console.error(e); process.exitCode = 1; });`;

describe('recovery after a crash: heartbeats', () => {
  it('a SIGKILLed worker’s trials are taken over within 10 s of the kill; the requests it had in flight are booked lost', async () => {
    const run = await createRun(engine.experimentId, engine.settings());
    expect((await startRun(run.id)).ok).toBe(true);
    // two workers share the run; one of them is killed with requests in flight
    const victim = spawnWorker({ ...workerEnv(), OPENAI_API_KEY: VICTIM_KEY });
    const peer = spawnWorker(workerEnv());
    workers.push(victim, peer);
    const victimOwner = `%:${victim.proc.pid}:%`;
    const sending = async () => {
      const r = await pool().query<{ n: number }>(
        `SELECT count(*)::int AS n FROM attempts a JOIN trials t ON t.id = a.trial_id
          WHERE a.run_id = $1 AND a.kind = 'formal' AND a.outcome = 'sending' AND t.lease_owner LIKE $2`,
        [run.id, victimOwner],
      );
      return r.rows[0].n;
    };
    await waitFor('progress', async () => (await doneCount(run.id)) >= 10, 60_000, 10);
    // No answer to the victim leaves the server now. An attempt is booked sending before its request leaves, so
    // the victim's requests the server holds are among those it booked; when the counts are equal, every request
    // it booked is held at the gate (none answered and still being recorded): in flight at the kill.
    closeGate();
    let last = '';
    await waitFor(
      'the victim’s requests held in flight',
      async () => {
        const n = await sending();
        last = `${n} booked sending by the victim, ${gate!.held} held at the gate`;
        return n > 0 && n === gate!.held;
      },
      60_000,
      10,
    ).catch((e: Error) => {
      throw new Error(`${e.message}: ${last}`);
    });
    await victim.kill('SIGKILL');
    const killedAt = Date.now();
    openGate();
    const held = await pool().query<{ id: string; lease_token: number }>(
      `SELECT id, lease_token FROM trials WHERE run_id = $1 AND status = 'running' AND lease_owner LIKE $2`,
      [run.id, victimOwner],
    );
    expect(held.rowCount).toBeGreaterThan(0);
    // and a new worker, as a supervisor would start one
    const next = spawnWorker(workerEnv(), [], { ready: true });
    workers.push(next);
    let readyMs = NaN;
    void next.ready!.then(() => (readyMs = Date.now() - killedAt)).catch(() => {});

    // every trial the dead worker held is claimed anew (its lease token moved on), or was recorded as it died
    await waitFor(
      'the dead worker’s trials to be taken over',
      async () => {
        const r = await pool().query<{ n: number }>(
          `SELECT count(*)::int AS n FROM trials t JOIN unnest($1::text[], $2::int[]) AS h(id, token) ON h.id = t.id
            WHERE t.lease_token > h.token OR t.status NOT IN ('queued', 'running')`,
          [held.rows.map((h) => h.id), held.rows.map((h) => h.lease_token)],
        );
        return r.rows[0].n === held.rowCount;
      },
      60_000,
      20,
    ).catch((e) => {
      console.log(peer.output());
      throw e;
    });
    const takenOverMs = Date.now() - killedAt;
    const final = await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed'], 120_000);
    const completedMs = Date.now() - killedAt;
    console.log(
      `recovery: ${held.rowCount} trials held at the kill, all taken over ${takenOverMs} ms after it; the new worker ready ${Number.isNaN(readyMs) ? '(not yet)' : `${readyMs} ms`} after it; run completed ${completedMs} ms after it`,
    );
    expect(takenOverMs).toBeLessThan(RESUME_LIMIT_MS);
    expect(final.status).toBe('completed');
    expect(await engineViolations(run.id)).toEqual([]);
    expect(await lostCount(run.id)).toBeGreaterThan(0);
  });

  it('a live worker whose event loop is blocked longer than the heartbeat TTL is taken over, and its late result is fenced out', async () => {
    // the default concurrency: the jobs it holds while the loop is blocked wait for answers from the (blocked)
    // loopback server, and the takeover's job needs a place beside them. Quiet: its stderr is a pipe this
    // process does not read while it is blocked, and a full pipe would block it too.
    const other = spawnWorker({ OPENAI_API_KEY: KEY, TCLAB_LOG_LEVEL: 'silent' }, [], { ready: true });
    workers.push(other);
    await other.ready;
    const run = await createRun(engine.experimentId, engine.settings());
    expect((await startRun(run.id)).ok).toBe(true);
    let blocked: { id: string; token: number } | undefined;
    const stuck = startWorker({
      concurrency: 8,
      hooks: {
        // the first answer this worker gets: before recording it, its event loop stops (no heartbeat either)
        afterSend: async (trialId) => {
          if (blocked) return;
          const t = await pool().query<{ lease_token: number }>(`SELECT lease_token FROM trials WHERE id = $1`, [trialId]);
          blocked = { id: trialId, token: t.rows[0].lease_token };
          execFileSync(process.execPath, ['-e', WAIT_TAKEN_OVER, env().DATABASE_URL, trialId, String(blocked.token)], { timeout: 60_000 });
        },
      },
    });
    try {
      const final = await waitForRunStatus(run.id, ['completed', 'completed_with_unresolved', 'failed'], 120_000);
      expect(final.status).toBe('completed');
    } finally {
      await stuck.close();
    }
    expect(blocked).toBeDefined();
    const trial = await pool().query<{ lease_owner: string; attempt_count: number }>(`SELECT lease_owner, attempt_count FROM trials WHERE id = $1`, [blocked!.id]);
    expect(trial.rows[0].lease_owner).not.toBe(stuck.id);
    // the stuck worker's answer is recorded as its attempt (it happened), not as the trial's result
    const attempts = await pool().query<{ n: number; outcome: string }>(`SELECT n, outcome FROM attempts WHERE trial_id = $1 AND kind = 'formal' ORDER BY n`, [
      blocked!.id,
    ]);
    expect(attempts.rows).toEqual([
      { n: 1, outcome: 'ok' },
      { n: 2, outcome: 'ok' },
    ]);
    const obs = await pool().query<{ attempt_id: string }>(`SELECT attempt_id FROM observations WHERE trial_id = $1`, [blocked!.id]);
    expect(obs.rows).toEqual([{ attempt_id: `${blocked!.id}-a2` }]);
    expect(await engineViolations(run.id)).toEqual([]);
    // the export names the formal attempt: exactly one `ok` per trial (the one its result came from), the
    // stuck worker's answer labelled `late`; `ok` attempts add up to the trials scored
    const exported = JSON.parse(await text(await runJsonStream(run.id))) as { trials: { id: string; attempts: { n: number; outcome: string }[] }[] };
    expect(exported.trials.find((t) => t.id === blocked!.id)!.attempts.map((a) => [a.n, a.outcome])).toEqual([
      [1, 'late'],
      [2, 'ok'],
    ]);
    for (const t of exported.trials)
      expect(
        t.attempts.filter((a) => a.outcome === 'ok'),
        t.id,
      ).toHaveLength(1);
    // every request the stuck worker had out was answered late (its trials were all taken over): the stored `ok`
    // rows beyond one per trial are exactly the exported `late` ones
    const okRows = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal' AND outcome = 'ok'`, [run.id]);
    const late = exported.trials.flatMap((t) => t.attempts).filter((a) => a.outcome === 'late').length;
    expect(late).toBeGreaterThan(0);
    expect(late).toBe(okRows.rows[0].n - exported.trials.length);
  });
});
