import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationScript, startLoopbackServer, wireToolRounds, type LoopbackServer, type Reply, type Script } from '../testing/loopback-server';
import { engineViolations, spawnWorker, waitFor, waitForRunStatus, type WorkerProcess } from '../testing/engine';
import { PAY_SCRIPT_CALLS, smallTaskExperiment } from '../testing/task-experiment';
import { closeDb, pool } from '../db/client';
import { saveExperiment } from '../experiments/versions';
import { loadTurns } from '../db/turns';
import { resetEnvCache } from '../env';
import { closeQueues } from '../queue/connection';
import type { WireId } from '../providers/types';
import type { TaskDetails } from '../studies/task';
import { createRun, startRun } from './start';
import { startWorker } from './worker';

// Task trials over the loopback wire server with the real SDKs: trial → turns → attempts. A scripted
// three-turn conversation (look up, pay, report) is stored turn by turn; each stored request carries the
// earlier tool results in its wire's form; a worker SIGKILLed mid-conversation is resumed by another that
// sends no stored turn again and applies no write twice.

const OPENAI_KEY = 'sk-test-conversation-0000';
const GEMINI_KEY = 'gm-test-conversation-0000';
let server: LoopbackServer;
const workers: WorkerProcess[] = [];

const THREE_TURNS: Reply[] = [
  { kind: 'toolCalls', calls: [PAY_SCRIPT_CALLS.lookup] },
  { kind: 'toolCalls', calls: [PAY_SCRIPT_CALLS.pay] },
  { kind: 'text', text: PAY_SCRIPT_CALLS.text },
];

const WIRES: { wire: WireId; provider: 'openai' | 'gemini' | 'anthropic'; model: string }[] = [
  { wire: 'openai-chat', provider: 'openai', model: 'loopback-model' },
  { wire: 'gemini-generate-content', provider: 'gemini', model: 'gemini-2.5-flash' },
  { wire: 'anthropic-messages', provider: 'anthropic', model: 'claude-loopback' },
];

beforeAll(async () => {
  process.env.OPENAI_API_KEY = OPENAI_KEY;
  process.env.GEMINI_API_KEY = GEMINI_KEY;
  process.env.ANTHROPIC_API_KEY = 'sk-ant-test-conversation-0000';
  server = await startLoopbackServer();
  process.env.TCLAB_ALLOWED_BASE_URLS = server.url; // the runs name the loopback server as their base URL
  resetEnvCache();
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.kill()));
  await server.close();
  await closeQueues();
  await closeDb();
});

async function newRun(id: string, w: (typeof WIRES)[number], timeoutMs: number) {
  const exp = await saveExperiment(smallTaskExperiment(id));
  const run = await createRun(exp.id, {
    provider: w.provider,
    model: w.model,
    baseUrl: server.baseUrlFor(w.wire),
    timeoutMs,
    retryBaseMs: 20,
    concurrency: 4,
    maxAttempts: 3,
  });
  expect((await startRun(run.id)).ok).toBe(true);
  return run.id;
}

interface AttemptRow {
  trial_id: string;
  n: number;
  turn: number;
  outcome: string;
  request: unknown;
}

async function attemptsOf(runId: string): Promise<AttemptRow[]> {
  const r = await pool().query<AttemptRow>(
    `SELECT trial_id, n, turn, outcome, tclab_attempt_request(request, catalog_id, catalog_at) AS request FROM attempts WHERE run_id = $1 AND kind = 'formal' ORDER BY trial_id, n`,
    [runId],
  );
  return r.rows;
}

async function trialsOf(runId: string) {
  const r = await pool().query<{ id: string; status: string; details: TaskDetails }>(`SELECT id, status, details FROM trials WHERE run_id = $1 ORDER BY id`, [runId]);
  return r.rows;
}

