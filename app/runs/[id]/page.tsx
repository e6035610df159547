import { CostTable } from '@/components/results/Outcomes';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { loadRunPage } from '@/lib/runs/page';
import { RunHeader } from '@/components/runs/RunHeader';
import { destinationText } from '@/lib/providers/precheck';
import { RunLive } from '@/components/runs/RunLive';
import { RunLabelForm } from '@/components/runs/RunLabelForm';
import { AttemptView } from '@/components/runs/AttemptView';
import { Table1 } from '@/components/Table1';
import { PlanDelta } from '@/components/runs/PlanDelta';
import { AblationTable } from '@/components/runs/AblationTable';
import { TrialsTable } from '@/components/TrialsTable';
import { OrderConsistencyPanel, ResultCharts } from '@/components/results/Statistics';
import { pageActor } from '@/app/_auth/guard';
import { AuditList } from '@/components/audit/AuditList';
import { can } from '@/lib/auth/roles';
import { fixedNIntervals } from '@/lib/analysis/stopping';
import { StoppingPanel } from '@/components/runs/StoppingPanel';
import { BatchPanel } from '@/components/runs/BatchPanel';
import { ChoiceGrid, ChoiceMatrices, ChoicePositionTable, sectionParam } from '@/components/runs/ChoiceViews';
import { isSimulatedProvider } from '@/lib/providers/vendor-descriptors';
import { urls } from '@/lib/urls';
import { DOWNLOAD_FORMATS } from '@/lib/runs/export';
import { Funnel } from '@/components/runs/Funnel';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await pageParams(params);
  return { title: `Run ${id}` };
}

export const dynamic = 'force-dynamic';

export default async function RunPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ cluster?: string; choices?: string; choicesFrom?: string; choicesChanged?: string }>;
}) {
  const actor = await pageActor('read');
  const [{ id }, { cluster, choices: choiceSection, choicesFrom, choicesChanged }] = await Promise.all([pageParams(params), searchParams]);
  const clusterBy = cluster === 'scenario' ? 'scenario' : 'case';
  const page = await loadRunPage(id, { clusterBy, choiceSection, choicesFrom: Number(choicesFrom ?? 0) });
  if (!page) notFound();
  const { run, exp, progress, prechecks, audit, summary, choices, stopping, funnel, group, batch, published, optimisation } = page;

  return (
    <>
      <RunHeader
        run={run}
        experimentName={`${exp.name} (v${exp.version})`}
        destination={destinationText(run.provider, run.settings.baseUrl)}
        simulated={isSimulatedProvider(run.provider)}
      />
      {can(actor.role, 'run.control') && <RunLabelForm runId={id} name={run.name} note={run.note} />}
      <RunLive runId={id} initial={{ status: run.status, statusReason: run.statusReason, progress }} canControl={can(actor.role, 'run.control')} />
      {batch && <BatchPanel state={batch} />}
      {stopping && stopping.studies.some((s) => s.stopped) && (
        <p className="notice" data-testid="stopped-when-decided">
          Stop when decided:{' '}
          {stopping.studies
            .filter((s) => s.stopped)
            .map((s) => `${s.study} ${s.headline}`)
            .join('; ')}{' '}
          — <a href="#stopping">why</a>
        </p>
      )}
      {optimisation && (
        <p className="notice" data-testid="run-optimisation">
          {optimisation.stage === 'select'
            ? 'The select run of an optimisation: every candidate against the baseline on the select split; its p-values choose, they prove nothing. '
            : 'A confirm run of an optimisation: the frozen winner against the baseline on the sealed split. '}
          <Link href={urls.experimentImprove(optimisation.experimentId, { record: optimisation.id })}>The record</Link>
        </p>
      )}
      {group.length > 1 && (
        <p className="notice" data-testid="run-group">
          One of {group.length} runs started together ({group.map((r) => `${r.provider}/${r.model}`).join(', ')}):{' '}
          <Link href={urls.compare(group.map((r) => r.id))}>compare them trial by trial</Link>
        </p>
      )}

      <div className="spread">
        <h2>Table 1</h2>
        <div className="row">
          <Link className="button" href={urls.runReview(id)} data-testid="review-link">
            Review failures
          </Link>
          <a className="button" href={urls.api.runReport([id])} download data-testid="download-report">
            Report (HTML)
          </a>
          {DOWNLOAD_FORMATS.map((f) => (
            <a key={f.name} className="button" href={urls.api.runExport(id, f.name)} download data-testid={`download-${f.name.replace('.', '-')}`}>
              {f.label}
            </a>
          ))}
        </div>
      </div>
      {progress.done < progress.total && (
        <p className="small muted">Partial: {progress.total - progress.done} trials are not final yet; the table fills in as they finish.</p>
      )}
      <PlanDelta>
        <Table1 summary={summary} published={published} />
      </PlanDelta>
      {stopping && <StoppingPanel report={stopping} fixedN={fixedNIntervals(summary)} />}
      {summary.ablations && summary.ablations.length > 0 && <AblationTable ablations={summary.ablations} />}
      {summary.studies.some((s) => s.orderConsistency) && (
        <>
          <h2>Order consistency</h2>
          <div className="grid-2">
            {summary.studies.map((s) => (
              <OrderConsistencyPanel key={s.study + s.treatment} s={s} runId={id} />
            ))}
          </div>
        </>
      )}
      <ResultCharts summary={summary} />
      <Funnel funnel={funnel} />
      {summary.studies.some((s) => s.cost) && (
        <>
          <h2 id="cost">Cost as an outcome</h2>
          <div className="grid-2">
            {summary.studies.map((s) => (
              <CostTable key={s.study + s.treatment} s={s} />
            ))}
          </div>
        </>
      )}

      <h2 id="what-the-model-did">What the model did</h2>
      {choices.current && (
        <ChoiceGrid
          runId={id}
          sections={choices.sections}
          current={choices.current}
          grid={choices.grid}
          page={choices.page}
          changedOnly={choicesChanged === '1'}
          changedHref={(on) =>
            urls.run(id, { choices: sectionParam(choices.current!), choicesFrom: choicesFrom ?? null, choicesChanged: on ? '1' : null }, '#what-the-model-did')
          }
        />
      )}
      <h3>Expected × chosen, per condition</h3>
      <ChoiceMatrices matrices={choices.matrix} />
      <h3>Which position the chosen tool held</h3>
      <ChoicePositionTable positions={choices.positions} />

      {prechecks.length > 0 && (
        <>
          <h2>Pre-checks</h2>
          <p className="small muted">Sent before the run to test credentials and wiring; never in any denominator.</p>
          {prechecks.map((a) => (
            <AttemptView key={a.n} a={a} />
          ))}
        </>
      )}

      <h2>Trials</h2>
      <TrialsTable runId={id} refreshKey={`${run.status}:${progress.done}`} />

      <h2>Audit</h2>
      <AuditList entries={audit} />
    </>
  );
}
