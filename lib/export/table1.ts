import { formatTable1Markdown } from '../analysis/format';
import { formatTable1Latex } from '../analysis/format-latex';
import type { RunSummary } from '../schema/table1';
import type { RunAndExperiment } from './run';

/** A run's Table 1 for a report: Markdown (`md`) or a LaTeX table (`tex`), titled with the run's name and experiment. */
export function table1Text({ run, experiment: exp }: RunAndExperiment, summary: RunSummary, format: 'md' | 'tex'): string {
  const title = `Table 1 — ${run.name ?? `run ${run.id}`} (${exp.name} v${exp.version}, ${run.provider}/${run.model})`;
  return format === 'md' ? formatTable1Markdown(summary, title) : formatTable1Latex(summary, title);
}
