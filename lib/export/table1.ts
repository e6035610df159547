import { Readable } from 'node:stream';
import { getExperiment } from '../db/experiments';
import { getRun } from '../db/runs';
import { loadRunSummary } from '../db/results';
import { formatTable1Markdown } from '../analysis/format';
import { formatTable1Latex } from '../analysis/format-latex';
import type { ClusterBy } from '../schema/table1';
import { RunNotFoundError } from './run';

/** A run's Table 1 for a report: Markdown (`md`) or a LaTeX table (`tex`), titled with the run's name and experiment. */
export async function table1Document(runId: string, format: 'md' | 'tex', clusterBy: ClusterBy = 'case'): Promise<string> {
  const run = await getRun(runId);
  if (!run) throw new RunNotFoundError(`no run "${runId}"`);
  const exp = await getExperiment(run.experimentId);
  if (!exp) throw new RunNotFoundError(`experiment of run "${runId}" is missing`);
  const summary = await loadRunSummary(runId, exp.spec, clusterBy);
  const title = `Table 1 — ${run.name ?? `run ${run.id}`} (${exp.name} v${exp.version}, ${run.provider}/${run.model})`;
  return format === 'md' ? formatTable1Markdown(summary, title) : formatTable1Latex(summary, title);
}

export const table1Stream = (format: 'md' | 'tex') => async (runId: string) => Readable.from([await table1Document(runId, format)]);
