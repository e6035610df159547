import { env } from '../env';
import { log } from '../log/logger';
import {
  batchModeRunIds,
  claimableTrialIds,
  claimBatch,
  createBatch,
  finishBatch,
  markItemsRecorded,
  openBatchItems,
  orphanedBatches,
  recordPoll,
  recordSubmitted,
  releaseUnsubmitted,
  renewBatchTrials,
  type HeldBatch,
  type OpenBatchItem,
} from '../db/batches';
import { attemptIdOf, claimTrial, markExhausted, unclaimTrial, type SendingTrial } from '../db/trials';
import { getRun } from '../db/runs';
import { batchCustomId, batchVendorOf, ENDED_BATCH_STATES, unansweredResult, type BatchConnection, type BatchVendor, type ProviderBatchState } from '../providers/batch';
import { resolveEndpoint } from '../providers/configured';
import { markSendingWithinBudget } from './budget';
import { noteUnsent, runContext, type RunContext } from './context';
import { setRunStatus } from './run-events';
import { prepared, settleAnswered } from './trial';

// Batch mode's worker loop (docs/batch.md › Exactly once). Beside the trials queue, every worker runs this
// loop; each pass, on the database clock and under the worker's heartbeat:
//  1. takes over the batches nobody is polling (their holder's heartbeat lapsed or its lease ran out) — one
//     still `submitting` may or may not have reached the provider: it is never sent again but released, so its
//     trials' sending marks become `lost` and the run's policy retries or closes them;
//  2. for every running batch-mode run, claims the trials that can be claimed (as a trial job would), books
//     their attempts sent, hands them to a new batch (createBatch), submits it through the vendor's SDK and
//     writes the provider's id (recordSubmitted): from then on the batch is only polled;
//  3. polls each batch it holds (recordPoll renews the batch's lease, renewBatchTrials its trials' leases);
//     once the batch has ended, every result line goes through the engine's own path (settleAnswered: scored
//     and recorded fenced on the trial's lease token, a failed or unanswered item retried in a later batch or
//     closed by the run's policy), the items are marked recorded and the batch finished.

/** How long a worker holds a batch between polls before another may take it over (its heartbeat lapsing is quicker). */
const HOLD_MS = 10 * 60_000;
/** A batch's trials are held as long as the provider may take (24 h) and some more; renewed with each poll. */
const TRIAL_LEASE_MS = 26 * 3_600_000;
/** A claim's lease while its trial is booked and handed to a batch (a few statements). */
const CLAIM_LEASE_MS = 60_000;
/** New batches per run per pass: at most this many × TCLAB_BATCH_MAX_ITEMS trials go out in one pass. */
const BATCHES_PER_PASS = 20;

export interface BatchLoopOptions {
  /** The worker's holder id (its heartbeat covers the batches it holds). */
  owner: string;
  /** False while the worker cannot renew its heartbeat: it takes nothing new then. */
  alive: () => boolean;
  /** A run's trials were recorded or released: check whether it is done. */
  touched: (runId: string) => void;
  everyMs?: number;
  maxItems?: number;
}

export interface BatchLoop {
  /** Resolves after the first pass. */
  ready: Promise<void>;
  close(): Promise<void>;
}

function connectionOf(ctx: RunContext): BatchConnection {
  const e = resolveEndpoint(ctx.provider.descriptor, ctx.settings);
  if (!e.ok) throw new Error(e.message);
  return { baseUrl: e.baseUrl, apiKey: e.key };
}

function vendorOf(ctx: RunContext): BatchVendor {
  const v = batchVendorOf(ctx.settings.provider);
  if (!v) throw new Error(`run ${ctx.runId}: provider ${ctx.settings.provider} has no batch API`);
  return v;
}

/** The claim an open item stands for: the trial under the lease token it was handed to the batch with. */
function claimOf(i: OpenBatchItem): SendingTrial {
  return {
    ...i.trial,
    leaseToken: i.leaseToken,
    attemptN: i.attemptN,
    attemptId: attemptIdOf(i.trialId, i.attemptN),
    lostAttempts: 0,
    claimedAtMs: i.sentAtMs,
    sentAtMs: i.sentAtMs,
  };
}

/** The HTTP status of an SDK error, if the provider answered one. */
function statusOf(e: unknown): number | null {
  const s = (e as { status?: unknown; code?: unknown } | null)?.status ?? (e as { code?: unknown } | null)?.code;
  return typeof s === 'number' ? s : null;
}

/** What one process's batch loop keeps between passes. */
interface LoopState {
  opts: BatchLoopOptions;
  maxItems: number;
  held: Map<string, HeldBatch>;
  /** Batches of cancelled runs this process has asked the provider to cancel (asked once each). */
  cancelAsked: Set<string>;
  closed: boolean;
}

