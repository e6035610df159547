import type { Case, Study } from '../schema/experiment';
import { trialStatusOf } from '../schema/verdict';
import { buildRequest, findStudyCase, naturalDefinitions, resolveSent } from '../design/matrix';
import { toScoringTool, vendorSearchOf } from '../design/catalog';
import {
  attemptIdOf,
  claimTrial,
  markExhausted,
  recordObservedVisible,
  recordResult,
  recordTransportError,
  renewLease,
  unclaimTrial,
  type ClaimedTrial,
  type SendingTrial,
} from '../db/trials';
import { loadAttemptResult, loadTurns, setAttemptTurn, storeTurn } from '../db/turns';
import { setRunStatus } from './run-events';
import { haltKey, haltRun } from '../queue/halt';
import type { ScoreTrialInput } from '../scoring/score';
import { kindModule } from '../studies/registry';
import { describeProviderFailure } from '../providers/precheck';
import type { AdapterResult, ProviderRequest, ProviderTransportError } from '../schema/request';
import { converse } from '../studies/conversation';
import { noteUnsent, runContext, type RunContext } from './context';
import { retryDelayMs } from './retry';
import { countAnswerWithinBudget, markSendingWithinBudget } from './budget';
import type { Slot, Slots } from './slot';

/** How soon a trial comes back when this process could not claim it because its heartbeat is not renewed. */
const NOT_ALIVE_RETRY_MS = 1000;
/** How soon a trial comes back when this process cannot send to its run's base URL (another worker may). */
const UNSENT_RETRY_MS = 2000;

/** What the queue should do with the job that delivered this trial. */
export type TrialOutcome =
  | { kind: 'done'; status: 'passed' | 'failed' | 'untested' | 'unresolved' }
  | { kind: 'retry'; atMs: number }
  | { kind: 'dropped'; reason: string }
  | { kind: 'stopped'; reason: string };

export interface TrialWorkerOptions {
  owner: string;
  /** False while this process cannot renew its heartbeat: it claims nothing then (it may be presumed dead). */
  alive?: () => boolean;
  /** Rate limiter: a slot is taken once the trial is claimed and given back as soon as the answer is in. */
  slots?: Slots;
  /** Test hook: called after the request went out and before its result is recorded. */
  afterSend?: (trialId: string) => Promise<void>;
  /** Test hook: called once the attempt is booked as sending, just before the request leaves. */
  beforeSend?: (trialId: string, attemptN: number) => Promise<void>;
  /** Test hook (conversations of several turns): called after a turn that does not end the conversation was stored. */
  afterTurn?: (trialId: string, turn: number) => Promise<void>;
  /** Batch mode (lib/runner/batch.ts): the answer the provider's batch gave for this attempt; nothing is sent. */
  answered?: AdapterResult;
}

/** Lease of a sent request: long enough for one request at the run's timeout, short enough to recover a dead worker quickly. */
export function leaseMsFor(timeoutMs: number): number {
  return timeoutMs + 5000;
}

/**
 * How long a claimed trial may wait for a slot before its lease is renewed. A claim's lease covers this wait
 * plus a request, so whenever the slot comes the request fits in the lease and no other worker can take the
 * trial while it is out.
 */
export function slotWaitMsFor(timeoutMs: number): number {
  return Math.min(5000, Math.max(1000, timeoutMs));
}

