import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { env } from '../../lib/env';
import { ensureDatabase, migrate } from '../../lib/db/migrate';
import { ensureTemplateExperiment } from '../../lib/db/templates';
import { saveExperiment, getExperiment } from '../../lib/db/experiments';
import { getRun, runProgress, type RunRow } from '../../lib/db/runs';
import { createRun, startRun } from '../../lib/runner/start';
import { startWorker, type WorkerHandle } from '../../lib/runner/worker';
import { liveWorkerCount } from '../../lib/queue/enqueue';
import { UsageError } from '../errors';
import { isFinalRunStatus, runStatusLabel, runSucceeded } from '../../lib/schema/run-status';
import { runSettingsFromOptions, settingsOptions, type SettingsOptions } from './settings-options';
import { exportRun, printSummary, shutdown } from './shared';

interface RunOptions extends SettingsOptions {
  template?: string;
  experiment?: string;
  experimentId?: string;
  out?: string;
  csv?: string;
  checksCsv?: string;
  wait: boolean;
  worker: boolean;
  allowUnresolved?: boolean;
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
    .option('--allow-unresolved', 'exit 0 also when the run completed with unresolved trials (every attempt failed in transport)');
  settingsOptions(cmd);
  cmd.action(async (opts: RunOptions) => {
    const code = await runCommand(opts);
    await shutdown();
    process.exitCode = code;
  });
}

async function runCommand(opts: RunOptions): Promise<number> {
  const sources = [opts.template, opts.experiment, opts.experimentId].filter(Boolean).length;
  if (sources !== 1) throw new UsageError('give exactly one of --template, --experiment, --experiment-id');
  const settings = runSettingsFromOptions(opts);
  const url = env().DATABASE_URL;
  await ensureDatabase(url);
  await migrate(url);

  const experimentId = await resolveExperiment(opts);
  const run = await createRun(experimentId, settings);
  process.stderr.write(`run ${run.id} (${run.totalTrials} trials, provider ${run.provider}, model ${run.model})\n`);

  const started = await startRun(run.id);
  if (!started.ok) {
    process.stderr.write(`tclab: the run did not start: ${started.reason}\n`);
    return 1;
  }
  if (!opts.wait) return 0;

  let worker: WorkerHandle | undefined;
  if (opts.worker && (await liveWorkerCount()) === 0) worker = startWorker();
  const final = await waitForRun(run.id);
  await worker?.close();

  await printSummary(final);
  if (opts.out || opts.csv || opts.checksCsv) await exportRun(final.id, { json: opts.out, csv: opts.csv, checksCsv: opts.checksCsv });
  const ok = runSucceeded(final.status, { allowUnresolved: opts.allowUnresolved });
  if (final.status !== 'completed')
    process.stderr.write(`tclab: run ${final.id} ${runStatusLabel(final.status)}${final.statusReason ? `: ${final.statusReason}` : ''}${ok ? '' : final.status === 'completed_with_unresolved' ? ' (exit 1; --allow-unresolved accepts it)' : ''}\n`);
  return ok ? 0 : 1;
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
  let json: unknown;
  try {
    json = JSON.parse(await readFile(opts.experiment!, 'utf8'));
  } catch (e) {
    throw new UsageError(`--experiment ${opts.experiment}: ${(e as Error).message}`);
  }
  return (await saveExperiment(json)).id;
}

/** Poll PostgreSQL (the source of truth) until the run is final; progress goes to stderr. */
export async function waitForRun(runId: string): Promise<RunRow> {
  const tty = process.stderr.isTTY;
  let last = '';
  for (;;) {
    const [run, p] = await Promise.all([getRun(runId), runProgress(runId)]);
    if (!run) throw new Error(`run ${runId} disappeared`);
    const line = `${runStatusLabel(run.status).padEnd(10)} ${p.done}/${p.total} done, ${p.inFlight} in flight, ${p.transportErrors} transport errors, ${p.byStatus.unresolved ?? 0} unresolved`;
    if (line !== last) {
      process.stderr.write(tty ? `\r${line}\x1b[K` : `${line}\n`);
      last = line;
    }
    if (isFinalRunStatus(run.status)) {
      if (tty) process.stderr.write('\n');
      return run;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}