export function startBatchLoop(opts: BatchLoopOptions): BatchLoop {
  const everyMs = opts.everyMs ?? env().TCLAB_BATCH_POLL_MS;
  const st: LoopState = { opts, maxItems: opts.maxItems ?? env().TCLAB_BATCH_MAX_ITEMS, held: new Map(), cancelAsked: new Set(), closed: false };
  let running: Promise<void> | null = null;
  // one pass at a time: a pass slower than the interval is not overlapped by the next
  const tick = (): Promise<void> => (running ??= pass(st).finally(() => (running = null)));
  const ready = tick();
  const timer = setInterval(() => void tick(), everyMs);
  return {
    ready,
    async close() {
      st.closed = true;
      clearInterval(timer);
      await running;
    },
  };
}

/** One pass: take over what nobody polls, send new batches of every batch-mode run, drive each batch held. */
async function pass(st: LoopState): Promise<void> {
  if (st.closed || !st.opts.alive()) return;
  try {
    await takeOver(st);
    for (const runId of await batchModeRunIds(null)) {
      const ctx = await runContext(runId);
      for (let i = 0; i < BATCHES_PER_PASS && !st.closed; i++) if (!(await submitNew(st, ctx))) break;
    }
  } catch (e) {
    log('warn', 'batch: a pass failed', { err: (e as Error).message });
  }
  for (const b of [...st.held.values()]) {
    if (st.closed) break;
    try {
      await drive(st, b);
    } catch (e) {
      log('warn', 'batch: polling failed; tried again next pass', { batchId: b.id, err: (e as Error).message });
    }
  }
}

/** Takes over the batches nobody polls. */
async function takeOver(st: LoopState): Promise<void> {
  for (const id of await orphanedBatches(null)) {
    if (st.held.has(id)) continue;
    const b = await claimBatch(id, st.opts.owner, HOLD_MS);
    if (!b) continue;
    if (b.state === 'submitting') {
      // its holder died between the send and recordSubmitted: never sent again
      const released = await releaseUnsubmitted(b);
      log('warn', 'batch: released a batch its holder may or may not have submitted', { batchId: b.id, runId: b.runId, trials: released.length });
      st.opts.touched(b.runId);
      continue;
    }
    log('info', 'batch: taken over', { batchId: b.id, runId: b.runId, providerBatchId: b.providerBatchId });
    st.held.set(b.id, b);
  }
}

/** One new batch of the run's claimable trials; false when there was nothing (more) to send. */
async function submitNew(st: LoopState, ctx: RunContext): Promise<boolean> {
  // this process cannot send to the run's base URL (docs/runs.md): its trials wait for one that can
  if (ctx.unsent !== null) {
    await noteUnsent(ctx);
    return false;
  }
  const { opts, maxItems } = st;
  const ids = await claimableTrialIds(ctx.runId, maxItems);
  if (ids.length === 0) return false;
  const vendor = vendorOf(ctx);
  const { sending, stop } = await claimAndBook(st, ctx, ids);
  if (sending.length === 0) return false;
  const byId = new Map(sending.map((s) => [s.id, s]));
  const made = await createBatch({
    runId: ctx.runId,
    provider: ctx.settings.provider,
    holder: opts.owner,
    leaseMs: HOLD_MS,
    batchLeaseMs: TRIAL_LEASE_MS,
    items: sending.map((s) => ({ trialId: s.id, attemptN: s.attemptN, leaseToken: s.leaseToken, customId: batchCustomId(s.id, s.attemptN) })),
  });
  if (!made) return false;
  const items = made.items.map((i) => ({ customId: i.customId, request: prepared(ctx, byId.get(i.trialId)!).request }));
  let providerBatchId: string;
  try {
    providerBatchId = await vendor.submit(connectionOf(ctx), ctx.settings, items);
  } catch (e) {
    await submissionFailed(st, ctx, made.batch, e);
    return false;
  }
  if (!(await recordSubmitted(made.batch, providerBatchId))) {
    log('warn', 'batch: fenced out before its provider id was written', { batchId: made.batch.id });
    return false;
  }
  st.held.set(made.batch.id, { ...made.batch, providerBatchId, state: 'accepted' });
  log('info', 'batch: submitted', { runId: ctx.runId, batchId: made.batch.id, providerBatchId, items: items.length });
  return !stop && ids.length >= maxItems;
}

