import type { Command } from 'commander';
import { getRun } from '../../lib/db/runs';
import { UsageError } from '../errors';
import { exportRun, printSummary, shutdown } from './shared';
import { writeRunTcc } from '../../lib/export/run';
import { err } from '../output';

export function register(program: Command): void {
  program
    .command('export <runId>')
    .description('write a stored run as JSON (tclab.run/v1) and CSV; print its Table 1')
    .option('--out <file>', 'JSON file')
    .option('--csv <file>', 'one CSV row per trial')
    .option('--checks-csv <file>', 'one CSV row per check')
    .option('--tcc <dir>', 'every trial as a TCC v0.1 case card + observation file (for `tclab compare`)')
    .action(async (runId: string, opts: { out?: string; csv?: string; checksCsv?: string; tcc?: string }) => {
      const run = await getRun(runId);
      if (!run) {
        await shutdown();
        throw new UsageError(`no run "${runId}"`);
      }
      await printSummary(run);
      await exportRun(runId, { json: opts.out, csv: opts.csv, checksCsv: opts.checksCsv });
      if (opts.tcc) err(`wrote ${await writeRunTcc(runId, opts.tcc)} card/observation pairs → ${opts.tcc}\n`);
      await shutdown();
    });
}
