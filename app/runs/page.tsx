import type { Metadata } from 'next';
import { listRuns, runsProgress } from '@/lib/db/runs';
import { listExperiments } from '@/lib/db/experiments';
import { RunsTable } from '@/components/runs/RunsTable';
import { pageActor } from '@/app/_auth/guard';

export const metadata: Metadata = { title: 'Runs' };

export const dynamic = 'force-dynamic';

export default async function RunsPage() {
  await pageActor('read');
  const [runs, experiments] = await Promise.all([listRuns(), listExperiments()]);
  const names = new Map(experiments.map((e) => [e.id, `${e.name} (v${e.version})`]));
  const progress = await runsProgress(runs.map((r) => r.id));
  const items = runs.map((run) => ({ run, progress: progress.get(run.id)!, experimentName: names.get(run.experimentId) }));
  return (
    <>
      <h1>Runs</h1>
      <p className="muted">Every run with its status and progress. Start a run from an experiment&apos;s page.</p>
      <RunsTable items={items} />
    </>
  );
}
