import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { pageParams } from '@/app/_ids';
import { getRun } from '@/lib/runs/read';
import { getExperiment } from '@/lib/experiments/read';
import {
  assignmentCounts,
  reviewAgreement,
  reviewAgreementTables,
  reviewerAccounts,
  type AgreementTable,
  reviewPairCounts,
  reviewFilterOf,
  reviewProgress,
  reviewQueuePage,
  viewerOf,
} from '@/lib/reviews/reviews';
import { ShareForm } from '@/components/reviews/ShareForm';
import { can } from '@/lib/auth/roles';
import { reviewedCells } from '@/lib/runs/summary';
import { pairHref } from '@/components/reviews/links';
import { cohensKappa2x2 } from '@/lib/stats/kappa';
import { summarizeCells } from '@/lib/analysis/summary';
import { Table1 } from '@/components/Table1';
import { PAIR_CLASSES, type PairClass } from '@/lib/analysis/review';
import { kappaCi, placeLabel, rateWithInterval } from '@/components/format';
import { Interval } from '@/components/Interval';
import { StatusBadge, SimulatedBadge } from '@/components/StatusBadge';
import { pageActor } from '@/app/_auth/guard';
import { isSimulatedProvider } from '@/lib/providers/vendor-descriptors';
import { urls } from '@/lib/urls';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await pageParams(params);
  return { title: `Review of run ${id}` };
}

export const dynamic = 'force-dynamic';

const CLASS_LABELS: Record<PairClass, string> = {
  regressed: 'regressed (passed → failed)',
  'both-failed': 'failed on both sides',
  improved: 'improved (failed → passed)',
  unpaired: 'failed, partner not decided',
};

/** Every pair with a failure on either side, to be inspected side by side (docs/review.md). */
const PAGE_SIZE = 100;

/** Cohen's κ with its 95% interval beside percent agreement (Wilson), for one 2×2 grader × reviewer table. */
function KappaText({ t }: { t: AgreementTable }) {
  const n = t.bothPass + t.bothFail + t.graderFailReviewerPass + t.graderPassReviewerFail;
  const k = cohensKappa2x2(t.bothPass, t.graderPassReviewerFail, t.graderFailReviewerPass, t.bothFail, ['the grader', 'the reviewer']);
  return (
    <>
      agreement {rateWithInterval(t.bothPass + t.bothFail, n)} · Cohen&apos;s κ{' '}
      {k.kappa === null ? <Interval ci={{ text: '—', reason: k.reason }} /> : k.kappa.toFixed(2)}{' '}
      {k.kappa !== null && <Interval ci={kappaCi(k.ci95, k.reason ?? undefined)} />} <span className="muted">on {n}</span>
    </>
  );
}

