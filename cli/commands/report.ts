import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { RunNotFoundError } from '../../lib/runs/export';
import { ReportInputError, runReport } from '../../lib/runs/report';
import { UsageError } from '../errors';
import { err, out } from '../output';
import { shutdown } from './shared';

// `tclab report RUN_ID [RUN_ID…] --out report.html`: the one-file HTML report (docs/report.md).
export function register(program: Command): void {
  program
    .command('report <runIds...>')
    .description(
      'one self-contained HTML file of a run, or of runs side by side: Table 1 with its intervals and paired reading, charts as inline SVG, what the model did, funnel, stopping, the spec and provenance — no script, no request to any server',
    )
    .option('--out <file>', 'where to write it (default: standard output)')
    .action(async (runIds: string[], opts: { out?: string }) => {
      try {
        let html: string;
        try {
          html = await runReport(runIds);
        } catch (e) {
          if (e instanceof RunNotFoundError || e instanceof ReportInputError) throw new UsageError(e.message);
          throw e;
        }
        if (opts.out) {
          await writeFile(opts.out, html);
          err(`wrote ${opts.out} (${Buffer.byteLength(html)} bytes)\n`);
        } else out(html);
      } finally {
        await shutdown();
      }
    });
}
