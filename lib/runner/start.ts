import { MAX_RUN_TARGETS, RunSettings, type RunBudgetInput, type RunSettingsInput, type RunTarget } from '../schema/run';
import { transportFailureOf } from '../schema/request';
import type { RunStatus } from '../schema/run-status';
import { parseOrThrow, SpecError } from '../schema/common';
import { buildRequest, iterateTrials, trialIdOf, type TrialSpec } from '../design/matrix';
import { stoppingOrder } from '../design/stopping-order';
import { vendorSearchesOf } from '../design/catalog';
import { randomInt } from 'node:crypto';
import { matrixSize } from '../schema/bounds';
import { getPriceTable } from './price-table';
import { checkSpendConfirmation, estimateSpend, storedBudget, type SpendConfirmation } from './spend';
import { checkSpecBounds } from '../schema/bounds';
import { specBounds } from '../experiments/parse';
import { getExperiment } from '../db/experiments';
import { getRun, insertRun, newRunGroupId, newRunId, setUnsentReason, type RunRow } from '../db/runs';
import { insertTrials, pendingBatchPages, unsentTrialCount, type NewTrial } from '../db/trials';
import { claimPrecheck, failPrecheck, finishPrecheck, markPrecheckSending, precheckProgress, recordPrecheckAttempt, renewPrecheckLease } from '../db/prechecks';
import { baseUrlRefusal, baseUrlToFix, sendRefusal } from '../providers/configured';
import { redactText } from '../providers/secrets';
import { getProvider, PROVIDER_IDS } from '../providers/registry';
import { batchVendorOf } from '../providers/batch';
import { batchModeRunIds } from '../db/batches';
import { kindModule } from '../studies/registry';
import { DEFAULT_MAX_TURNS } from '../studies/task/spec';
import { describeProviderFailure, destinationText } from '../providers/precheck';
import { observeResult } from '../scoring/answer';
import { enqueueTrials, FIRST_CHUNK_WAIT_MS, pickedUp, type EnqueueOptions } from '../queue/enqueue';
import { TRIALS_PER_JOB, type TrialJob } from '../queue/contracts';
import { primeRunContext, withFixedBaseUrl } from './context';
import { retryDelayMs } from './retry';
import { heartbeat, PROCESS_HOLDER } from './heartbeat';

export interface CreateRunOptions {
  /** The confirmation of a run past the spend thresholds (lib/runner/spend.ts); refused without it. */
  confirm?: SpendConfirmation;
  /** What each run may spend (requests, tokens, estimated cost); the engine stops sending once it is reached. */
  budget?: RunBudgetInput | null;
  /**
   * The runs' ids, one per target (one for a plain run), chosen and stored by the caller before the runs exist
   * (the improve loop: a crash between creating a stage's runs and recording them leaves no run it cannot find).
   */
  ids?: readonly string[];
  /** The group the runs join (the improve loop's confirmation, its runs created again after a crash). */
  groupId?: string | null;
}
import { log } from '../log/logger';

/** Write the run and all its trial rows first; nothing is enqueued until pre-checks pass. */
export async function createRun(experimentId: string, settingsInput: RunSettingsInput | unknown, opts: CreateRunOptions = {}): Promise<RunRow> {
  const [run] = await createRuns(experimentId, (settingsInput ?? {}) as RunSettingsInput, [], opts);
  return run;
}

/**
 * Several provider/model targets at once (docs/compare.md): one run per target — each with its own
 * status, trials and rate limits (the limiter keys on provider and model) — sharing the experiment
 * version and a group id. Every target is checked before anything is stored; `targets[i]` errors name
 * `targets.i`. No target or one makes a plain run (no group). The spend guard counts every target's paid
 * requests together: past the thresholds nothing is stored without `opts.confirm` covering them.
 */
