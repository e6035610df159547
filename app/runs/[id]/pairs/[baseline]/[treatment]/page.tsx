import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { getRun, getTrialRecord } from '@/lib/runs/read';
import { getExperiment } from '@/lib/experiments/read';
import type { TrialRecord } from '@/lib/schema/trial-record';
import { runReviews, pairNeighbours, reviewFilterOf, reviewProgress, viewerOf } from '@/lib/reviews/reviews';
import { naturalDefinitions } from '@/lib/design/matrix';
import type { ExperimentSpec } from '@/lib/schema/experiment';
import type { Review } from '@/lib/schema/review';
import { AttemptView } from '@/components/runs/AttemptView';
import { ObservationView } from '@/components/runs/TrialDetail';
import { StatusBadge, SimulatedBadge } from '@/components/StatusBadge';
import { DefinitionsDiff } from '@/components/reviews/DefinitionsDiff';
import { PairReviewForm, ReadingFields, ReviewKeys } from '@/components/reviews/ReviewForm';
import { SentNames } from '@/components/reviews/SentNames';
import { pairHref } from '@/components/reviews/links';
import { trialSentNames } from '@/lib/analysis/tool-names';
import { jsonText, placeLabel } from '@/components/format';
import { pageActor } from '@/app/_auth/guard';
import { actorLabel, can } from '@/lib/auth/roles';
import { isSimulatedProvider } from '@/lib/providers/vendor-descriptors';
import { urls } from '@/lib/urls';

export async function generateMetadata({ params }: { params: Promise<{ id: string; baseline: string; treatment: string }> }): Promise<Metadata> {
  const { id } = await pageParams(params);
  return { title: `Pair in run ${id}` };
}

export const dynamic = 'force-dynamic';

