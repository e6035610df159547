import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { getRun, getTrialRecord } from '@/lib/runs/read';
import { getExperiment } from '@/lib/experiments/read';
import { trialIdOf, trialKeyOf } from '@/lib/design/matrix';
import { AttemptView } from '@/components/runs/AttemptView';
import { ObservationView, VerdictsView } from '@/components/runs/TrialDetail';
import { StatusBadge, SimulatedBadge } from '@/components/StatusBadge';
import { toTrialRow } from '@/lib/schema/trial-page';
import { jsonText, placeLabel } from '@/components/format';
import { checksFor } from '@/lib/schema/experiment';
import { isConversationKind, kindModule } from '@/lib/studies/registry';
import { taskTrialView } from '@/lib/studies/task/view';
import { TaskTranscript } from '@/components/runs/TaskTranscript';
import { pageActor } from '@/app/_auth/guard';
import { isSimulatedProvider } from '@/lib/providers/vendor-descriptors';
import { urls } from '@/lib/urls';
import { trialSentNames } from '@/lib/analysis/tool-names';

export async function generateMetadata({ params }: { params: Promise<{ id: string; trialId: string }> }): Promise<Metadata> {
  const { trialId } = await pageParams(params);
  return { title: `Trial ${trialId}` };
}

export const dynamic = 'force-dynamic';

export default async function TrialPage({ params }: { params: Promise<{ id: string; trialId: string }> }) {
  await pageActor('read');
  const { id, trialId } = await pageParams(params);
  const [run, t] = await Promise.all([getRun(id), getTrialRecord(id, trialId)]);
  if (!run || !t) notFound(); // a trial of another run is not found under this run
  const exp = await getExperiment(run.experimentId);
  const study = exp?.spec.studies.find((s) => s.id === t.study);
  const kase = study?.cases.find((c) => c.id === t.caseId);
  const kindDetails = study && kase ? kindModule(study.kind).caseDetails(kase) : null;
  const row = toTrialRow({ ...t, categories: [] });
  const partners = (study?.conditions ?? [])
    .filter((c) => c.id !== t.condition)
    .map((c) => ({ condition: c.id, baseline: c.baseline, id: trialIdOf(run.id, trialKeyOf({ ...t, condition: c.id })) }));
  const runHref = urls.run(run.id);

  return (
    <>
      <p className="small">
        <Link href={runHref}>← run {run.id}</Link>
      </p>
      <div className="row">
        <h1 className="mono" style={{ fontSize: '1.25rem' }}>
          Trial {t.id}
        </h1>
        <StatusBadge status={t.status} testId="trial-status" />
        {isSimulatedProvider(run.provider) && <SimulatedBadge />}
      </div>
      <section className="panel grid-2">
        <dl className="kv" data-testid="coordinates">
          <dt>Study</dt>
          <dd className="mono">
            {t.study} ({t.kind})
          </dd>
          <dt>Scenario / locale</dt>
          <dd className="mono">
            {t.scenario} / {t.locale}
          </dd>
          <dt>Case</dt>
          <dd className="mono">{t.caseId}</dd>
          <dt>Condition</dt>
          <dd className="mono">
            {t.condition}
            {study?.conditions.find((c) => c.id === t.condition)?.baseline && ' (baseline)'}
          </dd>
          <dt>Order / replicate</dt>
          <dd className="mono" data-testid="trial-place">
            {placeLabel(row.order, t.replicate)}
          </dd>
          <dt>Provider / model</dt>
          <dd className="mono">
            {run.provider} / {run.model}
          </dd>
        </dl>
        <dl className="kv">
          <dt>Tool order as sent</dt>
          <dd className="mono" data-testid="tool-order">
            {t.order.join(' > ')}
          </dd>
          <dt>tool_set_ref</dt>
          <dd className="mono small" style={{ wordBreak: 'break-all' }}>
            {t.toolSetRef}
          </dd>
          <dt>Trial key</dt>
          <dd className="mono small">{t.trialKey}</dd>
          <dt>Pair</dt>
          <dd>
            {partners.map((p) => {
              // the pair page shows the baseline on the left
              const [left, right] = p.baseline ? [p.id, t.id] : [t.id, p.id];
              return (
                <div key={p.id}>
                  <Link href={urls.trial(run.id, p.id)}>
                    {p.condition}
                    {p.baseline ? ' (baseline)' : ''}
                  </Link>{' '}
                  · <Link href={urls.trialPair(run.id, left, right)}>side by side</Link>
                </div>
              );
            })}
          </dd>
        </dl>
      </section>

      {kase && (
        <>
          <h2>Task and case card</h2>
          <div className="panel">
            <pre className="text" data-testid="task-text">
              {kase.task}
            </pre>
            <p className="small">
              TCC v0.1:{' '}
              <a href={urls.api.trialTcc(run.id, t.id, 'card')} data-testid="tcc-card">
                case card
              </a>{' '}
              · <a href={urls.api.trialTcc(run.id, t.id, 'observations')}>observation file</a> (compare them with <code>tclab compare</code>)
            </p>
            <details>
              <summary>Case-card checks (as they apply to this condition)</summary>
              <pre className="text">{jsonText(checksFor(kase, t.condition))}</pre>
              {kindDetails && <pre className="text">{jsonText(kindDetails)}</pre>}
            </details>
          </div>
        </>
      )}

      {isConversationKind(t.kind) && <TaskTranscript view={taskTrialView(t.turns, t.details)} />}

      <h2>Observation</h2>
      <ObservationView obs={t.observation} />

      <h2>Checkpoints</h2>
      {t.checkpoints ? (
        <dl className="kv panel" data-testid="checkpoints">
          {Object.entries(t.checkpoints).map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd>
                <StatusBadge status={v} />
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="muted">Not scored: no model answer was recorded for this trial.</p>
      )}

      <h2>Verdicts</h2>
      <VerdictsView verdicts={t.verdicts} names={exp ? trialSentNames(exp.spec, t) : undefined} />

      <h2>Attempts ({t.attempts.length})</h2>
      {t.attempts.length === 0 && <p className="muted">Not sent yet.</p>}
      {t.attempts.map((a, i) => (
        <AttemptView key={a.n} a={a} open={i === t.attempts.length - 1} />
      ))}
    </>
  );
}
