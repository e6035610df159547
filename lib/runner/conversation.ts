import { haltRun } from '../queue/halt';
import { attemptIdOf, recordResult, renewLease, type SendingTrial } from '../db/trials';
import { markSendingWithinBudget } from './budget';
import { haltKey } from '../queue/halt';
import { loadAttemptResult, loadTurns, setAttemptTurn, storeTurn } from '../db/turns';
import { trialStatusOf } from '../schema/verdict';
import { converse } from '../studies/conversation';
import { kindModule } from '../studies/registry';
import type { RunContext } from './context';
import type { Slot } from './slot';
import { afterTransportError, leaseMsFor, slotWaitMsFor, type Prepared, type TrialOutcome, type TrialWorkerOptions } from './trial';

/**
 * A conversation trial (task): trial → turns → attempts. The stored turns are loaded and their calls
 * replayed on a fresh fixture back-end (deterministic, in-process: nothing is written twice), then the
 * conversation goes on from the last stored turn. Each turn is stored as soon as its answer is in and its
 * calls have run, fenced on the claim; the next turn's request is a new attempt of the same claim. A
 * transport error ends this pass: the trial goes back to the queue and the same turn is sent again as a
 * new attempt; once a turn has failed `maxAttempts` times the trial is unresolved.
 */
export async function sendConversation(ctx: RunContext, first: SendingTrial, opts: TrialWorkerOptions, slot: Slot | undefined, prep: Prepared): Promise<TrialOutcome> {
  const mod = kindModule(prep.study.kind);
  if (mod.turns !== 'conversation') throw new Error(`study kind ${prep.study.kind} is not a conversation`);
  // the claim's current attempt: the first was marked sending by processTrial, each later turn marks its own
  let claim = first;
  const conversation = mod.start({ spec: ctx.spec, study: prep.study, kase: prep.kase, condition: claim.condition, tools: prep.tools });
  const stored = await loadTurns(claim.id);
  let held = slot;
  let heldReleased = false;
  const release = (ok: boolean) => {
    if (held && !heldReleased) void held.release(ok ? 'ok' : 'error').catch(() => {});
    heldReleased = true;
  };
  let status: 'passed' | 'failed' | 'untested' = 'untested';
  const outcome = await converse({
    conversation,
    request: prep.request,
    stored,
    firstAttemptN: claim.attemptN,
    async nextAttemptN() {
      // each turn's request takes its own rate-limit slot; a run paused or stopped meanwhile ends this pass
      // (the trial is resumed from its stored turns when it is claimed again)
      while (opts.slots) {
        const got = await opts.slots.acquire(ctx, { haltKey: haltKey(ctx.runId), deadline: Date.now() + slotWaitMsFor(ctx.settings.timeoutMs) });
        if (got === 'halted') return null;
        if (got !== 'timeout') {
          held = got;
          heldReleased = false;
          break;
        }
        if (!(await renewLease(claim, slotWaitMsFor(ctx.settings.timeoutMs) + leaseMsFor(ctx.settings.timeoutMs)))) return null;
      }
      // a budgeted run reserves each turn's request too; once its budget is reached the pass ends unsent
      const next = await markSendingWithinBudget(
        ctx,
        { ...claim, attemptN: claim.attemptN + 1, attemptId: attemptIdOf(claim.id, claim.attemptN + 1) },
        leaseMsFor(ctx.settings.timeoutMs),
      );
      if (!next || 'budgetReached' in next) return null;
      claim = next;
      return claim.attemptN;
    },
    async send(request) {
      // the sending mark (lib/db/trials.ts) knows no turns: say which turn this attempt is for before it leaves
      const turnN = (request.history?.length ?? 0) + 1;
      if (turnN > 1) await setAttemptTurn(claim.id, claim.attemptN, turnN);
      if (opts.beforeSend) await opts.beforeSend(claim.id, claim.attemptN);
      const result = await ctx.provider.send(request, { settings: ctx.settings });
      // a configuration error stops the run: halted before the slot is handed on (as lib/runner/trial.ts does)
      if (result.outcome !== 'ok' && result.error.kind === 'http_4xx') await haltRun(ctx.runId);
      release(result.outcome === 'ok');
      if (opts.afterSend) await opts.afterSend(claim.id);
      return result;
    },
    async store(turn, result, final) {
      if (!final) {
        const ok = await storeTurn(claim, turn, result);
        if (ok && opts.afterTurn) await opts.afterTurn(claim.id, turn.n);
        return ok;
      }
      if (!(await storeTurn(claim, turn, result, final.details))) return false;
      status = trialStatusOf(final.verdicts);
      if (result) return recordResult({ ...claim, attemptN: turn.attemptN }, result, final.observation, final.verdicts, final.checkpoints, status);
      // The final turn was stored but the trial not scored (the worker died in between), and this claim has
      // marked an attempt as sending that will never leave: it is completed with a copy of the stored final
      // exchange (nothing is sent again), and the result is recorded under it.
      await setAttemptTurn(claim.id, claim.attemptN, turn.n);
      return recordResult(claim, await loadAttemptResult(claim.id, turn.attemptN, turn.observation), final.observation, final.verdicts, final.checkpoints, status);
    },
  });
  release(false);
  if (outcome.kind === 'finished') return { kind: 'done', status };
  if (outcome.kind === 'fenced') return { kind: 'dropped', reason: 'fenced out: a newer claim holds the trial' };
  // a transport error: the attempt (already marked with its turn) counts against the turn being asked
  const lastAnswered = outcome.turns[outcome.turns.length - 1]?.attemptN ?? 0;
  const failuresThisTurn = outcome.attemptN - lastAnswered;
  return afterTransportError(ctx, claim, outcome.result, failuresThisTurn >= ctx.settings.maxAttempts);
}
