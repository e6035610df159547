import type { Metadata } from 'next';
import Link from 'next/link';
import { pageActor } from '@/app/_auth/guard';
import { can } from '@/lib/auth/roles';
import { listTraceImports, reportOf } from '@/lib/cases/read';
import { listExperiments } from '@/lib/experiments/read';
import { ImportTracesForm } from '@/components/cases/CaseForms';
import { urls } from '@/lib/urls';
import { DocLink } from '@/components/DocLink';

export const metadata: Metadata = { title: 'Cases from traffic' };

export const dynamic = 'force-dynamic';

export default async function CasesPage() {
  const actor = await pageActor('read');
  const [imports, experiments] = await Promise.all([listTraceImports(), listExperiments()]);
  return (
    <>
      <h1>Cases from traffic</h1>
      <p className="muted">
        Requests users really sent, from a trace or a request/response log: each model call that offered tools becomes a candidate case; a reviewer writes what should
        have happened, and the accepted cases become an experiment. See <DocLink page="traces" />.
      </p>
      <div className="table-scroll">
        <table data-testid="trace-imports">
          <thead>
            <tr>
              <th>Import</th>
              <th>Format</th>
              <th>File</th>
              <th className="num">Read</th>
              <th className="num">Candidates</th>
              <th>By</th>
            </tr>
          </thead>
          <tbody>
            {imports.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  No traces imported yet.
                </td>
              </tr>
            )}
            {imports.map((imp) => {
              const report = reportOf(imp);
              return (
                <tr key={imp.id}>
                  <td>
                    <Link href={urls.traceImport(imp.id)}>{imp.createdAt.toISOString().slice(0, 16).replace('T', ' ')}</Link>
                  </td>
                  <td>{imp.format}</td>
                  <td className="mono">{imp.file}</td>
                  <td className="num">{report.read}</td>
                  <td className="num">{report.imported}</td>
                  <td>{imp.actor}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {can(actor.role, 'experiment.write') && <ImportTracesForm experiments={experiments.map((e) => ({ id: e.id, label: `${e.name} (${e.id})` }))} />}
    </>
  );
}
