import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageActor } from '@/app/_auth/guard';
import { can } from '@/lib/auth/roles';
import { getTraceImport, reportOf } from '@/lib/cases/read';
import { reviewQueue } from '@/lib/cases/review';
import { JoinCasesForm, SaveCasesForm } from '@/components/cases/CaseForms';
import { listExperiments } from '@/lib/experiments/read';
import { urls } from '@/lib/urls';

export const metadata: Metadata = { title: 'Trace import' };

export const dynamic = 'force-dynamic';

const counts = (o: Record<string, number>) =>
  Object.entries(o)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

export default async function TraceImportPage({ params }: { params: Promise<{ importId: string }> }) {
  const actor = await pageActor('read');
  const { importId } = await params;
  const imp = await getTraceImport(importId);
  if (!imp) notFound();
  const report = reportOf(imp);
  const queue = await reviewQueue(importId);
  const firstUnreviewed = queue.items.find((i) => i.status === 'unreviewed');
  const accepted = queue.items.filter((i) => i.status === 'accepted').length;
  return (
    <>
      <p className="small">
        <Link href={urls.cases()}>Cases from traffic</Link>
      </p>
      <h1>
        Import of <span className="mono">{imp.file}</span>
      </h1>
      <p className="muted small">
        {imp.format} · {imp.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC · by {imp.actor}
        {imp.experimentId && <> · for {imp.experimentId}</>}
      </p>
      <dl className="kv panel" data-testid="trace-report">
        <dt>Read</dt>
        <dd>{report.read} records</dd>
        <dt>Stored</dt>
        <dd>
          {report.imported} candidates to review, {report.grouped} more grouped with a near-duplicate (reviewed with it) · catalog full {report.byCompleteness.full},
          names only {report.byCompleteness['names-only']}, missing {report.byCompleteness.missing}
        </dd>
        <dt>Dropped</dt>
        <dd>
          {report.duplicate} duplicates, {report.notSampled} not sampled
        </dd>
        <dt>Refused</dt>
        <dd>{counts(report.refused)}</dd>
        <dt>Skipped</dt>
        <dd>{counts(report.skipped)}</dd>
        <dt>Redacted</dt>
        <dd>{counts(report.redactions.byKind)}</dd>
      </dl>
      {report.refusals.length > 0 && (
        <details className="panel">
          <summary>Why records were refused (first {report.refusals.length})</summary>
          <ul className="small">
            {report.refusals.map((r, k) => (
              <li key={k}>
                {r.where}: {r.reason} — {r.detail}
              </li>
            ))}
          </ul>
        </details>
      )}
      <h2>Review</h2>
      <p data-testid="candidates-progress">
        {queue.progress.reviewed} of {queue.progress.total} candidates reviewed · {accepted} accepted
        {firstUnreviewed && can(actor.role, 'review.write') && (
          <>
            {' '}
            · <Link href={urls.candidate(importId, firstUnreviewed.seq)}>review the next one</Link>
          </>
        )}
      </p>
      <div className="table-scroll">
        <table data-testid="candidates">
          <thead>
            <tr>
              <th className="num">#</th>
              <th>What the user asked</th>
              <th>The model called</th>
              <th>Catalog</th>
              <th className="num">Group</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {queue.items.map((item) => (
              <tr key={item.seq}>
                <td className="num">
                  <Link href={urls.candidate(importId, item.seq)}>{item.seq}</Link>
                </td>
                <td>{item.firstUserText.length > 160 ? `${item.firstUserText.slice(0, 160)}…` : item.firstUserText}</td>
                <td className="mono">{item.observedTools.join(', ') || '(text)'}</td>
                <td>{item.catalogCompleteness}</td>
                <td className="num">{item.groupSize}</td>
                <td data-testid="candidate-status">{item.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {accepted > 0 && can(actor.role, 'experiment.write') && (
        <>
          <SaveCasesForm importId={importId} defaultId={`traces-${importId.slice(0, 8)}`} />
          <JoinCasesForm
            importId={importId}
            experiments={(await listExperiments()).map((e) => ({ id: e.id, label: `${e.name} (${e.id})` }))}
            defaultExperiment={imp.experimentId}
          />
        </>
      )}
    </>
  );
}
