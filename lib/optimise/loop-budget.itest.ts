import { describe, expect, it } from 'vitest';
import { commandLineActor } from '../auth/roles';
import { saveExperiment } from '../experiments/versions';
import { nullOracleExperiment, nullOracleScript } from '../testing/null-oracle';
import { loopbackWithWorker } from '../testing/loopback-worker';
import { estimateLoopSpend, optimise, OptimiseFailed, OptimiseInputError, type OptimiseInput } from './loop';

// A budget over the whole improve loop (docs/spend-guards.md "The improve loop"): the rewriter's request, the
// select run and the confirmation through the real openai SDK, queue and worker against a loopback server that
// counts what it receives. The loop never sends more than its budget: the rewriter's request is taken off
// first, the select run gets what is left, the confirmation what the select run left.

const actor = commandLineActor('loop-budget-test');
const loopback = loopbackWithWorker({ script: nullOracleScript() });

/** One loop's input on an experiment of this file's own (seed 0: the loopback model freezes a winner there). */
async function loopInput(name: string): Promise<OptimiseInput> {
  const exp = await saveExperiment(nullOracleExperiment(0, 30, 3, `budget-${name}-${process.pid}-`));
  return {
    experimentId: exp.id,
    study: 'selection',
    seed: 0,
    targets: [{ provider: 'openai', model: 'budget-model' }],
    rewriter: { provider: 'openai', model: 'budget-rewriter' },
    settings: { concurrency: 4, retryBaseMs: 20, timeoutMs: 10_000 },
    actor,
  };
}

const sentSince = (from: number) => loopback.server.requests.length - from;

describe('a budget over the whole loop', () => {
  it('a budget of exactly what the loop sends: the loop runs to its end, within it', async () => {
    const input = await loopInput('whole');
    const est = await estimateLoopSpend(input);
    expect(est.stages.rewriter).toBe(1);
    const from = loopback.server.requests.length;
    const record = await optimise({ ...input, budget: { requests: est.paidRequests } });
    expect(record.stage).toBe('confirmed');
    expect(sentSince(from)).toBe(est.paidRequests);
  }, 120_000);

  it('a budget short of the confirmation: the confirmation stops at its share, the record fails saying so, nothing past the budget is sent', async () => {
    const input = await loopInput('short');
    const est = await estimateLoopSpend(input);
    const budget = est.stages.rewriter + est.stages.select + Math.floor(est.stages.confirm / 2);
    const from = loopback.server.requests.length;
    const failed = await optimise({ ...input, budget: { requests: budget } }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(OptimiseFailed);
    const record = (failed as OptimiseFailed).record;
    expect(record.stage).toBe('failed');
    expect(record.winners?.length).toBe(1);
    expect(record.error).toMatch(/^the confirm run r_\S+ ended cancelled: budget reached: \d+ requests$/);
    expect(sentSince(from)).toBe(budget);
  }, 120_000);

  it("a budget the rewriter's request uses up: refused naming the budget, no run started", async () => {
    const input = await loopInput('none');
    const from = loopback.server.requests.length;
    const refused = await optimise({ ...input, budget: { requests: 1 } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OptimiseInputError);
    expect((refused as OptimiseInputError).field).toBe('budget');
    expect((refused as Error).message).toMatch(/budget reached: the rewriter's request used 1 of 1 requests; nothing is left for the select run/);
    expect(sentSince(from)).toBe(1);
    // a budget that is no budget is named too
    const bad = await optimise({ ...input, budget: { requests: 0 } }).catch((e: unknown) => e);
    expect((bad as OptimiseInputError).field).toBe('budget');
  }, 120_000);
});
