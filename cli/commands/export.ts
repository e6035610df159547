import type { Command } from 'commander';
import { EXPORT_FORMATS, ExportSession, loadRunForExport, RunNotFoundError, writeRunParquet, writeRunTcc, type RunAndExperiment } from '../../lib/runs/export';
import { UsageError } from '../errors';
import { clusterByOption, exportFilesOf, exportRun, printSummary, shutdown } from './shared';
import { ciOptions, ciOutputs, parseGates, type CiOptions } from './ci-outputs';
import { err, setExitCode } from '../output';

export function register(program: Command): void {
  const cmd = program.command('export <runId>').description('write a stored run as JSON (tclab.run/v2) and CSV; print its Table 1');
  // the file formats: the one table of export formats (lib/runs/export.ts)
  for (const f of EXPORT_FORMATS) if ('cli' in f) cmd.option(f.cli.flag, f.cli.description);
  cmd
    .option('--tcc <dir>', 'every trial as a TCC v0.1 case card + observation file (for `tclab compare`)')
    .option('--parquet <dir>', 'trials, attempts, checks and choices as Parquet files, with the spec and Table 1 in run.json')
    .option('--cluster <by>', 'cluster of the clustered intervals: case (default) or scenario');
  ciOptions(cmd).action(async (runId: string, opts: { tcc?: string; parquet?: string; cluster?: string } & CiOptions & Record<string, unknown>) => {
    try {
      const clusterBy = clusterByOption(opts.cluster);
      // the run and its experiment, read once and passed to every export below
      let loaded: RunAndExperiment;
      try {
        loaded = await loadRunForExport(runId);
      } catch (e) {
        if (e instanceof RunNotFoundError) throw new UsageError(e.message);
        throw e;
      }
      const gates = parseGates(opts, loaded.experiment.spec);
      const session = new ExportSession(loaded, clusterBy);
      const printed = await printSummary(session);
      await exportRun(session, exportFilesOf(opts));
      if (opts.parquet) err(`wrote ${(await writeRunParquet(session, opts.parquet)).join(', ')}\n`);
      if (opts.tcc) err(`wrote ${await writeRunTcc(loaded, opts.tcc)} card/observation pairs → ${opts.tcc}\n`);
      const held = await ciOutputs(session, printed.title, printed.summary, gates, opts);
      if (!held) setExitCode(1);
    } finally {
      await shutdown();
    }
  });
}