/** Every stored request of turn k carries the k − 1 earlier rounds, each with exactly the results stored for that turn. */
async function expectStoredTurnByTurn(runId: string, wire: WireId) {
  const attempts = await attemptsOf(runId);
  for (const t of await trialsOf(runId)) {
    expect(t.status).toBe('passed');
    const turns = await loadTurns(t.id);
    expect(turns.map((x) => x.n)).toEqual([1, 2, 3]);
    expect(turns.map((x) => x.calls.map((c) => c.name))).toEqual([['get_invoice'], ['submit_payment'], []]);
    for (const turn of turns) {
      const a = attempts.find((x) => x.trial_id === t.id && x.n === turn.attemptN)!;
      expect(a).toMatchObject({ outcome: 'ok', turn: turn.n });
      const rounds = wireToolRounds(wire, a.request);
      expect(rounds).toHaveLength(turn.n - 1);
      rounds.forEach((round, i) => {
        const earlier = turns[i];
        expect(round.calls.map((c) => c.name)).toEqual(earlier.calls.map((c) => c.name));
        expect(round.results.map((r) => r.content)).toEqual(earlier.results.map((r) => r.result));
        if (wire !== 'gemini-generate-content') {
          // role:"tool" messages (OpenAI) and tool_result blocks (Anthropic) answer the assistant's calls by id
          expect(round.results.map((r) => r.id)).toEqual(round.calls.map((c) => c.id));
          expect(round.calls.map((c) => c.id)).toEqual(earlier.calls.map((c) => c.id));
        } else {
          // functionResponse parts answer functionCall parts by name
          expect(round.results.map((r) => r.name)).toEqual(round.calls.map((c) => c.name));
        }
      });
    }
    // the payment was made once, and the card's state holds
    expect(t.details.log.filter((e) => e.write !== null)).toHaveLength(1);
    expect(Object.keys((t.details.after as { payments: object }).payments)).toEqual(['pay-1']);
  }
}

describe.each(WIRES)('task trials over the $wire wire', (w) => {
  it('stores a scripted three-turn conversation turn by turn, each request carrying the earlier tool results', async () => {
    server.setScript(conversationScript(THREE_TURNS));
    server.clearRequests();
    const runId = await newRun(`conv-${w.provider}`, w, 5000);
    const worker = startWorker({ concurrency: 4, reconcileEveryMs: 500 });
    try {
      await worker.ready;
      const run = await waitForRunStatus(runId, ['completed'], 60_000);
      expect(run.status).toBe('completed');
    } finally {
      await worker.close();
    }
    expect(await engineViolations(runId)).toEqual([]);
    await expectStoredTurnByTurn(runId, w.wire);
    // two trials × three turns, each sent once
    expect(server.requests.filter((r) => r.wire === w.wire)).toHaveLength(6);
  });

  it('resumes a worker SIGKILLed mid-conversation without re-sending a stored turn or writing twice', async () => {
    // turn 3 requests (two rounds of results) are held until the worker holding them has been killed
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = true;
    const base = conversationScript(THREE_TURNS);
    const script: Script = async (req) => {
      if (holding && wireToolRounds(req.wire, req.body).length === 2) await released;
      return base(req);
    };
    server.setScript(script);
    server.clearRequests();
    const runId = await newRun(`conv-kill-${w.provider}`, w, 3000);
    const env = { OPENAI_API_KEY: OPENAI_KEY, GEMINI_API_KEY: GEMINI_KEY, TCLAB_LOCK_MS: '2000', TCLAB_RECONCILE_MS: '1000', TCLAB_WORKER_CONCURRENCY: '4' };
    const rounds = (n: number) => server.requests.filter((r) => r.wire === w.wire && wireToolRounds(r.wire, r.body).length === n).length;

    const first = spawnWorker(env);
    workers.push(first);
    // both trials have stored turns 1 and 2 (the payment is applied) and have sent turn 3
    await waitFor(
      'turn 3 in flight for both trials',
      async () => {
        const stored = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM turns WHERE run_id = $1 AND n = 2`, [runId]);
        return stored.rows[0].n === 2 && rounds(2) === 2;
      },
      60_000,
      50,
    );
    await first.kill('SIGKILL');
    holding = false;
    release();

    const second = spawnWorker(env);
    workers.push(second);
    const run = await waitForRunStatus(runId, ['completed'], 90_000);
    expect(run.status).toBe('completed');
    await second.kill('SIGTERM');

    expect(await engineViolations(runId)).toEqual([]);
    // turns 1 and 2 were sent once per trial; turn 3 twice (the first answer died with the worker)
    expect([rounds(0), rounds(1), rounds(2)]).toEqual([2, 2, 4]);
    const attempts = await attemptsOf(runId);
    for (const t of await trialsOf(runId)) {
      const mine = attempts.filter((a) => a.trial_id === t.id);
      expect(mine.map((a) => [a.n, a.turn, a.outcome])).toEqual([
        [1, 1, 'ok'],
        [2, 2, 'ok'],
        [3, 3, 'lost'],
        [4, 3, 'ok'],
      ]);
    }
    await expectStoredTurnByTurn(runId, w.wire);
  });
});
