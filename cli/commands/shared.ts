import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { closeDb } from '../../lib/db/client';
import { closeQueues } from '../../lib/queue/connection';
import { getExperiment } from '../../lib/db/experiments';
import { loadRunSummary } from '../../lib/db/results';
import type { RunRow } from '../../lib/db/runs';
import { formatTable1 } from '../../lib/analysis/format';
import { checksCsvStream, runJsonStream, trialsCsvStream } from '../../lib/export/run';
import { err, out } from '../output';

export async function shutdown(): Promise<void> {
  await closeQueues();
  await closeDb();
}

/** Table 1 to stdout (the CLI's result); everything else goes to stderr. */
export async function printSummary(run: RunRow): Promise<void> {
  const exp = await getExperiment(run.experimentId);
  if (!exp) return;
  const summary = await loadRunSummary(run.id, exp.spec);
  const note = run.provider === 'simulated' ? ' — simulated: a heuristic, not a language model' : '';
  out(`Run ${run.id} · ${exp.name} · ${run.provider}/${run.model}${note}\n\n${formatTable1(summary)}\n`);
}

export async function exportRun(runId: string, files: { json?: string; csv?: string; checksCsv?: string }): Promise<void> {
  if (files.json) await pipeline(await runJsonStream(runId), createWriteStream(files.json));
  if (files.csv) await pipeline(await trialsCsvStream(runId), createWriteStream(files.csv));
  if (files.checksCsv) await pipeline(await checksCsvStream(runId), createWriteStream(files.checksCsv));
  for (const [what, f] of Object.entries(files)) if (f) err(`wrote ${what} → ${f}\n`);
}
