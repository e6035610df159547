import { compareWithPublished } from '../analysis/published';
import { runAudit } from '../db/audit';
import { getExperiment } from '../db/experiments';
import { precheckAttempts } from '../db/results';
import { getRun, listRunGroup, runProgress } from '../db/runs';
import { optimisationOfRun } from '../db/optimisations';
import type { ClusterBy } from '../schema/table1';
import { REFERENCE_STUDY_ID, REFERENCE_STUDY_PUBLISHED } from '../templates';
import { runBatchState } from './batch';
import { loadRunChoices } from './choices';
import { runFunnel } from './funnel';
import { loadStoppingReport } from './stopping';
import { loadRunSummary } from './summary';

// Use case: everything the run page shows of one run, read once — the run and its experiment, its progress,
// pre-flight checks and audit trail, Table 1, the choice grid's section, the stopping report, the funnel, the
// runs started with it, its provider batches, and (for the reference study) the published figures beside
// Table 1.

/** What the run page shows; null when the run (or its experiment) is not there. */
export async function loadRunPage(id: string, opts: { clusterBy: ClusterBy; choiceSection?: string; choicesFrom: number }) {
  const run = await getRun(id);
  if (!run) return null;
  const [exp, progress, prechecks, audit] = await Promise.all([getExperiment(run.experimentId), runProgress(id), precheckAttempts(id), runAudit(id)]);
  if (!exp) return null;
  const [summary, choices, stopping, funnel] = await Promise.all([
    loadRunSummary(run, exp.spec, opts.clusterBy),
    loadRunChoices(id, exp.spec, opts.choiceSection, opts.choicesFrom),
    loadStoppingReport(run, exp.spec),
    runFunnel(run, exp.spec),
  ]);
  const group = run.groupId ? await listRunGroup(run.groupId) : [];
  // a select or confirm run of the improve-descriptions loop (docs/optimise.md) says so and links its record
  const optimisation = await optimisationOfRun(run.id);
  const batch = run.settings.batch ? await runBatchState(id) : null;
  const published = exp.template === REFERENCE_STUDY_ID ? compareWithPublished(summary, REFERENCE_STUDY_PUBLISHED) : null;
  return { run, exp, progress, prechecks, audit, summary, choices, stopping, funnel, group, batch, published, optimisation };
}
