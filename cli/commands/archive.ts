import type { Command } from 'commander';
import { ArchiveInputError, RestoreClash, restoreArchive, writeArchive } from '../../lib/archive/archive';
import { UsageError } from '../errors';
import { err, out, setExitCode } from '../output';
import { cliActor, shutdown } from './shared';

// `tclab archive` and `tclab restore` (docs/archive.md): a lab moved between instances. The command line
// has the database's access as every other command; a restore is attributed to it in the audit.

const total = (rows: Record<string, number>) => Object.values(rows).reduce((s, n) => s + n, 0);

export function register(program: Command): void {
  program
    .command('archive <ids...>')
    .description('write experiments (with all their runs) and runs (with their experiment) to a .tar.zst archive')
    .requiredOption('--out <file>', 'the archive to write, e.g. lab.tar.zst')
    .action(async (ids: string[], opts: { out: string }) => {
      try {
        const s = await writeArchive(ids, opts.out);
        err(
          `wrote ${opts.out}: ${s.experiments.length} experiment(s), ${s.runs.length} run(s), ${total(s.rows).toLocaleString('en')} rows, ${s.bytes.toLocaleString('en')} bytes\n`,
        );
        out(`${JSON.stringify({ out: opts.out, runs: s.runs, experiments: s.experiments, rows: s.rows })}\n`);
      } catch (e) {
        if (e instanceof ArchiveInputError) throw new UsageError(e.message);
        throw e;
      } finally {
        await shutdown();
      }
    });
  program
    .command('restore <archive>')
    .description('restore a tclab archive into this instance (refused, with nothing written, on any clash)')
    .action(async (archive: string) => {
      try {
        const s = await restoreArchive(archive, cliActor());
        err(`restored ${archive}: ${s.runs.length} run(s), ${s.experiments.length} new experiment(s), ${total(s.rows).toLocaleString('en')} rows\n`);
        out(`${JSON.stringify(s)}\n`);
      } catch (e) {
        if (e instanceof RestoreClash) {
          err(`tclab: ${e.message}\n`);
          setExitCode(1);
          return;
        }
        if (e instanceof ArchiveInputError) throw new UsageError(e.message);
        throw e;
      } finally {
        await shutdown();
      }
    });
}