export async function createRuns(experimentId: string, settingsInput: RunSettingsInput, targets: readonly RunTarget[], opts: CreateRunOptions = {}): Promise<RunRow[]> {
  if (targets.length > MAX_RUN_TARGETS) {
    throw new SpecError(`targets: at most ${MAX_RUN_TARGETS} provider/model targets in one run (got ${targets.length})`, [
      { path: 'targets', message: `at most ${MAX_RUN_TARGETS} (got ${targets.length})` },
    ]);
  }
  const seen = new Set<string>();
  const planned: RunSettings[] =
    targets.length === 0
      ? [checkedSettings(settingsInput)]
      : targets.map((t, i) => {
          const key = `${t.provider}:${t.model}`;
          if (seen.has(key)) throw new SpecError(`targets.${i}: ${key} is given twice`, [{ path: `targets.${i}`, message: `${key} is given twice` }]);
          seen.add(key);
          try {
            return checkedSettings({ ...settingsInput, provider: t.provider, model: t.model });
          } catch (e) {
            if (!(e instanceof SpecError)) throw e;
            throw new SpecError(
              `targets.${i} (${key}): ${e.message}`,
              e.issues.map((x) => ({ path: `targets.${i}.${x.path}`, message: x.message })),
            );
          }
        });
  const exp = await getExperiment(experimentId);
  if (!exp) throw new SpecError(`experimentId: no experiment "${experimentId}"`, [{ path: 'experimentId', message: 'not found' }]);
  // a row stored before the bounds (or under a higher limit) is refused here, before anything is expanded
  const over = checkSpecBounds(exp.spec, specBounds());
  if (over.length)
    throw new SpecError(
      `experiment ${experimentId}: ${over.map((i) => i.message).join('; ')}`,
      over.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message })),
    );
  refuseUnspokenToolSearch(exp.spec, planned);
  refuseUnbatchable(exp.spec, planned);
  const prices = await getPriceTable();
  checkSpendConfirmation(await estimateSpend(exp.spec, planned, prices), opts.confirm);
  const budgets = planned.map((s) => storedBudget(opts.budget, s.provider, s.model, prices, { batch: s.batch }));
  if (opts.ids && opts.ids.length !== planned.length)
    throw new SpecError(`ids: one per target (${planned.length}), got ${opts.ids.length}`, [{ path: 'ids', message: `one per target (${planned.length})` }]);
  const groupId = opts.groupId !== undefined ? opts.groupId : planned.length > 1 ? newRunGroupId() : null;
  const total = matrixSize(exp.spec).formal;
  const runs: RunRow[] = [];
  for (const [i, settings] of planned.entries()) {
    const run = await insertRun({ id: opts.ids?.[i] ?? newRunId(), experimentId, settings, totalTrials: total, groupId, budget: budgets[i] });
    if (settings.stopWhenDecided) await insertInStoppingOrder(run.id, exp.spec, settings.stopWhenDecided.seed!);
    // streamed: the matrix is generated lazily and inserted a chunk at a time (bounded memory)
    else await insertTrials(run.id, withTrialIds(run.id, iterateTrials(exp.spec)), TRIALS_PER_JOB);
    runs.push(run);
  }
  return runs;
}

/**
 * Stop when decided: the pairs in a random order fixed now (seeded, the seed stored in the settings), one
 * delivery batch per pair in that order — both members of a pair go out together, and the pairs in order.
 */
async function insertInStoppingOrder(runId: string, spec: Parameters<typeof iterateTrials>[0], seed: number): Promise<void> {
  const pairs = stoppingOrder(iterateTrials(spec), seed);
  const pairOf = pairs.flatMap((p, i) => p.map(() => i));
  await insertTrials(runId, withTrialIds(runId, pairs.flat()), TRIALS_PER_JOB, undefined, (index) => pairOf[index]);
}

/**
 * A `vendor-search` discovery variant needs a provider that speaks its tool search (descriptor.toolSearch):
 * otherwise the run is refused before anything is stored, naming the field.
 */
function refuseUnspokenToolSearch(spec: Parameters<typeof vendorSearchesOf>[0], planned: readonly RunSettings[]): void {
  const issues: { path: string; message: string }[] = [];
  for (const settings of planned) {
    const speaks = getProvider(settings.provider).descriptor.toolSearch;
    for (const v of vendorSearchesOf(spec))
      if (!speaks.includes(v.search))
        issues.push({
          path: v.path,
          message: `vendor-search "${v.search}" is not spoken by provider ${settings.provider} (it speaks ${speaks.length ? speaks.join(', ') : 'no tool search'})`,
        });
  }
  if (issues.length) throw new SpecError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}

