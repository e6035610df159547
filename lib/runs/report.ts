import pkg from '../../package.json';
import { iterateChoiceRows } from '../db/choices';
import { iterateTrialRecords } from '../db/results';
import { choiceResolver, type Choice } from '../analysis/choices';
import { formatComparison } from '../analysis/format-compare';
import { FAILED_MAX, GRID_MAX_TRIALS, reportHtml, type ReportFailure, type ReportRun } from '../export/report';
import { redactSecrets } from '../providers/secrets';
import { isSimulatedProvider } from '../providers/vendor-descriptors';
import { runStatusLabel } from '../schema/run-status';
import { runChoiceSummary } from './choices';
import { SpecError } from '../schema/common';
import { compareRuns, compareRunsUnderOverride, MAX_COMPARED_RUNS } from './compare';
import { ExportSession, loadRunForExport, optimisationOfExportedRun } from './export';
import { recordMarkdown } from '../optimise/markdown';
import { exportFunnelRow, runFunnel } from './funnel';
import { loadStoppingReport } from './stopping';

// Use case: the one-file HTML report of one run, or of runs side by side (docs/report.md). The numbers are the
// exports' (Table 1 computed as the JSON export computes it); the HTML is lib/export/report.ts.

/** Too many or no runs asked for: the doors answer with a usage error. */
export class ReportInputError extends Error {}

async function reportRun(runId: string): Promise<ReportRun> {
  const loaded = await loadRunForExport(runId);
  const { run, experiment } = loaded;
  const session = new ExportSession(loaded);
  const resolve = choiceResolver(experiment.spec);
  const grid: Choice[] = [];
  for await (const r of iterateChoiceRows(run.id)) {
    if (grid.length >= GRID_MAX_TRIALS) break;
    grid.push(resolve(r));
  }
  const byTrial = new Map(grid.map((c) => [c.trialId, c]));
  const failed: ReportFailure[] = [];
  let seen = 0;
  for await (const t of iterateTrialRecords(run.id, 500, { bodies: false })) {
    if (failed.length >= FAILED_MAX || ++seen > GRID_MAX_TRIALS) break;
    if (t.status !== 'failed') continue;
    const c = byTrial.get(t.id);
    failed.push({
      trialId: t.id,
      study: t.study,
      caseId: t.caseId,
      condition: t.condition,
      chosen: c?.chosen ?? '—',
      expected: c?.expected ?? null,
      text: t.observation?.text ?? null,
      failedChecks: t.verdicts.filter((v) => v.status === 'fail').map((v) => v.checkId),
    });
  }
  const [summary, choices, funnel, stopping, optimisation] = await Promise.all([
    session.table1(),
    runChoiceSummary(run.id, experiment.spec),
    runFunnel(run, experiment.spec),
    loadStoppingReport(run, experiment.spec),
    optimisationOfExportedRun(run.id),
  ]);
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  return redactSecrets({
    run: {
      id: run.id,
      name: run.name,
      note: run.note,
      provider: run.provider,
      model: run.model,
      status: run.status,
      statusLabel: runStatusLabel(run.status),
      simulated: isSimulatedProvider(run.provider),
      baseUrl: run.settings.baseUrl ?? null,
      settings: run.settings as unknown as Record<string, unknown>,
      createdAt: iso(run.createdAt)!,
      finishedAt: iso(run.finishedAt),
      totalTrials: run.totalTrials,
    },
    experiment: { id: experiment.id, name: experiment.name, version: experiment.version, specHash: experiment.specHash, spec: experiment.spec },
    summary,
    choices,
    grid,
    gridTotal: run.totalTrials,
    funnel: funnel.rows.map(exportFunnelRow) as unknown as Record<string, unknown>[],
    stopping,
    optimisation: optimisation && { stage: optimisation.stage, recordId: optimisation.record.id, markdown: recordMarkdown(optimisation.record) },
    failed,
  });
}

/**
 * The comparison's text: under the override recorded as `override` (the compare page's), else as the guard
 * allows; runs the guard refuses are reported each alone, with the refusal where the comparison would be.
 */
async function comparisonText(runIds: readonly string[], override: string | null): Promise<string> {
  try {
    return formatComparison(override ? (await compareRunsUnderOverride(runIds, 'case', override)).comparison : await compareRuns(runIds));
  } catch (e) {
    if (e instanceof SpecError && e.issues.some((i) => i.path === 'override')) return `Not compared: ${e.message}`;
    throw e;
  }
}

/**
 * The report of `runIds` as one self-contained HTML document: each run's Table 1 with its paired reading,
 * charts, what the model did, the funnel and stopping where they apply, the spec's essentials and provenance;
 * with two or more runs of one experiment, the comparison first (`tclab runs compare`'s text).
 */
export async function runReport(runIds: readonly string[], now = new Date(), override: string | null = null): Promise<string> {
  if (runIds.length === 0) throw new ReportInputError('name at least one run');
  if (runIds.length > MAX_COMPARED_RUNS) throw new ReportInputError(`at most ${MAX_COMPARED_RUNS} runs in one report`);
  const runs: ReportRun[] = [];
  for (const id of runIds) runs.push(await reportRun(id));
  const comparison = runIds.length > 1 ? await comparisonText(runIds, override) : null;
  const title =
    runs.length === 1
      ? `${runs[0].experiment.name} — run ${runs[0].run.name ?? runs[0].run.id} (${runs[0].run.provider}/${runs[0].run.model})`
      : `${runs[0].experiment.name} — ${runs.length} runs compared`;
  return reportHtml({ title, runs, comparison, generator: { name: 'Tool Contract Lab', version: pkg.version, at: now.toISOString() } });
}