export default async function ReviewPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ show?: string; page?: string }> }) {
  const actor = await pageActor('read');
  const viewer = viewerOf(actor);
  const [{ id }, { show, page: pageParam }] = await Promise.all([pageParams(params), searchParams]);
  const run = await getRun(id);
  if (!run) notFound();
  const exp = await getExperiment(run.experimentId);
  if (!exp) notFound();
  const selected = reviewFilterOf(show);
  const page = Math.max(0, Math.min(1_000_000, Number.parseInt(pageParam ?? '0', 10) || 0));
  const [counts, shown, agreement, tables, progress, reviewers] = await Promise.all([
    reviewPairCounts(id, exp.spec),
    reviewQueuePage(id, exp.spec, { show: selected, page, size: PAGE_SIZE, viewer }),
    reviewAgreement(id),
    reviewAgreementTables(id),
    reviewProgress(id, exp.spec),
    reviewerAccounts(),
  ]);
  // only with accounts (single-user mode has one reader and nothing to share); the progress just read is reused
  const assigned = viewer ? await assignmentCounts(id, exp.spec, viewer, progress.pairs - progress.reviewed) : { mine: 0, unassigned: 0 };
  // with accounts, the pairs can be shared among reviewers: each reviewer's queue then holds theirs
  const shared = reviewers.length > 0;
  const reviewed = agreement.reviewed > 0 ? await reviewedCells(id, exp.spec) : null;
  const runHref = urls.run(id);
  const count = (c: PairClass) => counts[c];
  const total = PAIR_CLASSES.reduce((n, c) => n + counts[c], 0);
  const unreviewed = progress.pairs - progress.reviewed;
  const matching = selected === 'unreviewed' ? unreviewed : selected === 'mine' ? assigned.mine : selected ? counts[selected] : total;
  const pageHref = (p: number) => urls.runReview(id, { show: selected || null, page: String(p) });

  return (
    <>
      <p className="small">
        <Link href={runHref}>← run {id}</Link>
      </p>
      <div className="row">
        <h1>Review</h1>
        {isSimulatedProvider(run.provider) && <SimulatedBadge />}
      </div>
      <p className="muted">
        Every baseline → treatment pair with a failed trial on either side. Open one to see both trials side by side with the definitions that differ, and confirm or
        override each verdict; the verdicts themselves (and Table 1) never change.
      </p>
      <p data-testid="review-progress">
        <strong>
          {progress.reviewed} of {progress.pairs} {progress.pairs === 1 ? 'pair' : 'pairs'} reviewed
        </strong>{' '}
        <span className="small muted">(a pair is reviewed when every scored check of both its trials has a reading)</span>
      </p>
      {shared && can(actor.role, 'run.control') && <ShareForm runId={id} reviewers={reviewers.map((r) => r.email)} unassigned={assigned.unassigned} />}
      <div className="panel" data-testid="agreement">
        {agreement.reviewed === 0 ? (
          <span className="muted">No check reviewed yet.</span>
        ) : (
          <>
            <strong>Grader–reviewer agreement: {rateWithInterval(agreement.agreed, agreement.reviewed)}</strong>{' '}
            <span className="small">
              on {agreement.reviewed} reviewed {agreement.reviewed === 1 ? 'check' : 'checks'}; overridden to pass {agreement.overriddenToPass}, to fail{' '}
              {agreement.overriddenToFail}
            </span>
            <ul className="small" data-testid="kappa">
              <li data-testid="kappa-overall">
                overall: <KappaText t={tables.overall} />
              </li>
              {Object.entries(tables.byAxis).map(([axis, t]) => (
                <li key={axis} data-testid={`kappa-${axis}`}>
                  <span className="mono">{axis}</span>: <KappaText t={t} />
                </li>
              ))}
            </ul>
            <p className="small muted">
              κ corrects agreement for what the two would agree on by chance given how often each says pass; its 95% interval is the large-sample one of Fleiss, Cohen
              &amp; Everitt (1969). Agreement carries its Wilson interval.
            </p>
          </>
        )}
      </div>
      {reviewed && (
        <details className="panel" data-testid="reviewed-table1">
          <summary>
            Table 1 with the reviewers&apos; readings applied: {reviewed.changed} {reviewed.changed === 1 ? 'trial changes' : 'trials change'} status{' '}
            <span className="muted small">(a second view; the formal result on the run page does not change)</span>
          </summary>
          <Table1 summary={summarizeCells(exp.spec, reviewed.cells)} published={null} />
        </details>
      )}
      <nav className="tabs" aria-label="Pair classes">
        <Link href={urls.runReview(id)} aria-current={selected ? undefined : 'page'}>
          all ({total})
        </Link>
        <Link href={urls.runReview(id, { show: 'unreviewed' })} aria-current={selected === 'unreviewed' ? 'page' : undefined} data-testid="show-unreviewed">
          unreviewed ({unreviewed})
        </Link>
        {viewer && (
          <Link href={urls.runReview(id, { show: 'mine' })} aria-current={selected === 'mine' ? 'page' : undefined} data-testid="show-mine">
            mine, unreviewed ({assigned.mine})
          </Link>
        )}
        {PAIR_CLASSES.map((c) => (
          <Link key={c} href={urls.runReview(id, { show: c })} aria-current={selected === c ? 'page' : undefined} data-testid={`show-${c}`}>
            {CLASS_LABELS[c]} ({count(c)})
          </Link>
        ))}
      </nav>
      {shown.length === 0 ? (
        <p className="muted">Nothing to review here.</p>
      ) : (
        <div className="table-scroll">
          <table className="compact" data-testid="review-pairs">
            <thead>
              <tr>
                <th>Study</th>
                <th>Scenario / locale</th>
                <th>Case</th>
                <th>Order / rep.</th>
                <th>Baseline</th>
                <th>Treatment</th>
                <th>Failure categories</th>
                <th>Reviewed</th>
                {shared && <th>Reviewer</th>}
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={`${p.pairKey}|${p.treatment.condition}`} data-class={p.class} data-reviewed={p.reviewed >= p.checks ? 'yes' : 'no'}>
                  <td className="mono">{p.study}</td>
                  <td className="mono">
                    {p.scenario} / {p.locale}
                  </td>
                  <td className="mono">{p.caseId}</td>
                  <td className="mono" data-testid="trial-place">
                    {placeLabel(p.order, p.replicate)}
                  </td>
                  <td>
                    <span className="small mono">{p.baseline.condition}</span> <StatusBadge status={p.baseline.status ?? 'missing'} />
                  </td>
                  <td>
                    <span className="small mono">{p.treatment.condition}</span> <StatusBadge status={p.treatment.status ?? 'missing'} />
                  </td>
                  <td className="mono small">{[...new Set([...p.baseline.categories, ...p.treatment.categories])].join(', ') || '—'}</td>
                  <td className="small" data-testid="pair-reviewed">
                    {p.reviewed >= p.checks ? '✓ ' : ''}
                    {p.reviewed}/{p.checks} {p.checks === 1 ? 'check' : 'checks'}
                  </td>
                  {shared && (
                    <td className="small" data-testid="pair-assignee">
                      {p.assignee ?? '—'}
                    </td>
                  )}
                  <td>
                    <Link href={pairHref(id, { baselineId: p.baseline.trialId, treatmentId: p.treatment.trialId }, selected)}>
                      {p.baseline.trialId && p.treatment.trialId ? 'side by side' : 'trial'}
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {matching > PAGE_SIZE && (
        <p className="small" data-testid="review-pager">
          {page > 0 && <Link href={pageHref(page - 1)}>← previous</Link>} pairs {page * PAGE_SIZE + 1}–{Math.min(matching, (page + 1) * PAGE_SIZE)} of {matching}{' '}
          {(page + 1) * PAGE_SIZE < matching && <Link href={pageHref(page + 1)}>next →</Link>}
        </p>
      )}
    </>
  );
}