export async function processTrial(job: { trialId: string; runId: string }, opts: TrialWorkerOptions): Promise<TrialOutcome> {
  const ctx = await runContext(job.runId);
  // a batch-mode run's trials go out in provider batches (lib/runner/batch.ts), never one by one
  if (ctx.settings.batch) return { kind: 'dropped', reason: 'batch mode: the trial is sent in a provider batch' };
  // this process cannot send to the run's base URL (docs/runs.md): nothing is claimed or sent; the job comes
  // back later, and a worker configured for that base URL sends it
  if (ctx.unsent !== null) {
    await noteUnsent(ctx);
    return { kind: 'retry', atMs: Date.now() + UNSENT_RETRY_MS };
  }
  const { timeoutMs } = ctx.settings;
  const waitMs = slotWaitMsFor(timeoutMs);
  if (opts.alive && !opts.alive()) return { kind: 'retry', atMs: Date.now() + NOT_ALIVE_RETRY_MS };
  // Claim first, then wait for a slot: the claim (and the recording afterwards) overlap other trials'
  // requests instead of holding a slot, so the provider sees the full concurrency the run allows.
  const claim = await claimTrial(job.trialId, opts.owner, waitMs + leaseMsFor(timeoutMs), ctx.attemptBudget);
  if (!('leaseToken' in claim)) {
    switch (claim.reason) {
      case 'not-before':
        return { kind: 'retry', atMs: claim.notBefore.getTime() };
      case 'exhausted':
        await markExhausted(job.trialId);
        return { kind: 'done', status: 'unresolved' };
      case 'leased':
        // Held by another worker: come back when its lease ends. If the holder finishes, the trial is
        // final by then and this delivery is dropped; if it died, this one takes over.
        return { kind: 'retry', atMs: claim.leaseExpiresAt.getTime() + 50 };
      case 'run-not-running':
        return { kind: 'dropped', reason: `run is ${claim.runStatus}` };
      default:
        return { kind: 'dropped', reason: claim.reason };
    }
  }
  const prep = prepared(ctx, claim);
  let slot: Slot | undefined;
  if (opts.slots) {
    for (;;) {
      const got = await opts.slots.acquire(ctx, { haltKey: haltKey(ctx.runId), deadline: Date.now() + waitMs });
      if (got === 'halted') {
        // paused, cancelled or stopped while waiting: nothing was sent, so the claim is given back
        await unclaimTrial(claim);
        return { kind: 'dropped', reason: 'run halted before the request was sent' };
      }
      if (got !== 'timeout') {
        slot = got;
        break;
      }
      if (!(await renewLease(claim, waitMs + leaseMsFor(timeoutMs)))) return { kind: 'dropped', reason: 'lease lost while waiting for a slot' };
    }
  }
  try {
    // Booked as sent now, and only now: a claim that never got this far is given back uncounted.
    const sending = await markSendingWithinBudget(ctx, claim, leaseMsFor(timeoutMs));
    if (!sending) {
      // refused: a newer claim holds the trial, or this process's heartbeat lapsed meanwhile. In the second case
      // the claim is still ours by its token: given back (nothing was sent), the trial comes back shortly
      if (await unclaimTrial(claim)) return { kind: 'retry', atMs: Date.now() + NOT_ALIVE_RETRY_MS };
      return { kind: 'dropped', reason: 'fenced out before sending: a newer claim holds the trial' };
    }
    if ('budgetReached' in sending) return { kind: 'stopped', reason: sending.budgetReached };
    return await send(ctx, sending, prep, opts, slot);
  } finally {
    await slot?.release('error'); // no-op when already released with the real outcome
  }
}

/**
 * Batch mode: an attempt the provider's batch answered goes through the very path of an answer sent alone —
 * scored by the study's kind, recorded fenced on the claim, a transport failure retried or closed by the run's
 * policy. Single-turn studies only (createRun refuses batch mode for conversations).
 */
export function settleAnswered(ctx: RunContext, claim: SendingTrial, result: AdapterResult, owner: string): Promise<TrialOutcome> {
  return send(ctx, claim, prepared(ctx, claim), { owner, answered: result }, undefined);
}

/**
 * A trial's conversation — every kind's: a single-answer kind is a conversation with a turn limit of 1 —
 * trial → turns → attempts. The stored turns (kinds whose calls run: task) are loaded and their calls
 * replayed on a fresh fixture back-end (deterministic, in-process: nothing is written twice), then the
 * conversation goes on from the last stored turn. Each such turn is stored as soon as its answer is in and
 * its calls have run, fenced on the claim; the next turn's request is a new attempt of the same claim. The
 * final turn is scored on the conversation's final state and recorded, fenced, with the attempt that
 * answered it. A transport error ends this pass: the trial goes back to the queue and the same turn is sent
 * again as a new attempt; once a turn has failed `maxAttempts` times the trial is unresolved.
 */
