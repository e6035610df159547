import type { Command } from 'commander';
import { importTraces, TraceImportError } from '../../lib/cases/import';
import { fileLines } from '../../lib/traces';
import { TRACE_FORMATS } from '../../lib/schema/trace-candidate';
import { UsageError } from '../errors';
import { out } from '../output';
import { cliActor, shutdown } from './shared';

const collect = (v: string, prev: string[]) => [...prev, v];

export function register(program: Command): void {
  const cases = program.command('cases').description('cases from real traffic (docs/traces.md)');
  cases
    .command('import <format> <file>')
    .description(`import a trace or request/response log as candidates for review; formats: ${TRACE_FORMATS.join(', ')}`)
    .option('--experiment-id <id>', 'the experiment the reviewed cases may join (needed for traces without tool definitions)')
    .option('--sample <n>', 'keep this many candidates, stratified by observed tool')
    .option('--redact <pattern>', 'also redact this regular expression (repeatable)', collect, [])
    .option('--json', 'print {importId, report} as JSON')
    .action(async (format: string, file: string, opts: { experimentId?: string; sample?: string; redact: string[]; json?: boolean }) => {
      const sample = opts.sample === undefined ? undefined : Number(opts.sample);
      try {
        const { importId, report } = await importTraces(
          { format, file, lines: fileLines(file), experimentId: opts.experimentId ?? null, sample, redact: opts.redact },
          cliActor(),
        );
        if (opts.json) {
          out(`${JSON.stringify({ importId, report }, null, 2)}\n`);
          return;
        }
        const refused = Object.entries(report.refused).filter(([, n]) => n > 0);
        const skipped = Object.entries(report.skipped).filter(([, n]) => n > 0);
        const redacted = Object.entries(report.redactions.byKind).filter(([, n]) => n > 0);
        out(
          [
            `import ${importId}: ${report.read} records read`,
            `  stored    ${report.imported} candidates (+${report.grouped} grouped with a near-duplicate) · catalog full ${report.byCompleteness.full}, names only ${report.byCompleteness['names-only']}, missing ${report.byCompleteness.missing}`,
            `  dropped   ${report.duplicate} duplicates, ${report.notSampled} not sampled`,
            `  refused   ${refused.length ? refused.map(([k, n]) => `${k} ${n}`).join(', ') : 'none'}`,
            `  skipped   ${skipped.length ? skipped.map(([k, n]) => `${k} ${n}`).join(', ') : 'none'}`,
            `  redacted  ${redacted.length ? redacted.map(([k, n]) => `${k} ${n}`).join(', ') : 'nothing'}`,
            ...report.refusals.slice(0, 10).map((r) => `  ${r.where}: ${r.reason} — ${r.detail}`),
          ].join('\n') + '\n',
        );
      } catch (e) {
        if (e instanceof TraceImportError) throw new UsageError(e.message);
        if (e instanceof Error && 'code' in e && e.code === 'ENOENT') throw new UsageError(`${file}: no such file`);
        throw e;
      } finally {
        await shutdown();
      }
    });
}