/**
 * Batch mode (docs/batch.md) needs a provider with a batch API and studies of one turn: a conversation's next
 * turn depends on the last answer, so it cannot go out in the same batch. Refused before anything is stored,
 * naming the field.
 */
function refuseUnbatchable(spec: Parameters<typeof vendorSearchesOf>[0], planned: readonly RunSettings[]): void {
  const issues: { path: string; message: string }[] = [];
  for (const settings of planned) {
    if (!settings.batch) continue;
    if (!batchVendorOf(settings.provider)) {
      const have = PROVIDER_IDS.filter((p) => batchVendorOf(p));
      issues.push({ path: 'batch', message: `provider ${settings.provider} has no batch API (batch mode: ${have.join(', ')})` });
    }
    if (settings.stopWhenDecided) issues.push({ path: 'batch', message: 'batch mode sends the trials at once: it cannot stop when decided (stopWhenDecided)' });
  }
  if (planned.some((s) => s.batch)) {
    for (const [i, study] of spec.studies.entries()) {
      if (kindModule(study.kind).turns !== 'conversation') continue;
      const most = Math.max(...study.cases.map((c) => c.maxTurns ?? DEFAULT_MAX_TURNS));
      if (most > 1)
        issues.push({
          path: 'batch',
          message: `study ${study.id} (studies.${i}) takes up to ${most} turns: batch mode takes single-turn studies only (set maxTurns: 1 or run it one by one)`,
        });
    }
  }
  if (issues.length) throw new SpecError(issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
}

/** Run settings parsed, the provider known, the base URL allowed — or a SpecError naming the field. */
function checkedSettings(settingsInput: RunSettingsInput | unknown): RunSettings {
  const settings = parseOrThrow(RunSettings, settingsInput ?? {}, 'run settings');
  // the order of a stop-when-decided run is drawn once and stored: its seed is part of the settings
  // one by one is the default and is not named (stored settings and exports stay as they were)
  if (settings.batch === false) delete settings.batch;
  if (settings.stopWhenDecided && settings.stopWhenDecided.seed === undefined) settings.stopWhenDecided.seed = randomInt(0, 2_147_483_647);
  let provider: ReturnType<typeof getProvider>;
  try {
    provider = getProvider(settings.provider);
  } catch (e) {
    throw new SpecError(`provider: ${(e as Error).message}`, [{ path: 'provider', message: (e as Error).message }]);
  }
  // a key goes only where the environment says: any other base URL is refused before anything is stored or sent
  const refusal = baseUrlRefusal(provider.descriptor, settings.baseUrl);
  if (refusal !== null) throw new SpecError(`baseUrl: ${refusal}`, [{ path: 'baseUrl', message: refusal }]);
  // the destination is part of the run: fixed now, so every worker sends there or not at all (docs/runs.md)
  settings.baseUrl = baseUrlToFix(provider.descriptor, settings.baseUrl);
  return settings;
}

/** `waiting`: nothing was taken — this process cannot send to the run's base URL; another process may. */
export type StartResult = { ok: true } | { ok: false; reason: string; waiting?: true };

export interface StartOptions {
  /** Who sends the pre-checks (default: this process, under its heartbeat). */
  owner?: string;
  /** Statuses the pre-checks may be taken from (default: created, or prechecking under an expired lease). */
  from?: readonly RunStatus[];
  /** Test hook: called once a pre-check attempt is booked as sending, just before it leaves. */
  beforePrecheck?: (n: number) => Promise<void>;
}

/** Pre-check claims made by this process: each has an owner name of its own (`<holder>#<n>`). */
let precheckClaims = 0;

/** Lease of the pre-checks' holder: one request at the run's timeout, plus a margin. */
const precheckLeaseMs = (timeoutMs: number) => timeoutMs + 5000;

/**
 * Pre-checks, then enqueue. Durable and idempotent: the pre-checks are taken under a lease on the run; each
 * request is booked as an attempt row just before it leaves; transport errors are retried with backoff (a
 * 4xx is a configuration error and fails at once); a run whose pre-checking process died is taken over
 * (reconcile, resume) and goes on from the first pre-check without an answer. A run already running only
 * gets its missing jobs re-added (same job ids). While this process holds the pre-checks it keeps a heartbeat:
 * if it dies, a worker takes them over within seconds instead of after the lease.
 */
export async function startRun(runId: string, opts: StartOptions = {}): Promise<StartResult> {
  const run = await getRun(runId);
  if (!run) return { ok: false, reason: `run ${runId} not found` };
  if (run.status === 'running') {
    await enqueuePending(runId);
    return { ok: true };
  }
  const owner = `${opts.owner ?? PROCESS_HOLDER}#${++precheckClaims}`;
  if (opts.owner) return precheckAndEnqueue(run, owner, opts);
  const release = await heartbeat().hold(PROCESS_HOLDER);
  try {
    // a process that cannot renew its heartbeat takes nothing new: it could be presumed dead at any moment
    if (!heartbeat().alive()) return { ok: false, reason: 'this process cannot renew its heartbeat in the database; nothing was taken' };
    return await precheckAndEnqueue(run, owner, opts);
  } finally {
    release();
  }
}

async function precheckAndEnqueue(stored: RunRow, owner: string, opts: StartOptions): Promise<StartResult> {
  const runId = stored.id;
  const run = { ...stored, settings: await withFixedBaseUrl(runId, stored.settings) };
  const { timeoutMs, maxAttempts, retryBaseMs } = run.settings;
  // a process configured for another base URL (or without its key) sends nothing: the run waits for one that can
  const unsent = sendRefusal(getProvider(run.settings.provider).descriptor, run.settings.baseUrl);
  if (unsent !== null && (run.status === 'created' || run.status === 'prechecking')) {
    const reason = redactText(unsent);
    await setUnsentReason(runId, reason);
    log('warn', 'run left unsent', { runId, reason });
    return { ok: false, reason, waiting: true };
  }
  if (run.unsentReason !== null) await setUnsentReason(runId, null);
  const claim = await claimPrecheck(runId, owner, precheckLeaseMs(timeoutMs), opts.from ?? ['created', 'prechecking']);
  if (!claim.ok) {
    if (claim.status === 'prechecking')
      return { ok: false, reason: `its pre-checks are being sent by another process (lease until ${claim.leaseExpiresAt?.toISOString()})` };
    return { ok: false, reason: `run is ${claim.status}` };
  }
  log('info', 'run starting', { runId, experimentId: run.experimentId, provider: run.provider, model: run.model, trials: run.totalTrials, name: run.name ?? undefined });
  const exp = await getExperiment(run.experimentId);
  if (!exp) return fail(runId, owner, `experiment ${run.experimentId} not found`);
  const provider = getProvider(run.settings.provider);
  const progress = await precheckProgress(runId);
  let tries = progress.attemptsOfNext;
  for (let i = progress.passed; i < exp.spec.prechecks.length; i++) {
    const pc = exp.spec.prechecks[i];
    const request = buildRequest(exp.spec, { study: pc.study, caseId: pc.caseId, condition: pc.condition });
    for (;;) {
      if (tries >= maxAttempts) return fail(runId, owner, `pre-check ${i + 1} failed: no answer after ${tries} attempts (each was lost)`);
      const n = await markPrecheckSending(runId, owner, precheckLeaseMs(timeoutMs));
      if (n === null) return stopped(runId);
      if (opts.beforePrecheck) await opts.beforePrecheck(n);
      // the answer observed like a trial's (lib/scoring/answer.ts), though a pre-check is never scored
      const result = observeResult(await provider.send(request, { settings: run.settings }), request.markers);
      await recordPrecheckAttempt(runId, n, result);
      tries++;
      if (result.outcome === 'ok') break;
      const where = destinationText(run.settings.provider, run.settings.baseUrl);
      const failure = `pre-check ${i + 1} failed${tries > 1 ? ` after ${tries} attempts` : ''} (requests go to ${where}): ${describeProviderFailure(result, run.settings.provider, { baseUrl: run.settings.baseUrl })}`;
      // a request or configuration error repeats on every attempt; transport errors are retried like trials'
      const error = transportFailureOf(result);
      if (error?.kind === 'http_4xx' || tries >= maxAttempts) return fail(runId, owner, failure);
      const delay = retryDelayMs(tries, error?.retryAfterMs, retryBaseMs);
      if (!(await renewPrecheckLease(runId, owner, delay + precheckLeaseMs(timeoutMs)))) return stopped(runId);
      await new Promise((r) => setTimeout(r, delay));
    }
    tries = 0;
  }
  if (!(await finishPrecheck(runId, owner))) return stopped(runId);
  log('info', 'run started', { runId, status: 'running', trials: run.totalTrials });
  primeRunContext(runId, exp.spec, run.settings, run.budget); // the first trials are often taken by this very process
  // first chunk: what the run can have in flight (a worker starts what it fetched once the queue is empty)
  const batches = await enqueuePending(runId, {
    first: Math.ceil(run.settings.concurrency / TRIALS_PER_JOB),
    afterFirst: async (jobs) => void (await firstChunkSent(jobs)),
  });
  log('debug', 'run enqueued', { runId, batches });
  return { ok: true };
}

const SENT_POLL_MS = 5;

/**
 * Before the rest of a run is added: until workers have taken the first chunk and sent its requests (each
 * wait at most FIRST_CHUNK_WAIT_MS). Adding thousands of jobs keeps Redis and this process busy for a few
 * hundred milliseconds; the first requests would wait behind it, and the run would reach its concurrency
 * that much later. Once they are out, the rest is added while they are answered.
 */
export async function firstChunkSent(jobs: TrialJob[]): Promise<'sent' | 'timeout'> {
  if (jobs.length === 0) return 'sent';
  await pickedUp(jobs.at(-1)!);
  const trialIds = jobs.flatMap((j) => j.trialIds);
  const until = Date.now() + FIRST_CHUNK_WAIT_MS;
  // a slot may be taken by another run of the same model: then not all are sent by the deadline, and the rest follows anyway
  for (;;) {
    if ((await unsentTrialCount(trialIds)) === 0) return 'sent';
    if (Date.now() >= until) return 'timeout';
    await new Promise((r) => setTimeout(r, SENT_POLL_MS));
  }
}

async function fail(runId: string, owner: string, reason: string): Promise<StartResult> {
  if (await failPrecheck(runId, owner, reason)) log('info', 'run finished', { runId, status: 'failed', reason });
  return { ok: false, reason };
}

/** Paused, cancelled or taken over while its pre-checks were being sent. */
async function stopped(runId: string): Promise<StartResult> {
  const now = await getRun(runId);
  return { ok: false, reason: `run is ${now?.status ?? 'missing'}` };
}

/**
 * (Re-)add a job for every batch with a trial that is not final (BullMQ ignores ids that already have a job);
 * returns how many. A page of batches at a time (lib/db/trials.ts pendingBatchPages): `opts` (the first chunk and
 * what follows it) applies to the first page, which is larger than any first chunk.
 */
export async function enqueuePending(runId: string, opts?: EnqueueOptions): Promise<number> {
  // a batch-mode run has no trial jobs: lib/runner/batch.ts takes its trials
  if ((await batchModeRunIds([runId])).length > 0) return 0;
  let n = 0;
  for await (const page of pendingBatchPages(runId)) {
    const now = Date.now();
    await enqueueTrials(
      page.map((p) => ({ runId, batch: p.batch, trialIds: p.trialIds, delayMs: p.notBefore ? p.notBefore.getTime() - now : undefined })),
      n === 0 ? opts : undefined,
    );
    n += page.length;
  }
  return n;
}

/** The design's trials with their ids (deterministic per run and trial key), as lib/db/trials.ts insertTrials stores them. */
export function* withTrialIds(runId: string, trials: Iterable<TrialSpec>): Generator<NewTrial> {
  for (const t of trials) yield { ...t, id: trialIdOf(runId, t.trialKey) };
}
