import { createWriteStream } from 'node:fs';
import { userInfo } from 'node:os';
import { commandLineActor, type Actor } from '../../lib/auth/roles';
import { pipeline } from 'node:stream/promises';
import { closeConnections } from '../../lib/runs/connections';
import { EXPORT_FORMATS, type ExportFormatName, type ExportSession } from '../../lib/runs/export';
import { formatTable1 } from '../../lib/analysis/format';
import { ClusterBy, type RunSummary } from '../../lib/schema/table1';
import { UsageError } from '../errors';
import { err, out } from '../output';
import { isSimulatedProvider } from '../../lib/providers/vendor-descriptors';

/** The command line acts for whoever runs it on the server's machine (it holds the database's credentials). */
export function cliActor(): Actor {
  return commandLineActor(userInfo().username);
}

export async function shutdown(): Promise<void> {
  await closeConnections();
}

/** Table 1 to stdout (the CLI's result); everything else goes to stderr. Returns the summary and its title. */
export async function printSummary(session: ExportSession): Promise<{ summary: RunSummary; title: string }> {
  const { run, experiment: exp } = session.loaded;
  const summary = await session.table1();
  const note = isSimulatedProvider(run.provider) ? ' — simulated: a heuristic, not a language model' : '';
  const title = `Run ${run.id} · ${exp.name} · ${run.provider}/${run.model}${note}`;
  out(`${title}\n\n${formatTable1(summary)}\n`);
  return { summary, title };
}

/** `--cluster case|scenario`. */
export function clusterByOption(v: string | undefined): ClusterBy {
  const r = ClusterBy.safeParse(v ?? 'case');
  if (!r.success) throw new UsageError(`--cluster: expected case or scenario (got "${v}")`);
  return r.data;
}

/** The export files asked for, by format (lib/runs/export.ts EXPORT_FORMATS): each written from the one loaded run. */
export type ExportFiles = Partial<Record<ExportFormatName, string>>;

/** The CLI's export options (`--out`, `--csv`, … as the format table names them) as files by format. */
export function exportFilesOf(opts: Record<string, unknown>): ExportFiles {
  const files: ExportFiles = {};
  for (const f of EXPORT_FORMATS) if ('cli' in f && typeof opts[f.cli.option] === 'string') files[f.name] = opts[f.cli.option] as string;
  return files;
}

/** Write the export files of one loaded run (Table 1 computed once, in the session). */
export async function exportRun(session: ExportSession, files: ExportFiles): Promise<void> {
  for (const f of EXPORT_FORMATS) {
    const file = files[f.name];
    if (file) await pipeline(await f.stream(session), createWriteStream(file));
  }
  for (const [what, f] of Object.entries(files)) if (f) err(`wrote ${what} → ${f}\n`);
}