/** Two trials of one pair (same case, order and replicate; two conditions) side by side, with reviews. */
export default async function PairPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string; baseline: string; treatment: string }>;
  searchParams: Promise<{ show?: string }>;
}) {
  const actor = await pageActor('read');
  const [{ id, baseline, treatment }, { show }] = await Promise.all([pageParams(params), searchParams]);
  const filter = reviewFilterOf(show);
  const [run, b, t] = await Promise.all([getRun(id), getTrialRecord(id, baseline), getTrialRecord(id, treatment)]);
  // both trials of this run and of one pair
  if (!run || !b || !t || b.pairKey !== t.pairKey) notFound();
  const [exp, reviews] = await Promise.all([getExperiment(run.experimentId), runReviews(id, [b.id, t.id])]);
  if (!exp) notFound();
  const [neighbours, progress] = await Promise.all([
    pairNeighbours(run.id, exp.spec, { baselineId: b.id, treatmentId: t.id }, filter, viewerOf(actor)),
    reviewProgress(run.id, exp.spec),
  ]);
  const study = exp.spec.studies.find((s) => s.id === b.study);
  const kase = study?.cases.find((c) => c.id === b.caseId);
  const runHref = urls.run(run.id);
  const canReview = can(actor.role, 'review.write');
  const reviewHref = urls.runReview(run.id, { show: filter || null });
  const names = (r: TrialRecord) => trialSentNames(exp.spec, r);
  // every scored check of both trials, one reading each in the pair's one form
  const scored = [b, t].flatMap((r) => r.verdicts.filter((v) => v.status === 'pass' || v.status === 'fail').map((v) => `${r.id}|${v.checkId}`));
  const indexOf = (trialId: string, checkId: string) => scored.indexOf(`${trialId}|${checkId}`);
  const label = (r: TrialRecord) => `${r.condition}${study?.conditions.find((c) => c.id === r.condition)?.baseline ? ' (baseline)' : ''}`;

  const sides = (
    <div className="side-by-side" data-testid="side-by-side">
      {[b, t].map((r) => (
        <section key={r.id} data-testid={`side-${r.condition}`}>
          <div className="row">
            <h2>{label(r)}</h2>
            <StatusBadge status={r.status} />
            <Link className="small" href={urls.trial(run.id, r.id)}>
              trial page
            </Link>
          </div>
          <p className="small">
            Tool order as sent:{' '}
            <span className="mono">
              <SentNames text={r.order.join(' > ')} names={names(r)} />
            </span>
          </p>
          <h3>Observation</h3>
          <ObservationView obs={r.observation} />
          <h3>Verdicts</h3>
          {r.verdicts.length === 0 && <p className="muted">No verdicts: the trial was not scored.</p>}
          {r.verdicts.map((v) => (
            <div className="panel" key={v.checkId} data-testid={`verdict-${r.condition}-${v.checkId}`}>
              <div className="row">
                <span className="mono">{v.checkId}</span>
                <span className="small muted">{v.axis}</span>
                <StatusBadge status={v.status} />
                {v.category && <span className="mono small">{v.category}</span>}
              </div>
              <p style={{ whiteSpace: 'pre-wrap', margin: '6px 0', overflowWrap: 'anywhere' }} data-testid="verdict-reason">
                <SentNames text={v.reason} names={names(r)} />
              </p>
              <details>
                <summary className="small">Evidence</summary>
                <pre className="text">
                  <SentNames text={jsonText(v.evidence)} names={names(r)} />
                </pre>
              </details>
              {(v.status === 'pass' || v.status === 'fail') && canReview && (
                <ReadingFields index={indexOf(r.id, v.checkId)} trialId={r.id} checkId={v.checkId} graderStatus={v.status} review={reviewOf(reviews, r.id, v.checkId)} />
              )}
              {!canReview && reviewOf(reviews, r.id, v.checkId) && (
                <p className="small muted" data-testid="stored-review">
                  reviewed {reviewOf(reviews, r.id, v.checkId)!.humanStatus} by {reviewOf(reviews, r.id, v.checkId)!.reviewer}
                </p>
              )}
            </div>
          ))}
          <h3>Last attempt</h3>
          {r.attempts.length === 0 ? <p className="muted">Not sent.</p> : <AttemptView a={r.attempts[r.attempts.length - 1]} />}
        </section>
      ))}
    </div>
  );

  return (
    <>
      <p className="small">
        <Link href={reviewHref}>← review{filter ? ` (${filter})` : ''}</Link> · <Link href={runHref}>run {run.id}</Link>
      </p>
      <ReviewKeys />
      <nav className="row small pair-nav" aria-label="Review queue" data-testid="pair-nav">
        {neighbours.prev ? (
          <Link href={pairHref(run.id, neighbours.prev, filter)} data-testid="pair-prev" rel="prev">
            ← previous
          </Link>
        ) : (
          <span className="muted">← previous</span>
        )}
        {neighbours.next ? (
          <Link href={pairHref(run.id, neighbours.next, filter)} data-testid="pair-next" rel="next">
            next →
          </Link>
        ) : (
          <span className="muted">next →</span>
        )}
        <span className="muted" data-testid="review-progress">
          {progress.reviewed} of {progress.pairs} {progress.pairs === 1 ? 'pair' : 'pairs'} reviewed
          {!neighbours.inList && ' · this pair is not in the review list'}
        </span>
      </nav>
      <div className="row">
        <h1 style={{ fontSize: '1.3rem' }}>
          {b.study} · {b.scenario} / {b.locale} · case <span className="mono">{b.caseId}</span> ·{' '}
          <span data-testid="trial-place">{placeLabel(b.orderIndex, b.replicate)}</span>
        </h1>
        {isSimulatedProvider(run.provider) && <SimulatedBadge />}
      </div>
      {kase && (
        <div className="panel">
          <pre className="text" data-testid="task-text">
            {kase.task}
          </pre>
        </div>
      )}

      <h2>Definitions sent</h2>
      <DefinitionsDiff before={definitionsText(exp.spec, b)} after={definitionsText(exp.spec, t)} beforeLabel={label(b)} afterLabel={label(t)} />

      {canReview ? (
        <PairReviewForm
          runId={run.id}
          reviewer={actorLabel(actor)}
          count={scored.length}
          stored={reviews.filter((x) => scored.includes(`${x.trialId}|${x.checkId}`)).length}
          nextHref={neighbours.next ? pairHref(run.id, neighbours.next, filter) : null}
        >
          {sides}
        </PairReviewForm>
      ) : (
        sides
      )}
    </>
  );
}

function reviewOf(reviews: Review[], trialId: string, checkId: string): { humanStatus: string; reviewer: string; note: string } | null {
  const r = reviews.find((x) => x.trialId === trialId && x.checkId === checkId);
  return r ? { humanStatus: r.humanStatus, reviewer: r.reviewer, note: r.note } : null;
}

/** The definitions a trial's condition sends for its scenario and locale, as comparable text. */
function definitionsText(spec: ExperimentSpec, r: TrialRecord): string {
  const condition = spec.studies.find((s) => s.id === r.study)?.conditions.find((c) => c.id === r.condition);
  if (!condition) return '(condition not in the experiment)';
  return naturalDefinitions(spec, condition, r.scenario, r.locale)
    .map((d) =>
      [`${d.name}`, `  description: ${d.description.replace(/\n/g, '\n    ')}`, `  parameters: ${JSON.stringify(d.parameters, null, 2).replace(/\n/g, '\n  ')}`].join(
        '\n',
      ),
    )
    .join('\n\n');
}
