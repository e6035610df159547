import type { Command } from 'commander';
import { env } from '../../lib/env';
import { ensureDatabase, migrate } from '../../lib/db/migrate';
import { ensureTemplateExperiment } from '../../lib/experiments/templates';
import { templateOf } from '../../lib/templates';
import { getExperiment } from '../../lib/db/experiments';
import { saveParsedExperiment } from '../../lib/experiments/versions';
import { getRun, runProgress, type RunRow } from '../../lib/db/runs';
import { withDatabaseRetry, type DatabaseRetryOptions } from '../../lib/db/client';
import path from 'node:path';
import { createRuns, startRun } from '../../lib/runner/start';
import { SpendConfirmationRequired, type SpendConfirmation } from '../../lib/runner/spend';
import type { RunBudgetInput } from '../../lib/schema/run';
import { compareRuns } from '../../lib/runs/compare';
import { loadStoppingReport } from '../../lib/runs/stopping';
import { fixedNIntervals, formatStopping } from '../../lib/analysis/stopping';
import type { RunSummary } from '../../lib/schema/table1';
import { formatComparison } from '../../lib/analysis/format-compare';
import { destinationText } from '../../lib/providers/precheck';
import { startWorker, type WorkerHandle } from '../../lib/runner/worker';
import { warmRunResults, worthWarming } from '../../lib/runs/warm';
import { liveWorkerCount } from '../../lib/queue/enqueue';
import { UsageError } from '../errors';
import { parseSpecBytes } from '../../lib/experiments/parse';
import { fileValue, readInputFile } from './compare';
import { err, errControl, out, setExitCode, stderrIsTty } from '../output';
import { isFinalRunStatus, runStatusLabel, runSucceeded } from '../../lib/schema/run-status';
import { recordAudit } from '../../lib/db/audit';
import { cliActor } from './shared';
import { labelRun } from '../../lib/runs/label';
import { parseRunLabel, type RunLabel } from '../../lib/schema/run-label';
import { SpecError } from '../../lib/schema/common';
import { runSettingsFromOptions, runTargetsFromOptions, settingsOptions, type SettingsOptions } from './settings-options';
import { clusterByOption, exportRun, printSummary, shutdown, type ExportFiles } from './shared';
import { ExportSession, loadRunForExport } from '../../lib/runs/export';
import { batchSavingText, batchStateLine, runBatchState } from '../../lib/runs/batch';
import { ciOptions, ciOutputs, parseGates, type CiOptions } from './ci-outputs';

interface RunOptions extends SettingsOptions, CiOptions {
  cluster?: string;
  template?: string;
  experiment?: string;
  experimentId?: string;
  out?: string;
  csv?: string;
  checksCsv?: string;
  wait: boolean;
  worker: boolean;
  allowUnresolved?: boolean;
  yes?: boolean;
  maxRequests?: string;
  budgetRequests?: string;
  budgetTokens?: string;
  budgetCost?: string;
  name?: string;
  note?: string;
  stopWhenDecided?: boolean;
  batch?: boolean;
  stopPrecision?: string;
  stopSeed?: string;
}

export function register(program: Command): void {
  const cmd = program
    .command('run')
    .description('run an experiment to completion through the queue and worker (starts a worker in-process when none is running)')
    .option('--template <id>', 'a built-in template, e.g. reference-study')
    .option('--experiment <file>', 'an experiment spec JSON file (tclab.experiment/v1)')
    .option('--experiment-id <id>', 'a stored experiment version, e.g. reference-study-v1')
    .option('--out <file>', 'write the run as JSON (tclab.run/v1)')
    .option('--csv <file>', 'write one CSV row per trial')
    .option('--checks-csv <file>', 'write one CSV row per check')
    .option('--no-wait', 'print the run id and return once the run has started')
    .option('--no-worker', 'never start an in-process worker (wait for `npm run worker` processes)')
    .option('--allow-unresolved', 'exit 0 also when the run completed with unresolved trials (every attempt failed in transport)')
    .option('--cluster <by>', 'cluster of the clustered intervals: case (default) or scenario')
    .option('--yes', 'start the run even when its paid requests or estimated cost pass TCLAB_CONFIRM_REQUESTS / TCLAB_CONFIRM_COST')
    .option('--max-requests <n>', 'confirm a run of up to N paid requests (refused when it would send more)')
    .option('--budget-requests <n>', 'stop sending once the run has sent N requests (the run ends cancelled: "budget reached")')
    .option('--budget-tokens <n>', 'stop sending once the answers have used N tokens (input + output)')
    .option('--budget-cost <amount>', "stop sending once the estimated cost (price table's row for the model) reaches this amount")
    .option('--stop-when-decided', 'send the pairs in a random order fixed now, and stop each study once an anytime-valid test has decided it (docs/statistics.md)')
    .option('--stop-precision <points>', 'with --stop-when-decided: also stop a study once its anytime-valid interval is narrower than this many percentage points')
    .option('--stop-seed <n>', 'with --stop-when-decided: the seed of the pair order (default: drawn and stored with the run)')
    .option(
      '--batch',
      "send the trials through the provider's batch API: about half price, answers within 24 h (openai, anthropic, gemini; single-turn studies; docs/batch.md)",
    )
    .option('--name <text>', "the run's name (shown in the runs list, the run page and the export; editable later)")
    .option('--note <text>', 'a note on the run: what it is for, what changed');
  settingsOptions(cmd);
  ciOptions(cmd);
  cmd.action(async (opts: RunOptions) => {
    const code = await runCommand(opts);
    await shutdown();
    setExitCode(code);
  });
}

