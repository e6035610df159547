import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { pageActor } from '@/app/_auth/guard';
import { can } from '@/lib/auth/roles';
import { getExperiment } from '@/lib/experiments/read';
import { listOptimisations } from '@/lib/optimise/read';
import { templateOf } from '@/lib/templates';
import { SIMULATED_ENGINE } from '@/lib/simulator';
import { urls } from '@/lib/urls';
import { DocLink } from '@/components/DocLink';
import { OptimiseForm, RefreshWhileRunning } from '@/components/optimise/OptimiseForm';
import { OptimisationView, isFinalStage } from '@/components/optimise/OptimisationView';
import { startOptimisationAction } from '@/components/optimise/actions';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await pageParams(params);
  return { title: `Improve descriptions · ${id}` };
}

export const dynamic = 'force-dynamic';

/** Improve an experiment's descriptions: candidates chosen on a select split, the frozen winner confirmed on a sealed one. */
export default async function ImprovePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ record?: string }> }) {
  const actor = await pageActor('read');
  const { id } = await pageParams(params);
  const { record } = await searchParams;
  const exp = await getExperiment(id).catch(() => null);
  if (!exp) notFound();
  const records = await listOptimisations(exp.id);
  // the record asked for first, then the others newest first
  const shown = [...records].sort((a, b) => Number(b.id === record) - Number(a.id === record) || b.createdAt.getTime() - a.createdAt.getTime());
  const template = templateOf(exp.template);
  return (
    <>
      <h1>Improve descriptions</h1>
      <p className="muted small">
        <Link href={urls.experiment(exp.id)}>{exp.name}</Link> <span className="mono">({exp.id})</span>
      </p>
      <p className="small">
        The study&apos;s cases are split three ways. Candidate rewrites — the fix of each linter finding a rule can fix, the conditions written by hand, and a placebo as
        a control — run against the baseline on the <em>select</em> split; the winner is frozen by a rule stated beforehand, and only then run once on the sealed{' '}
        <em>confirm</em> split, which nothing has seen, with p-values Holm-adjusted over every claim and every earlier look. See <DocLink page="optimise" />.
      </p>
      {can(actor.role, 'run.control') ? (
        <OptimiseForm
          action={startOptimisationAction.bind(null, exp.id)}
          studies={exp.spec.studies.map((s) => ({
            id: s.id,
            split: s.splits ? `${s.splits.tune}/${s.splits.select}/${s.splits.confirm}` : null,
            seed: s.splits?.seed ?? null,
          }))}
          defaultTargets={`simulated:${template?.simulated.model ?? SIMULATED_ENGINE}`}
        />
      ) : (
        <p className="muted" data-testid="optimise-not-allowed">
          Your role ({actor.role}) cannot start runs; a researcher or an admin can.
        </p>
      )}
      <h2>Records</h2>
      {shown.length === 0 && <p className="muted">Nothing improved here yet.</p>}
      {shown.map((r) => (
        <OptimisationView key={r.id} record={r} />
      ))}
      <RefreshWhileRunning active={shown.some((r) => !isFinalStage(r.stage))} />
    </>
  );
}
