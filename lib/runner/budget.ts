import { cancelQueuedTrials, markSending, unclaimTrial, type ClaimedTrial, type SendingTrial } from '../db/trials';
import { countBudgetedUsage, releaseBudgetedRequest, reserveBudgetedRequest } from '../db/budget';
import type { TokenUsage } from '../schema/request';
import { setRunStatus } from './run-events';
import { haltRun } from '../queue/halt';
import type { RunContext } from './context';

/**
 * The sending mark of a claim, within the run's budget (docs/spend-guards.md). A run without a budget goes
 * straight to markSending. A budgeted run first reserves the request on the run row (never more than the
 * budget); once the budget is reached the run is stopped — `cancelled` with "budget reached: …" as its
 * reason, its queued trials cancelled unsent, this claim given back uncounted — and nothing is sent. A
 * reservation whose mark is refused (fenced out) is given back.
 */
export async function markSendingWithinBudget(ctx: RunContext, claim: ClaimedTrial, leaseMs: number): Promise<SendingTrial | null | { budgetReached: string }> {
  if (!ctx.budgeted) return markSending(claim, leaseMs);
  const reserved = await reserveBudgetedRequest(ctx.runId);
  if (!reserved.ok) {
    await stopForBudget(ctx.runId, reserved.reason);
    await unclaimTrial(claim);
    return { budgetReached: reserved.reason };
  }
  const sending = await markSending(claim, leaseMs);
  if (!sending) await releaseBudgetedRequest(ctx.runId);
  return sending;
}

/**
 * An answer of a run whose budget limits tokens or cost, counted as it arrives and before its slot is handed
 * on (docs/spend-guards.md): the answer that crosses the limit stops the run there and then, so no request
 * is sent after it — the reservations that follow see the counters already past the limit. Returns the
 * reason when it did.
 */
export async function countAnswerWithinBudget(ctx: RunContext, usage: TokenUsage): Promise<string | null> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  if (input === 0 && output === 0) return null;
  const reached = await countBudgetedUsage(ctx.runId, input, output);
  if (reached) await stopForBudget(ctx.runId, reached);
  return reached;
}

/** Stop a running run whose budget is reached (the first worker to see it wins; the others find it stopped). */
export async function stopForBudget(runId: string, reason: string): Promise<void> {
  if (!(await setRunStatus(runId, ['running'], 'cancelled', reason))) return;
  await haltRun(runId); // claims waiting for a slot are given back unsent
  await cancelQueuedTrials(runId);
}
