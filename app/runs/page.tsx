import type { Metadata } from 'next';
import Link from 'next/link';
import { listRuns, runsProgress } from '@/lib/runs/read';
import { listExperiments } from '@/lib/experiments/read';
import { RunsTable } from '@/components/runs/RunsTable';
import { pageActor } from '@/app/_auth/guard';

export const metadata: Metadata = { title: 'Runs' };

export const dynamic = 'force-dynamic';

export default async function RunsPage({ searchParams }: { searchParams: Promise<{ q?: string | string[] }> }) {
  await pageActor('read');
  const raw = (await searchParams).q;
  const q = (Array.isArray(raw) ? raw[0] : raw)?.trim().slice(0, 200) ?? '';
  const [runs, experiments] = await Promise.all([listRuns(undefined, q), listExperiments()]);
  const names = new Map(experiments.map((e) => [e.id, `${e.name} (v${e.version})`]));
  const progress = await runsProgress(runs.map((r) => r.id));
  const items = runs.map((run) => ({ run, progress: progress.get(run.id)!, experimentName: names.get(run.experimentId) }));
  return (
    <>
      <h1>Runs</h1>
      <p className="muted">Every run with its status and progress. Start a run from an experiment&apos;s page.</p>
      <form method="get" className="row" role="search" style={{ marginBottom: 12 }}>
        <input type="search" name="q" defaultValue={q} placeholder="Search names and notes" aria-label="Search runs by name or note" />
        <button type="submit">Search</button>
        {q && (
          <>
            <span className="small muted" data-testid="runs-search-count">
              {runs.length} run{runs.length === 1 ? '' : 's'} whose name or note contains “{q}”
            </span>
            <Link href="/runs">show all</Link>
          </>
        )}
      </form>
      <RunsTable items={items} empty={q ? `No run's name or note contains “${q}”.` : undefined} />
    </>
  );
}