/** --name / --note, checked before anything is stored (a usage error naming the option). */
function labelFromOptions(opts: RunOptions): RunLabel {
  try {
    return parseRunLabel({ name: opts.name ?? null, note: opts.note ?? null });
  } catch (e) {
    if (e instanceof SpecError) throw new UsageError(e.issues.map((i) => `--${i.path}: ${i.message}`).join('; '));
    throw e;
  }
}

async function runCommand(opts: RunOptions): Promise<number> {
  const sources = [opts.template, opts.experiment, opts.experimentId].filter(Boolean).length;
  if (sources !== 1) throw new UsageError('give exactly one of --template, --experiment, --experiment-id');
  const settings = {
    ...runSettingsFromOptions(opts, templateOf(opts.template)?.simulated.model),
    ...stopWhenDecidedOf(opts),
    ...(opts.batch ? { batch: true } : {}),
  };
  const targets = runTargetsFromOptions(opts);
  const label = labelFromOptions(opts);
  if (targets.length > 1 && (opts.junit || opts.summaryMd))
    throw new UsageError('--junit and --summary-md describe one run: with several targets use tclab export on each run');
  // a spec file is read and validated before the database is touched: invalid input stores nothing
  const spec = opts.experiment ? fileValue(parseSpecBytes(readInputFile(opts.experiment)), opts.experiment, 'experiment spec') : null;
  const url = env().DATABASE_URL;
  await ensureDatabase(url);
  await migrate(url);

  const clusterBy = clusterByOption(opts.cluster);
  const experimentId = spec ? (await saveParsedExperiment(spec)).id : await resolveExperiment(opts);
  const exp = await getExperiment(experimentId);
  const gates = parseGates(opts, exp!.spec); // a gate naming nothing stops here, before anything is sent
  const runs = await createRuns(experimentId, settings, targets, { confirm: confirmationOf(opts), budget: budgetOf(opts) }).catch((e: unknown) => {
    if (e instanceof SpendConfirmationRequired) throw new UsageError(`${e.summary}: give --yes or --max-requests ${e.requests} to start it`);
    throw e;
  });
  for (const run of runs) {
    if (label.name !== null || label.note !== null) await labelRun(cliActor(), run.id, label);
    await recordAudit(cliActor(), 'run.started', { experimentId, runId: run.id }, { provider: run.provider, model: run.model });
    err(
      `run ${run.id} (${run.totalTrials} trials, provider ${run.provider}, model ${run.model}; requests go to ${destinationText(run.provider, run.settings.baseUrl)})\n`,
    );
    const batch = await runBatchState(run.id);
    if (batch) err(`run ${run.id}: batch mode, answers within 24 h${batch.saving ? `; estimated saving ${batchSavingText(batch.saving)}` : ''}\n`);
  }
  if (runs.length > 1) err(`run group ${runs[0].groupId}: ${runs.length} runs of ${experimentId}, one per target\n`);

  let startFailed = false;
  for (const run of runs) {
    const started = await startRun(run.id);
    if (!started.ok) {
      err(`tclab: ${runs.length > 1 ? `run ${run.id} (${run.provider}/${run.model})` : 'the run'} did not start: ${started.reason}\n`);
      startFailed = true;
    }
  }
  if (startFailed && runs.length === 1) return 1;
  if (!opts.wait) return startFailed ? 1 : 0;

  let worker: WorkerHandle | undefined;
  if (opts.worker && (await liveWorkerCount()) === 0) worker = startWorker();
  const finals: RunRow[] = [];
  for (const run of runs) finals.push(await waitForRun(run.id));
  if (worker) await closeWorker(worker);

  let ok = !startFailed;
  for (const final of finals) {
    // the database may restart at any point while we wait: reconnect with backoff, never a stack trace
    // the run and its experiment read once; Table 1 computed once for the summary, the exports and the gates
    const session = await withDatabaseRetry(async () => new ExportSession(await loadRunForExport(final.id), clusterBy), reconnecting());
    const printed = await withDatabaseRetry(() => printSummary(session), reconnecting());
    if (final.settings.stopWhenDecided) await withDatabaseRetry(() => printStopping(session, printed.summary), reconnecting());
    const files = runs.length > 1 ? perRunFiles(opts, final.id) : { json: opts.out, 'trials.csv': opts.csv, 'checks.csv': opts.checksCsv };
    if (Object.values(files).some(Boolean)) await withDatabaseRetry(() => exportRun(session, files), reconnecting());
    const gatesHeld = await withDatabaseRetry(() => ciOutputs(session, printed.title, printed.summary, gates, opts), reconnecting());
    ok = ok && runSucceeded(final.status, { allowUnresolved: opts.allowUnresolved }) && gatesHeld;
    if (final.status !== 'completed')
      err(
        `tclab: run ${final.id} ${runStatusLabel(final.status)}${final.statusReason ? `: ${final.statusReason}` : ''}${runSucceeded(final.status, { allowUnresolved: opts.allowUnresolved }) ? '' : final.status === 'completed_with_unresolved' ? ' (exit 1; --allow-unresolved accepts it)' : ''}\n`,
      );
  }
  if (finals.length > 1) {
    const comparison = await withDatabaseRetry(
      () =>
        compareRuns(
          finals.map((r) => r.id),
          clusterBy,
        ),
      reconnecting(),
    );
    out(`\n${formatComparison(comparison)}\n`);
    err(`compare again: tclab runs compare ${finals.map((r) => r.id).join(' ')}\n`);
  }
  // the in-process worker ran the runs: store what a large run's pages read, as `npm run worker` does as a run
  // completes (lib/runs/warm.ts) — after the results are printed, so nobody waits for it to read them
  if (worker)
    for (const final of finals)
      if (worthWarming(final)) {
        err(`run ${final.id}: storing what its pages read…\n`);
        await withDatabaseRetry(() => warmRunResults(final.id), reconnecting());
      }
  return ok ? 0 : 1;
}