async function send(ctx: RunContext, first: SendingTrial, prep: Prepared, opts: TrialWorkerOptions, slot: Slot | undefined): Promise<TrialOutcome> {
  // the claim's current attempt: the first was marked sending by processTrial, each later turn marks its own
  let claim = first;
  const conversation = kindModule(prep.study.kind).start({
    spec: ctx.spec,
    study: prep.study,
    kase: prep.kase,
    condition: claim.condition,
    tools: prep.tools,
    visible: prep.visible,
  });
  // a conversation whose calls are the answer stores no turns: nothing to load
  const stored = conversation.apply ? await loadTurns(claim.id) : [];
  let held = slot;
  let heldReleased = false;
  const release = (outcome: 'ok' | 'throttled' | 'error') => {
    if (held && !heldReleased) void held.release(outcome).catch(() => {});
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
    async send(request, _attemptN, turnN) {
      // the sending mark (lib/db/trials.ts) knows no turns: say which turn this attempt is for before it leaves
      if (turnN > 1) await setAttemptTurn(claim.id, claim.attemptN, turnN);
      if (opts.beforeSend) await opts.beforeSend(claim.id, claim.attemptN);
      const result = opts.answered ?? (await ctx.provider.send(request, { settings: ctx.settings }));
      // a token or cost budget counts the answer now, before its slot is handed on: the answer that crosses the
      // limit stops the run before another request can leave (docs/spend-guards.md); no budget, no statement
      if (ctx.countsUsage && result.usage) await countAnswerWithinBudget(ctx, result.usage);
      // a configuration error (4xx) repeats for every trial: the run is halted before this slot is handed on, so a
      // claim waiting for it is given back instead of sending into the same error (afterTransportError stops the run)
      if (result.outcome !== 'ok' && result.error.kind === 'http_4xx') await haltRun(ctx.runId);
      // not awaited: the slot is freed while the result is being recorded
      release(result.outcome === 'ok' ? 'ok' : result.error.kind === 'http_429' ? 'throttled' : 'error');
      if (opts.afterSend) await opts.afterSend(claim.id);
      return result;
    },
    async store(turn, result, final) {
      const storesTurns = conversation.apply !== undefined;
      if (!final) {
        const ok = await storeTurn(claim, turn, result);
        if (ok && opts.afterTurn) await opts.afterTurn(claim.id, turn.n);
        return ok;
      }
      if (storesTurns && !(await storeTurn(claim, turn, result, final.details))) return false;
      status = trialStatusOf(final.verdicts);
      // vendor tool search: the trial's `visible` is what the provider returned (stored before the result makes it final)
      if (result && final.visible && !(await recordObservedVisible(claim, final.visible))) return false;
      if (result) return recordResult({ ...claim, attemptN: turn.attemptN }, result, final.observation, final.verdicts, final.checkpoints, status);
      // The final turn was stored but the trial not scored (the worker died in between), and this claim has
      // marked an attempt as sending that will never leave: it is completed with a copy of the stored final
      // exchange (nothing is sent again), and the result is recorded under it.
      await setAttemptTurn(claim.id, claim.attemptN, turn.n);
      return recordResult(claim, await loadAttemptResult(claim.id, turn.attemptN, turn.observation), final.observation, final.verdicts, final.checkpoints, status);
    },
  });
  release('error'); // no-op when already released with the real outcome
  if (outcome.kind === 'finished') return { kind: 'done', status };
  if (outcome.kind === 'fenced') return { kind: 'dropped', reason: 'fenced out: a newer claim holds the trial' };
  // a transport error: the attempt (already marked with its turn) counts against the turn being asked
  const lastAnswered = outcome.turns[outcome.turns.length - 1]?.attemptN ?? 0;
  const failuresThisTurn = outcome.attemptN - lastAnswered;
  return afterTransportError(ctx, claim, outcome.result, failuresThisTurn >= ctx.settings.maxAttempts);
}

