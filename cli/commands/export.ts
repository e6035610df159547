import type { Command } from 'commander';
import { getRun } from '../../lib/db/runs';
import { UsageError } from '../errors';
import { exportRun, printSummary, shutdown } from './shared';

export function register(program: Command): void {
  program
    .command('export <runId>')
    .description('write a stored run as JSON (tclab.run/v1) and CSV; print its Table 1')
    .option('--out <file>', 'JSON file')
    .option('--csv <file>', 'one CSV row per trial')
    .option('--checks-csv <file>', 'one CSV row per check')
    .action(async (runId: string, opts: { out?: string; csv?: string; checksCsv?: string }) => {
      const run = await getRun(runId);
      if (!run) {
        await shutdown();
        throw new UsageError(`no run "${runId}"`);
      }
      await printSummary(run);
      await exportRun(runId, { json: opts.out, csv: opts.csv, checksCsv: opts.checksCsv });
      await shutdown();
    });
}