/** --stop-when-decided [--stop-precision POINTS] [--stop-seed N] → the run setting (nothing without the switch). */
function stopWhenDecidedOf(opts: RunOptions): { stopWhenDecided?: { precision: number | null; seed?: number } } {
  if (!opts.stopWhenDecided) {
    if (opts.stopPrecision !== undefined || opts.stopSeed !== undefined) throw new UsageError('--stop-precision and --stop-seed need --stop-when-decided');
    return {};
  }
  let precision: number | null = null;
  if (opts.stopPrecision !== undefined) {
    const p = Number(opts.stopPrecision);
    if (!(Number.isFinite(p) && p > 0 && p <= 200))
      throw new UsageError(`--stop-precision: percentage points, more than 0 and at most 200 (got "${opts.stopPrecision}")`);
    precision = p / 100;
  }
  if (opts.stopSeed === undefined) return { stopWhenDecided: { precision } };
  const seed = Number(opts.stopSeed);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2_147_483_647) throw new UsageError(`--stop-seed: a whole number from 0 to 2147483647 (got "${opts.stopSeed}")`);
  return { stopWhenDecided: { precision, seed } };
}

/** A stop-when-decided run: when and why each study stopped, both intervals labelled. */
async function printStopping(session: ExportSession, summary: RunSummary): Promise<void> {
  const { run, experiment } = session.loaded;
  const report = await loadStoppingReport(run, experiment.spec);
  if (report) out(`\n${formatStopping(report, fixedNIntervals(summary))}\n`);
}

/** --yes / --max-requests N → the spend confirmation; a bad number names the flag. */
function confirmationOf(opts: RunOptions): SpendConfirmation {
  return { yes: opts.yes === true, maxRequests: opts.maxRequests === undefined ? null : wholeNumber(opts.maxRequests, '--max-requests') };
}