/**
 * A transport error's consequence: the run stops on a 4xx (configuration), the trial is unresolved once
 * `exhausted`, otherwise it is retried later under a new attempt.
 */
export async function afterTransportError(ctx: RunContext, claim: SendingTrial, result: ProviderTransportError, exhausted: boolean): Promise<TrialOutcome> {
  const kind = result.error.kind;
  if (kind === 'http_4xx') {
    // A request or configuration error repeats for every trial: stop the run instead of burning the matrix.
    await recordTransportError(claim, result, { kind: 'hold' });
    const reason = describeProviderFailure(result, ctx.settings.provider);
    await setRunStatus(claim.runId, ['running'], 'failed', `stopped: ${reason}`);
    await haltRun(claim.runId); // trials claimed and waiting for a slot are not sent
    return { kind: 'stopped', reason };
  }
  if (exhausted) {
    await recordTransportError(claim, result, { kind: 'unresolved' });
    return { kind: 'done', status: 'unresolved' };
  }
  const atMs = Date.now() + retryDelayMs(claim.attemptN, result.error.retryAfterMs, ctx.settings.retryBaseMs);
  const won = await recordTransportError(claim, result, { kind: 'retry', notBefore: new Date(atMs) });
  return won ? { kind: 'retry', atMs } : { kind: 'dropped', reason: 'fenced out' };
}

export interface Prepared {
  study: Study;
  kase: Case;
  request: ProviderRequest;
  tools: ScoreTrialInput['tools'];
  visible: ScoreTrialInput['visible'];
}

// Trials that differ only in replicate send the same request and are scored against the same checks:
// built once per run context (bounded, as a run may have as many distinct trials as it has trials).
const PREPARED_MAX = 1024;
const preparedCache = new WeakMap<RunContext, Map<string, Prepared>>();

export function prepared(ctx: RunContext, claim: ClaimedTrial): Prepared {
  let byKey = preparedCache.get(ctx);
  if (!byKey) {
    byKey = new Map();
    preparedCache.set(ctx, byKey);
  }
  const key = JSON.stringify([claim.study, claim.caseId, claim.condition, claim.scenario, claim.locale, claim.order, claim.discovery]);
  let p = byKey.get(key);
  if (!p) {
    p = prepare(ctx, claim);
    byKey.set(key, p);
    if (byKey.size > PREPARED_MAX) byKey.delete(byKey.keys().next().value as string);
  }
  return p;
}

function prepare(ctx: RunContext, claim: ClaimedTrial): Prepared {
  const study = ctx.studies.get(claim.study);
  if (!study) throw new Error(`run ${claim.runId}: unknown study ${claim.study}`);
  const condition = study.conditions.find((c) => c.id === claim.condition);
  if (!condition) throw new Error(`run ${claim.runId}: unknown condition ${claim.condition}`);
  const defs = naturalDefinitions(ctx.spec, condition, claim.scenario, claim.locale);
  // the names stored with the trial: the condition's tools, and catalog distractors for a study with a catalog
  const sent = resolveSent(study, defs, claim.scenario, claim.order);
  const request = buildRequest(ctx.spec, { study: claim.study, caseId: claim.caseId, condition: claim.condition, names: claim.order, discovery: claim.discovery });
  const { kase } = findStudyCase(ctx.spec, claim.study, claim.caseId);
  const effects = ctx.effects.get(claim.scenario);
  return {
    study,
    kase,
    request,
    // a vendor's tool search: nothing is known before sending (the answer's observed list decides)
    visible: vendorSearchOf(study, claim.discovery) ? 'unknown' : (claim.visible ?? undefined),
    tools: sent.map((t) => {
      const { description: _, ...tool } = toScoringTool(t, effects);
      return tool;
    }),
  };
}
