import { afterAll, describe, expect, it } from 'vitest';
import { echoScript, type Reply, type ScriptRequest } from '../testing/loopback-server';
import { loopbackEngine } from '../testing/loopback-engine';
import { engineViolations, runSettled, waitFor, waitForRunStatus } from '../testing/engine';
import { pool } from '../db/client';
import { getRun } from '../db/runs';
import { budgetSpent } from '../db/budget';
import { TEMPLATES } from '../templates';
import { createRun, startRun } from './start';
import { startWorker, type WorkerHandle } from './worker';

// A token budget at concurrency 64 against slow answers (docs/spend-guards.md › the bound): a loopback
// OpenAI-wire server holds every formal answer until the test releases it, one at a time. The answer that
// crosses the budget stops the run before another request leaves, and the tokens end within the documented
// bound: the budget plus the concurrency × one request's tokens.

const KEY = 'sk-test-budget-0000';
const CONCURRENCY = 64;
const BUDGET = 2000;
/** The loopback server's usage of every answer (lib/testing/wire-bodies.ts): 100 in, 10 out. */
const PER_REQUEST = 110;
const PRECHECKS = TEMPLATES['reference-study'].build().prechecks.length;

let worker: WorkerHandle | undefined;
const engine = loopbackEngine({
  key: KEY,
  env: (server) => ({ TCLAB_ALLOWED_BASE_URLS: server.url }),
  settings: { maxAttempts: 3, timeoutMs: 60_000, concurrency: CONCURRENCY },
});

afterAll(async () => {
  await worker?.close();
});

/** The formal requests the server holds: each answered when the test releases it. */
function holdingScript() {
  const held: { release: () => void }[] = [];
  let received = 0;
  const script = (req: ScriptRequest): Reply | Promise<Reply> => {
    received += 1;
    if (received <= PRECHECKS) return echoScript(req); // the run's pre-checks are answered at once
    return new Promise<Reply>((resolve) => held.push({ release: () => resolve(echoScript(req) as Reply) }));
  };
  return {
    script,
    /** Formal requests received so far. */
    formal: () => Math.max(0, received - PRECHECKS),
    held,
  };
}

describe('a token budget at concurrency 64 with slow answers', () => {
  it('stops at the answer that crosses it: no request leaves after it, and the tokens end within the documented bound', async () => {
    const h = holdingScript();
    engine.server.setScript(h.script);
    const run = await createRun(engine.experimentId, engine.settings(), { budget: { tokens: BUDGET } });
    expect((await startRun(run.id)).ok).toBe(true);
    worker = startWorker({ concurrency: 2 * CONCURRENCY }); // trials claimed and waiting for a slot, as under load

    await waitFor('64 requests in flight', async () => h.formal() === CONCURRENCY, 60_000, 20);
    const crossing = Math.ceil(BUDGET / PER_REQUEST); // the 19th answer: 2,090 tokens
    let released = 0;
    for (;;) {
      const before = h.formal();
      h.held[released++].release();
      // the answer's slot is handed on once it is counted: either the next request arrives, or the run stops
      const next = await waitFor(
        `what follows answer ${released}`,
        async () => (h.formal() > before ? 'request' : (await getRun(run.id))?.status === 'cancelled' ? 'stopped' : null),
        60_000,
        10,
      );
      if (released < crossing) {
        expect(next, `answer ${released} is within the budget: its slot goes to the next trial`).toBe('request');
        continue;
      }
      expect(next, 'the crossing answer stops the run before another request leaves').toBe('stopped');
      break;
    }
    const sentAtCrossing = h.formal();
    expect(sentAtCrossing).toBe(CONCURRENCY + crossing - 1);
    const stopped = await getRun(run.id);
    expect(stopped?.statusReason).toBe(`budget reached: ${(crossing * PER_REQUEST).toLocaleString('en')} tokens (budget 2,000) after ${sentAtCrossing} requests`);

    // the requests in flight are answered and kept; none is sent after the crossing answer
    for (const x of h.held.slice(released)) x.release();
    await waitFor('the stopped run to settle', () => runSettled(run.id), 60_000, 50);
    expect(h.formal()).toBe(sentAtCrossing);
    const attempts = await pool().query<{ n: number }>(`SELECT count(*)::int AS n FROM attempts WHERE run_id = $1 AND kind = 'formal'`, [run.id]);
    expect(attempts.rows[0].n).toBe(sentAtCrossing);
    expect(await engineViolations(run.id)).toEqual([]);

    const spent = await budgetSpent(run.id);
    const tokens = spent!.inputTokens + spent!.outputTokens;
    expect(tokens).toBe(sentAtCrossing * PER_REQUEST); // 9,020
    expect(tokens).toBeLessThanOrEqual(BUDGET + CONCURRENCY * PER_REQUEST); // the bound in docs: 9,040
    expect((await waitForRunStatus(run.id, ['cancelled'])).status).toBe('cancelled');
  });
});
