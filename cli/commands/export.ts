import type { Command } from 'commander';
import { getRun } from '../../lib/db/runs';
import { UsageError } from '../errors';
import { clusterByOption, exportRun, printSummary, shutdown } from './shared';
import { ciOptions, ciOutputs, parseGates, type CiOptions } from './ci-outputs';
import { getExperiment } from '../../lib/db/experiments';
import { writeRunTcc } from '../../lib/export/run';
import { err, setExitCode } from '../output';

export function register(program: Command): void {
  const cmd = program
    .command('export <runId>')
    .description('write a stored run as JSON (tclab.run/v1) and CSV; print its Table 1')
    .option('--out <file>', 'JSON file')
    .option('--csv <file>', 'one CSV row per trial')
    .option('--checks-csv <file>', 'one CSV row per check')
    .option('--choices-csv <file>', 'one CSV row per trial: what the model did (expected, chosen, position of the chosen tool)')
    .option('--tcc <dir>', 'every trial as a TCC v0.1 case card + observation file (for `tclab compare`)')
    .option('--cluster <by>', 'cluster of the clustered intervals: case (default) or scenario');
  ciOptions(cmd).action(
    async (runId: string, opts: { out?: string; csv?: string; checksCsv?: string; choicesCsv?: string; tcc?: string; cluster?: string } & CiOptions) => {
      try {
        const clusterBy = clusterByOption(opts.cluster);
        const run = await getRun(runId);
        if (!run) throw new UsageError(`no run "${runId}"`);
        const exp = await getExperiment(run.experimentId);
        if (!exp) throw new UsageError(`the experiment of run "${runId}" is missing`);
        const gates = parseGates(opts, exp.spec);
        const printed = await printSummary(run, clusterBy);
        await exportRun(runId, { json: opts.out, csv: opts.csv, checksCsv: opts.checksCsv, choicesCsv: opts.choicesCsv }, clusterBy, printed?.summary);
        if (opts.tcc) err(`wrote ${await writeRunTcc(runId, opts.tcc)} card/observation pairs → ${opts.tcc}\n`);
        const held = printed ? await ciOutputs(runId, printed.title, printed.summary, gates, opts) : true;
        if (!held) setExitCode(1);
      } finally {
        await shutdown();
      }
    },
  );
}
