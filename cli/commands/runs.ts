import type { Command } from 'commander';
import { formatComparison } from '../../lib/analysis/format-compare';
import { compareRuns } from '../../lib/runs/compare';
import { out } from '../output';
import { cliActor, clusterByOption, shutdown } from './shared';

// `tclab runs …`: commands about several runs at once.
export function register(program: Command): void {
  const runs = program.command('runs').description('several runs at once');
  runs
    .command('compare <runIds...>')
    .description(
      'runs of one experiment side by side — of one version or of several: Table 1 per run, each run’s paired effect of the definitions, and every run against the first on identical trials (same case, condition, order, replicate) with the CR1 interval and McNemar exact / mid-p; across versions, the version diff by JSON path, and only the unchanged cases pair (the others are listed with the reason)',
    )
    .option('--json', `print the comparison as JSON (tclab.compare/v1)`)
    .option('--cluster <by>', 'cluster of the intervals: case (default) or scenario')
    .option(
      '--override <reason>',
      'compare runs of different versions that also differ beyond their descriptions (model, temperature, seed, case set, …): refused without it; the reason is recorded in the audit log and shown with the result',
    )
    .action(async (runIds: string[], opts: { json?: boolean; cluster?: string; override?: string }) => {
      try {
        const override = opts.override !== undefined ? { reason: opts.override, actor: cliActor() } : undefined;
        const comparison = await compareRuns(runIds, clusterByOption(opts.cluster), override);
        out(opts.json ? `${JSON.stringify(comparison, null, 2)}\n` : `${formatComparison(comparison)}\n`);
      } finally {
        await shutdown();
      }
    });
}
