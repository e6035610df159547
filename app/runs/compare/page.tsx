import type { Metadata } from 'next';
import { compareRuns } from '@/lib/runs/compare';
import { SpecError } from '@/lib/schema/common';
import { ClusterBy } from '@/lib/schema/table1';
import { RunComparison } from '@/components/runs/RunComparison';
import { pageActor } from '@/app/_auth/guard';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Compare runs' };

/** /runs/compare?ids=A,B[,…][&cluster=scenario]: runs of one experiment (one version or several) side by side. */
export default async function ComparePage({ searchParams }: { searchParams: Promise<{ ids?: string | string[]; cluster?: string }> }) {
  await pageActor('read');
  const { ids, cluster } = await searchParams;
  const runIds = (Array.isArray(ids) ? ids : [ids ?? ''])
    .flatMap((x) => x.split(','))
    .map((x) => x.trim())
    .filter(Boolean);
  const clusterBy = ClusterBy.safeParse(cluster ?? 'case');
  let comparison: Awaited<ReturnType<typeof compareRuns>> | null = null;
  let error: string | null = null;
  try {
    if (!clusterBy.success) throw new SpecError('cluster: expected case or scenario', [{ path: 'cluster', message: 'case or scenario' }]);
    comparison = await compareRuns(runIds, clusterBy.data);
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    error = e.message;
  }
  return (
    <>
      <h1>Compare runs</h1>
      <p className="small muted">
        Runs of one experiment, of one version or of several: what changed between the versions, every run against the first on identical trials of the unchanged cases,
        and Table 1 of each run (its own paired effect of the definitions included). Also on the command line:{' '}
        <span className="mono">tclab runs compare {runIds.join(' ') || 'RUN RUN'}</span>.
      </p>
      {comparison ? (
        <RunComparison comparison={comparison} />
      ) : (
        <p className="field-error" role="alert" data-testid="compare-error">
          {error}
        </p>
      )}
    </>
  );
}
