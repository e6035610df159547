import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { BrokenExperimentError, getExperiment, listVersions, experimentAudit } from '@/lib/experiments/read';
import { listRuns, runsProgress } from '@/lib/runs/read';
import { countMatrix } from '@/lib/design/matrix';
import { lintExperiment } from '@/lib/design/lint';
import { catalogCosts } from '@/lib/design/tokens';
import { availableProviders } from '@/lib/providers/registry';
import { MatrixCounts } from '@/components/experiments/MatrixCounts';
import { StudyView } from '@/components/experiments/StudyView';
import { CatalogReport } from '@/components/experiments/CatalogReport';
import { Planner } from '@/components/experiments/Planner';
import { ImportExperimentForm } from '@/components/experiments/ImportExperimentForm';
import { RunForm } from '@/components/experiments/RunForm';
import { startRunAction } from '@/components/experiments/actions';
import { RUN_FORM_FIELDS, defaultRunSettings } from '@/components/experiments/run-form';
import { RunsTable } from '@/components/runs/RunsTable';
import { formatDate } from '@/components/format';
import { editInDesignerAction } from '@/components/designer/actions';
import { pageActor } from '@/app/_auth/guard';
import { can } from '@/lib/auth/roles';
import { AuditList } from '@/components/audit/AuditList';
import { templateOf } from '@/lib/templates';
import { isSimulatedProvider } from '@/lib/providers/vendor-descriptors';
import { urls } from '@/lib/urls';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await pageParams(params);
  return { title: `Experiment ${id}` };
}

export const dynamic = 'force-dynamic';

export default async function ExperimentPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ imported?: string; from?: string; via?: string }>;
}) {
  const actor = await pageActor('read');
  const { id } = await pageParams(params);
  const { imported, from, via } = await searchParams;
  let exp: Awaited<ReturnType<typeof getExperiment>>;
  try {
    exp = await getExperiment(id);
  } catch (e) {
    // a row that cannot be read is shown as broken, with why; it never becomes an error page
    if (!(e instanceof BrokenExperimentError)) throw e;
    return (
      <>
        <h1>Experiment {id}</h1>
        <div className="errors" role="alert" data-testid="broken-experiment">
          <strong>This experiment&apos;s stored spec cannot be read</strong>
          <pre style={{ whiteSpace: 'pre-wrap' }}>{e.reason}</pre>
        </div>
        <p className="small">
          <Link href="/">← all experiments</Link>
        </p>
      </>
    );
  }
  if (!exp) notFound();
  const { spec } = exp;
  const matrix = countMatrix(spec);
  // the runs of every version, newest first: runs of two versions are picked here to compare
  const versions = await listVersions(exp.slug);
  const runs = (await Promise.all(versions.map((v) => listRuns(v.id)))).flat().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const progress = await runsProgress(runs.map((r) => r.id));
  const versionOf = new Map(versions.map((v) => [v.id, `v${v.version}`]));
  const runItems = runs.map((run) => ({ run, progress: progress.get(run.id)!, experimentName: versionOf.get(run.experimentId) }));
  const defaults = defaultRunSettings();
  const template = templateOf(exp.template);
  const providers = availableProviders();
  const audit = await experimentAudit(exp.id);

  return (
    <>
      {imported && (
        <div className="notice" role="status">
          {imported === 'new'
            ? via === 'designer'
              ? `Saved as ${exp.id} (version ${exp.version}).`
              : `Imported as ${exp.id} (version ${exp.version}).`
            : `This content is already stored as ${exp.id}; nothing new was stored.`}
        </div>
      )}
      {from === 'designer' && (
        <div className="notice" role="status" data-testid="designer-moved">
          That designer draft was saved as a version: this is {exp.id} (version {exp.version}), the newest. Edit it to start a new draft.
        </div>
      )}
      <div className="spread">
        <h1>{exp.name}</h1>
        <div className="row">
          {can(actor.role, 'experiment.write') && (
            <form action={editInDesignerAction.bind(null, exp.id)}>
              <button type="submit" className="primary">
                Edit in designer
              </button>
            </form>
          )}
          <a className="button" href={urls.experimentVersions(exp.id)}>
            Version history
          </a>
          <Link className="button" href={urls.experimentImprove(exp.id)} data-testid="improve-link">
            Improve descriptions
          </Link>
          <a className="button" href={`/api/experiments/${encodeURIComponent(exp.id)}`} download>
            Spec JSON
          </a>
        </div>
      </div>
      <p className="muted mono small">
        {exp.slug} · version {exp.version} · {exp.specHash.slice(0, 19)}… · stored {formatDate(exp.createdAt)}
        {exp.template && ` · template ${exp.template}`}
      </p>
      {spec.description && <p style={{ whiteSpace: 'pre-wrap' }}>{spec.description}</p>}

      <div className="grid-2">
        <section className="panel">
          <h2 style={{ marginTop: 0 }}>Matrix</h2>
          <p className="small muted">
            Scenarios: {spec.scenarios.map((s) => s.id).join(', ')} · locales: {spec.locales.join(', ')} · replicates: {spec.replicates}
          </p>
          <MatrixCounts matrix={matrix} />
          <h3>How many trials does a claim need?</h3>
          <Planner matrix={matrix} replicates={spec.replicates} />
        </section>
        <section className="panel" id="run">
          <h2 style={{ marginTop: 0 }}>Run</h2>
          {template && (
            <p className="notice small" data-testid="template-simulated">
              Offline, this template&apos;s effect shows with <strong>{template.simulated.model}</strong> (simulated, not a language model): {template.simulated.shows}{' '}
              {template.simulated.cannotShow}
            </p>
          )}
          {!can(actor.role, 'run.control') ? (
            <p className="muted" data-testid="run-not-allowed">
              Your role ({actor.role}) cannot start runs; a researcher or an admin can.
            </p>
          ) : (
            <RunForm
              action={startRunAction.bind(null, exp.id)}
              providers={providers}
              defaults={{
                provider: defaults.provider,
                // offline, a template runs on the simulated model that shows its effect
                model: isSimulatedProvider(defaults.provider) && template ? template.simulated.model : defaults.model,
                values: Object.fromEntries(RUN_FORM_FIELDS.map((f) => [f.name, defaults[f.name]])) as Record<(typeof RUN_FORM_FIELDS)[number]['name'], number | null>,
              }}
            />
          )}
        </section>
      </div>

      <h2>{versions.length > 1 ? 'Runs of this experiment, every version' : 'Runs of this experiment'}</h2>
      <RunsTable items={runItems} showExperiment={versions.length > 1} />

      <h2>Tool catalogs</h2>
      <CatalogReport costs={catalogCosts(spec)} findings={lintExperiment(spec)} />

      <h2>Studies</h2>
      {spec.studies.map((s) => (
        <StudyView key={s.id} spec={spec} study={s} />
      ))}
      {can(actor.role, 'experiment.write') && (
        <details data-testid="edit-experiment">
          <summary>Edit as a new version</summary>
          <ImportExperimentForm initialJson={JSON.stringify(spec, null, 2)} title={`Edit ${exp.slug} (saved as the next version)`} submitLabel="Save as new version" />
        </details>
      )}

      <h2>Audit</h2>
      <AuditList entries={audit} />
      <p className="small">
        <Link href="/">← all experiments</Link>
      </p>
    </>
  );
}
