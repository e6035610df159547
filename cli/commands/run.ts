import type { Command } from 'commander';
import { ensureTemplateExperiment } from '../../lib/experiments/templates';
import { templateOf } from '../../lib/templates';
import { getExperiment } from '../../lib/experiments/read';
import { saveParsedExperiment } from '../../lib/experiments/versions';
import { prepareDatabase, withDatabaseRetry } from '../../lib/runs/connections';
import { startRuns } from '../../lib/runs/start';
import { SpendConfirmationRequired } from '../../lib/runner/spend';
import { compareRuns } from '../../lib/runs/compare';
import { loadStoppingReport } from '../../lib/runs/stopping';
import { fixedNIntervals, formatStopping } from '../../lib/analysis/stopping';
import type { RunSummary } from '../../lib/schema/table1';
import type { RunRow } from '../../lib/schema/run-row';
import { formatComparison } from '../../lib/analysis/format-compare';
import { destinationText } from '../../lib/providers/precheck';
import { startWorker, type WorkerHandle } from '../../lib/runner/worker';
import { warmRunResults, worthWarming } from '../../lib/runs/warm';
import { liveWorkerCount } from '../../lib/queue/enqueue';
import { UsageError } from '../errors';
import { parseSpecBytes } from '../../lib/experiments/parse';
import { fileValue, readInputFile } from './compare';
import { err, out, setExitCode } from '../output';
import { runStatusLabel, runSucceeded } from '../../lib/schema/run-status';
import { cliActor } from './shared';
import { runSettingsFromOptions, runTargetsFromOptions, settingsOptions } from './settings-options';
import { clusterByOption, exportRun, printSummary, shutdown } from './shared';
import { ExportSession, loadRunForExport } from '../../lib/runs/export';
import { batchSavingText, runBatchState } from '../../lib/runs/batch';
import { ciOptions, ciOutputs, parseGates } from './ci-outputs';
import { budgetOf, confirmationOf, labelFromOptions, perRunFiles, runOptions, stopWhenDecidedOf, type RunOptions } from './run-options';
import { closeWorker, reconnecting, waitForRun } from './run-wait';

export function register(program: Command): void {
  const cmd = runOptions(
    program.command('run').description('run an experiment to completion through the queue and worker (starts a worker in-process when none is running)'),
  );
  settingsOptions(cmd);
  ciOptions(cmd);
  cmd.action(async (opts: RunOptions) => {
    const code = await runCommand(opts);
    await shutdown();
    setExitCode(code);
  });
}

async function runCommand(opts: RunOptions): Promise<number> {
  const sources = [opts.template, opts.experiment, opts.experimentId].filter(Boolean).length;
  if (sources !== 1) throw new UsageError('give exactly one of --template, --experiment, --experiment-id');
  const settings = { ...runSettingsFromOptions(opts, templateOf(opts.template)?.simulated.model), ...stopWhenDecidedOf(opts), ...(opts.batch ? { batch: true } : {}) };
  const targets = runTargetsFromOptions(opts);
  const label = labelFromOptions(opts);
  if (targets.length > 1 && (opts.junit || opts.summaryMd))
    throw new UsageError('--junit and --summary-md describe one run: with several targets use tclab export on each run');
  // a spec file is read and validated before the database is touched: invalid input stores nothing
  const spec = opts.experiment ? fileValue(parseSpecBytes(readInputFile(opts.experiment)), opts.experiment, 'experiment spec') : null;
  await prepareDatabase();

  const clusterBy = clusterByOption(opts.cluster);
  const experimentId = spec ? (await saveParsedExperiment(spec)).id : await resolveExperiment(opts);
  const gates = parseGates(opts, (await getExperiment(experimentId))!.spec); // a gate naming nothing stops here, before anything is sent
  const request = { experimentId, settings, targets, confirm: confirmationOf(opts), budget: budgetOf(opts), label };
  const started = await startRuns(cliActor(), request, 'here', async (runs) => {
    for (const run of runs) {
      err(
        `run ${run.id} (${run.totalTrials} trials, provider ${run.provider}, model ${run.model}; requests go to ${destinationText(run.provider, run.settings.baseUrl)})\n`,
      );
      const batch = await runBatchState(run.id);
      if (batch) err(`run ${run.id}: batch mode, answers within 24 h${batch.saving ? `; estimated saving ${batchSavingText(batch.saving)}` : ''}\n`);
    }
    if (runs.length > 1) err(`run group ${runs[0].groupId}: ${runs.length} runs of ${experimentId}, one per target\n`);
  }).catch((e: unknown) => {
    if (e instanceof SpendConfirmationRequired) throw new UsageError(`${e.summary}: give --yes or --max-requests ${e.requests} to start it`);
    throw e;
  });
  const runs = started.map((s) => s.run);
  for (const { run, start } of started)
    if (!start.ok) err(`tclab: ${runs.length > 1 ? `run ${run.id} (${run.provider}/${run.model})` : 'the run'} did not start: ${start.reason}\n`);
  const startFailed = started.some((s) => !s.start.ok);
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
    const succeeded = runSucceeded(final.status, { allowUnresolved: opts.allowUnresolved });
    ok = ok && succeeded && gatesHeld;
    if (final.status !== 'completed')
      err(
        `tclab: run ${final.id} ${runStatusLabel(final.status)}${final.statusReason ? `: ${final.statusReason}` : ''}${succeeded ? '' : final.status === 'completed_with_unresolved' ? ' (exit 1; --allow-unresolved accepts it)' : ''}\n`,
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
        err(`run ${final.id}: storing what its pages read and its Parquet tables…\n`);
        await withDatabaseRetry(() => warmRunResults(final.id), reconnecting());
      }
  return ok ? 0 : 1;
}

/** A stop-when-decided run: when and why each study stopped, both intervals labelled. */
async function printStopping(session: ExportSession, summary: RunSummary): Promise<void> {
  const { run, experiment } = session.loaded;
  const report = await loadStoppingReport(run, experiment.spec);
  if (report) out(`\n${formatStopping(report, fixedNIntervals(summary))}\n`);
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
