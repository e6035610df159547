import Link from 'next/link';
import { listExperiments } from '@/lib/db/experiments';
import { countMatrix } from '@/lib/design/matrix';
import { ImportExperimentForm } from '@/components/experiments/ImportExperimentForm';
import { formatDate, formatInt } from '@/components/format';

export const dynamic = 'force-dynamic';

export default async function ExperimentsPage() {
  const rows = await listExperiments();
  // counted arithmetically; a row that cannot be read is shown as broken, the others as usual
  const details = rows.map((r) => {
    if (!r.spec) return { ...r, studies: [] as string[], formal: null, prechecks: null };
    const m = countMatrix(r.spec);
    return { ...r, studies: r.spec.studies.map((s) => `${s.id} (${s.kind})`), formal: m.formal, prechecks: m.prechecks };
  });
  return (
    <>
      <h1>Experiments</h1>
      <p className="muted">Frozen, versioned specs: studies, scenarios, locales, conditions and case cards. Open one to see its matrix and run it.</p>
      {details.length === 0 ? (
        <p className="panel">No experiments yet. Import one below, or seed the reference study with <code>npm run db:seed</code>.</p>
      ) : (
        <div className="table-scroll">
          <table data-testid="experiments">
            <thead>
              <tr>
                <th>Name</th>
                <th>Id / version</th>
                <th>Studies</th>
                <th className="num">Formal requests</th>
                <th className="num">Pre-checks</th>
                <th className="num">Runs</th>
                <th>Stored</th>
              </tr>
            </thead>
            <tbody>
              {details.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link href={`/experiments/${encodeURIComponent(e.id)}`}>{e.name}</Link>
                    {e.template && <span className="badge" style={{ marginLeft: 8 }}>template: {e.template}</span>}
                  </td>
                  <td className="mono">
                    {e.slug} · v{e.version}
                    {e.versions > e.version && <span className="muted small"> (latest v{e.versions})</span>}
                  </td>
                  <td>
                    {e.broken ? (
                      <span className="badge" data-testid="broken-experiment" title={e.broken}>
                        broken: {e.broken}
                      </span>
                    ) : (
                      e.studies.join(', ')
                    )}
                  </td>
                  <td className="num">{e.formal === null ? '—' : formatInt(e.formal)}</td>
                  <td className="num">{e.prechecks ?? '—'}</td>
                  <td className="num">{e.runs}</td>
                  <td className="small muted nowrap">{formatDate(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ImportExperimentForm />
    </>
  );
}