/** Claims the trials (as a trial job would) and books their attempts sent within the run's budget; `stop` once the budget is reached. */
async function claimAndBook(st: LoopState, ctx: RunContext, ids: string[]): Promise<{ sending: SendingTrial[]; stop: boolean }> {
  const claims = await Promise.all(ids.map((id) => claimTrial(id, st.opts.owner, CLAIM_LEASE_MS, ctx.attemptBudget)));
  const sending: SendingTrial[] = [];
  let stop = false;
  await Promise.all(
    claims.map(async (c, k) => {
      if (!('leaseToken' in c)) {
        if (c.reason === 'exhausted' && (await markExhausted(ids[k]))) st.opts.touched(ctx.runId);
        return;
      }
      const s = await markSendingWithinBudget(ctx, c, CLAIM_LEASE_MS);
      if (s === null) await unclaimTrial(c);
      else if ('budgetReached' in s) stop = true;
      else sending.push(s);
    }),
  );
  return { sending, stop };
}

/** A batch not known to have reached the provider: released like an orphan (its trials' marks become `lost`). */
async function submissionFailed(st: LoopState, ctx: RunContext, batch: HeldBatch, e: unknown): Promise<void> {
  await releaseUnsubmitted(batch);
  st.opts.touched(ctx.runId);
  const status = statusOf(e);
  const message = (e as Error).message;
  if (status !== null && status >= 400 && status < 500 && status !== 429) {
    // a request or configuration error repeats for every batch: the run stops, as it does one by one
    await setRunStatus(ctx.runId, ['running'], 'failed', `stopped: the provider refused the batch (HTTP ${status}): ${message}`);
  } else log('warn', 'batch: submission failed; its trials are retried by the run’s policy', { runId: ctx.runId, err: message });
}

/** Polls a held batch; once it has ended, records every item and finishes it. */
async function drive(st: LoopState, b: HeldBatch): Promise<void> {
  const ctx = await runContext(b.runId);
  const vendor = vendorOf(ctx);
  const conn = connectionOf(ctx);
  const providerBatchId = b.providerBatchId!;
  if (!st.cancelAsked.has(b.id) && (await getRun(b.runId))?.status === 'cancelled') await cancelWithItsRun(st, b, vendor, conn);
  const poll = await vendor.poll(conn, providerBatchId);
  if (!(await recordPoll(b, poll, HOLD_MS))) {
    st.held.delete(b.id); // another holder took it over
    return;
  }
  await renewBatchTrials(b, TRIAL_LEASE_MS);
  if (!ENDED_BATCH_STATES.includes(poll.state)) return;
  await recordEnded(st, b, ctx, vendor, conn, poll.state);
}

/**
 * The run was cancelled: the provider stops the batch (what it had answered comes back and is recorded, the
 * rest ends unanswered and, the run being cancelled, its trials cancelled) instead of running, and billing,
 * the rest of it for up to 24 h. Asked once per batch.
 */
async function cancelWithItsRun(st: LoopState, b: HeldBatch, vendor: BatchVendor, conn: BatchConnection): Promise<void> {
  const providerBatchId = b.providerBatchId!;
  st.cancelAsked.add(b.id);
  try {
    await vendor.cancel(conn, providerBatchId);
    log('info', 'batch: cancelled at the provider with its run', { runId: b.runId, batchId: b.id, providerBatchId });
  } catch (e) {
    log('warn', 'batch: the provider did not cancel the batch; polled to its end', { batchId: b.id, err: (e as Error).message });
  }
}

/** An ended batch: every open item through the engine's own path (settleAnswered), marked recorded, the batch finished. */
async function recordEnded(st: LoopState, b: HeldBatch, ctx: RunContext, vendor: BatchVendor, conn: BatchConnection, state: ProviderBatchState): Promise<void> {
  const open = await openBatchItems(b.id);
  const claims = open.map(claimOf);
  const requests = claims.map((c) => prepared(ctx, c).request);
  const results = await vendor.results(
    conn,
    b.providerBatchId!,
    open.map((i, k) => ({ customId: i.customId, request: requests[k] })),
    ctx.settings,
  );
  // the item the results do not name had no answer: unanswered, as an expired item
  const outs = await Promise.allSettled(
    open.map((i, k) => settleAnswered(ctx, claims[k], results.get(i.customId) ?? unansweredResult(vendor.body(requests[k], ctx.settings), state), st.opts.owner)),
  );
  const done = open.filter((_, k) => outs[k].status === 'fulfilled').map((i) => i.customId);
  await markItemsRecorded(b, done);
  st.opts.touched(b.runId);
  const failed = outs.find((o) => o.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason; // the rest is recorded on the next pass
  if (await finishBatch(b)) log('info', 'batch: recorded', { runId: b.runId, batchId: b.id, state, items: open.length });
  st.held.delete(b.id);
}