/** --budget-requests / --budget-tokens / --budget-cost → the run's budget (null: none). */
function budgetOf(opts: RunOptions): RunBudgetInput | null {
  if (opts.budgetRequests === undefined && opts.budgetTokens === undefined && opts.budgetCost === undefined) return null;
  const cost = opts.budgetCost === undefined ? null : Number(opts.budgetCost);
  if (cost !== null && !(Number.isFinite(cost) && cost > 0)) throw new UsageError(`--budget-cost: a positive amount (got "${opts.budgetCost}")`);
  return {
    requests: opts.budgetRequests === undefined ? null : wholeNumber(opts.budgetRequests, '--budget-requests'),
    tokens: opts.budgetTokens === undefined ? null : wholeNumber(opts.budgetTokens, '--budget-tokens'),
    cost,
  };
}

function wholeNumber(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${flag}: a whole number of at least 1 (got "${text}")`);
  return n;
}

/** With several runs, each export file gets the run id before its extension (run.json → run.r_….json). */
function perRunFiles(opts: RunOptions, runId: string): ExportFiles {
  const withId = (f: string | undefined) => {
    if (!f) return undefined;
    const ext = path.extname(f);
    return `${f.slice(0, f.length - ext.length)}.${runId}${ext}`;
  };
  return { json: withId(opts.out), 'trials.csv': withId(opts.csv), 'checks.csv': withId(opts.checksCsv) };
}

async function resolveExperiment(opts: RunOptions): Promise<string> {
  if (opts.template) {
    try {
      return (await ensureTemplateExperiment(opts.template)).id;
    } catch (e) {
      throw new UsageError(`--template: ${(e as Error).message}`);
    }
  }
  if (opts.experimentId) {
    if (!(await getExperiment(opts.experimentId))) throw new UsageError(`--experiment-id: no experiment "${opts.experimentId}"`);
    return opts.experimentId;
  }
  throw new UsageError('give exactly one of --template, --experiment, --experiment-id');
}

/** How long the in-process worker may take to stop once every run is final. */
const WORKER_CLOSE_MS = 15_000;

/**
 * Stop the in-process worker. Every run is final in PostgreSQL by now, so nothing it still holds can change a
 * result (a late write is fenced out): if it has not stopped within WORKER_CLOSE_MS — a job waiting on a
 * connection the database dropped while it restarted — one line says so and the summary is printed anyway.
 */
async function closeWorker(worker: WorkerHandle): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = worker.close().then(() => true);
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), WORKER_CLOSE_MS)));
  const stopped = await Promise.race([closed, late]);
  clearTimeout(timer);
  if (!stopped) err(`tclab: the worker had not stopped ${WORKER_CLOSE_MS / 1000} s after the run ended; going on without it\n`);
}

/** Reconnect messages on stderr: one when the database goes away, one when it answers again. */
function reconnecting(): DatabaseRetryOptions {
  let told = false;
  return {
    onUnavailable(e) {
      if (told) return;
      told = true;
      err(`\ntclab: the database is unavailable (${e.message.split('\n')[0]}); reconnecting with backoff…\n`);
    },
    onBack(ms) {
      told = false;
      err(`tclab: the database is back after ${(ms / 1000).toFixed(1)} s\n`);
    },
  };
}

/**
 * Poll PostgreSQL (the source of truth) until the run is final; progress goes to stderr. A database that
 * restarts meanwhile is waited for (reconnect with backoff); the run goes on without us.
 */
export async function waitForRun(runId: string): Promise<RunRow> {
  const tty = stderrIsTty();
  let last = '';
  const retry = reconnecting();
  for (;;) {
    const [run, p] = await withDatabaseRetry(() => Promise.all([getRun(runId), runProgress(runId)]), retry);
    if (!run) throw new Error(`run ${runId} disappeared`);
    const batch = run.settings.batch ? await withDatabaseRetry(() => runBatchState(runId, { saving: false }), retry) : null;
    const line = `${runStatusLabel(run.status).padEnd(10)} ${p.done}/${p.total} done, ${p.inFlight} in flight, ${p.transportErrors} transport errors, ${p.byStatus.unresolved ?? 0} unresolved${batch ? `; ${batchStateLine(batch)}` : ''}`;
    if (line !== last) {
      if (tty) {
        errControl('\r');
        err(line);
        errControl('\x1b[K');
      } else err(`${line}\n`);
      last = line;
    }
    if (isFinalRunStatus(run.status)) {
      if (tty) err('\n');
      return run;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
