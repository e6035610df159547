import type { Metadata } from 'next';
import Link from 'next/link';
import { listExperiments, listDrafts } from '@/lib/experiments/read';
import { countMatrix } from '@/lib/design/matrix';
import { ImportExperimentForm } from '@/components/experiments/ImportExperimentForm';
import { formatDate, formatInt } from '@/components/format';
import { NewExperimentForm } from '@/components/designer/NewExperimentForm';
import { RowActions } from '@/components/designer/RowActions';
import { TEMPLATES } from '@/lib/templates';
import { bfclCategories } from '@/lib/bfcl/categories';

import { pageActor } from '@/app/_auth/guard';
import { can } from '@/lib/auth/roles';
import { configuredServerNames, mayRunAnyCommand } from '@/lib/mcp/policy';
import { urls } from '@/lib/urls';

// the layout's title template applies to child segments only, not to the page beside it
export const metadata: Metadata = { title: { absolute: 'Experiments · Tool Contract Lab' } };

export const dynamic = 'force-dynamic';

export default async function ExperimentsPage({ searchParams }: { searchParams: Promise<{ archived?: string }> }) {
  const actor = await pageActor('read');
  const showArchived = (await searchParams).archived === '1';
  const rows = await listExperiments({ archived: showArchived });
  const drafts = await listDrafts();
  // counted arithmetically; a row that cannot be read is shown as broken, the others as usual
  const details = rows.map((r) => {
    if (!r.spec) return { ...r, studies: [] as string[], formal: null, prechecks: null };
    const m = countMatrix(r.spec);
    return { ...r, studies: r.spec.studies.map((s) => `${s.id} (${s.kind})`), formal: m.formal, prechecks: m.prechecks };
  });
  // the newest stored version of the reference study's template: where a newcomer starts
  const reference = rows.filter((r) => r.template === 'reference-study').sort((a, b) => b.version - a.version)[0];
  return (
    <>
      <h1>Experiments</h1>
      <p className="muted">Frozen, versioned specs: studies, scenarios, locales, conditions and case cards. Open one to see its matrix and run it.</p>
      {drafts.length > 0 && (
        <section className="panel" aria-label="Drafts">
          <h2 style={{ marginTop: 0 }}>Drafts in the designer</h2>
          <ul data-testid="drafts">
            {drafts.map((d) => (
              <li key={d.slug}>
                <Link href={urls.designer(d.slug)}>{typeof d.content.name === 'string' && d.content.name ? d.content.name : d.slug}</Link>{' '}
                <span className="mono small muted">
                  {d.slug} {d.baseVersion ? `(from v${d.baseVersion})` : '(new)'} · saved {formatDate(d.updatedAt)}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {reference && !showArchived && (
        <details className="panel" open={details.every((e) => e.runs === 0)} data-testid="start-here">
          <summary>
            <strong>Start here</strong> <span className="muted small">the loop in four steps, offline, in about two minutes</span>
          </summary>
          <ol>
            <li>
              Open <Link href={urls.experiment(reference.id)}>{reference.name}</Link> and press <strong>Run</strong>: a simulated model answers, no key needed.
            </li>
            <li>
              <strong>Edit in designer</strong>: <em>Contents</em> jumps to a tool description; change it and <strong>Save as version 2</strong>.
            </li>
            <li>Run the new version the same way.</li>
            <li>
              On the experiment page, tick both runs and <strong>Compare</strong>: the page says in words whether the edit helped, and how many pairs would settle it.
            </li>
          </ol>
          <p className="small muted" style={{ marginBottom: 0 }}>
            Then: <Link href="/docs">the docs</Link>, or <em>Improve descriptions</em> on an experiment page to let rule-driven rewrites compete on a sealed split.
          </p>
        </details>
      )}
      <p className="small">{showArchived ? <Link href="/">← current experiments</Link> : <Link href="/?archived=1">Archived experiments</Link>}</p>
      {details.length === 0 ? (
        <p className="panel">
          No experiments yet. Import one below, or seed the reference study with <code>npm run db:seed</code>.
        </p>
      ) : (
        <div className="table-scroll">
          <table data-testid="experiments" className="stack">
            <thead>
              <tr>
                <th>Name</th>
                <th>Id / version</th>
                <th>Studies</th>
                <th className="num">Formal requests</th>
                <th className="num">Pre-checks</th>
                <th className="num">Runs</th>
                <th>Stored</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {details.map((e) => (
                <tr key={e.id}>
                  <td data-label="Name">
                    <Link href={urls.experiment(e.id)}>{e.name}</Link>
                    {e.template && (
                      <span className="badge" style={{ marginLeft: 8 }}>
                        template: {e.template}
                      </span>
                    )}
                  </td>
                  <td className="mono" data-label="Id / version">
                    {e.slug} · v{e.version}
                    {e.versions > e.version && <span className="muted small"> (latest v{e.versions})</span>}
                  </td>
                  <td data-label="Studies">
                    {e.broken ? (
                      <span className="badge" data-testid="broken-experiment" title={e.broken}>
                        broken: {e.broken}
                      </span>
                    ) : (
                      e.studies.join(', ')
                    )}
                  </td>
                  <td className="num" data-label="Formal requests">
                    {e.formal === null ? '—' : formatInt(e.formal)}
                  </td>
                  <td className="num" data-label="Pre-checks">
                    {e.prechecks ?? '—'}
                  </td>
                  <td className="num" data-label="Runs">
                    {e.runs}
                  </td>
                  <td className="small muted nowrap" data-label="Stored">
                    {formatDate(e.createdAt)}
                  </td>
                  <td data-label="Actions">
                    {e.versions === e.version && can(actor.role, 'experiment.write') && <RowActions experimentId={e.id} slug={e.slug} archived={showArchived} />}
                    <Link className="small" href={urls.experimentVersions(e.id)}>
                      versions
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {can(actor.role, 'experiment.write') && (
        <>
          <NewExperimentForm
            templates={Object.values(TEMPLATES).map((t) => ({ id: t.id, name: t.name }))}
            categories={bfclCategories()}
            mcp={{ servers: configuredServerNames(), anyCommand: mayRunAnyCommand(actor) }}
          />
          <ImportExperimentForm />
        </>
      )}
    </>
  );
}
