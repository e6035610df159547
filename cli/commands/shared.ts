import { createWriteStream } from 'node:fs';
import { userInfo } from 'node:os';
import { commandLineActor, type Actor } from '../../lib/auth/roles';
import { pipeline } from 'node:stream/promises';
import { closeDb } from '../../lib/db/client';
import { closeQueues } from '../../lib/queue/close';
import { getExperiment } from '../../lib/db/experiments';
import { loadRunSummary } from '../../lib/db/results';
import type { RunRow } from '../../lib/db/runs';
import { formatTable1 } from '../../lib/analysis/format';
import { ClusterBy, type RunSummary } from '../../lib/schema/table1';
import { UsageError } from '../errors';
import { checksCsvStream, choicesCsvStream, runJsonStream, trialsCsvStream } from '../../lib/export/run';
import { err, out } from '../output';
import { isSimulatedProvider } from '../../lib/providers/vendor-descriptors';

/** The command line acts for whoever runs it on the server's machine (it holds the database's credentials). */
export function cliActor(): Actor {
  return commandLineActor(userInfo().username);
}

export async function shutdown(): Promise<void> {
  await closeQueues();
  await closeDb();
}

/** Table 1 to stdout (the CLI's result); everything else goes to stderr. Returns the summary and its title. */
export async function printSummary(run: RunRow, clusterBy: ClusterBy = 'case'): Promise<{ summary: RunSummary; title: string } | null> {
  const exp = await getExperiment(run.experimentId);
  if (!exp) return null;
  const summary = await loadRunSummary(run.id, exp.spec, clusterBy);
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

/** `summary`: the run's Table 1 if already loaded (printSummary), so the JSON export does not compute it again. */
export async function exportRun(
  runId: string,
  files: { json?: string; csv?: string; checksCsv?: string; choicesCsv?: string },
  clusterBy: ClusterBy = 'case',
  summary?: RunSummary,
): Promise<void> {
  if (files.json) await pipeline(await runJsonStream(runId, clusterBy, summary), createWriteStream(files.json));
  if (files.csv) await pipeline(await trialsCsvStream(runId), createWriteStream(files.csv));
  if (files.checksCsv) await pipeline(await checksCsvStream(runId), createWriteStream(files.checksCsv));
  if (files.choicesCsv) await pipeline(await choicesCsvStream(runId), createWriteStream(files.choicesCsv));
  for (const [what, f] of Object.entries(files)) if (f) err(`wrote ${what} → ${f}\n`);
}
