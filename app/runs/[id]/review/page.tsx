import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getRun } from '@/lib/db/runs';
import { getExperiment } from '@/lib/db/experiments';
import { trialOutcomes } from '@/lib/db/results';
import { reviewAgreement, reviewedOutcomes } from '@/lib/db/reviews';
import { summarizeRun } from '@/lib/analysis/summary';
import { Table1 } from '@/components/Table1';
import { PAIR_CLASSES, reviewPairs, type PairClass } from '@/lib/analysis/review';
import { rateWithInterval } from '@/lib/analysis/format';
import { StatusBadge, SimulatedBadge } from '@/components/StatusBadge';

export const dynamic = 'force-dynamic';

const CLASS_LABELS: Record<PairClass, string> = {
  regressed: 'regressed (passed → failed)',
  'both-failed': 'failed on both sides',
  improved: 'improved (failed → passed)',
  unpaired: 'failed, partner not decided',
};

/** Every pair with a failure on either side, to be inspected side by side (DESIGN §10.4). */
export default async function ReviewPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ show?: string }> }) {
  const [{ id }, { show }] = await Promise.all([params, searchParams]);
  const run = await getRun(id);
  if (!run) notFound();
  const [exp, outcomes, agreement] = await Promise.all([getExperiment(run.experimentId), trialOutcomes(id), reviewAgreement(id)]);
  if (!exp) notFound();
  const pairs = reviewPairs(exp.spec, outcomes);
  const reviewed = agreement.reviewed > 0 ? await reviewedOutcomes(id) : null;
  const selected = (PAIR_CLASSES as readonly string[]).includes(show ?? '') ? (show as PairClass) : null;
  const shown = selected ? pairs.filter((p) => p.class === selected) : pairs;
  const runHref = `/runs/${encodeURIComponent(id)}`;
  const count = (c: PairClass) => pairs.filter((p) => p.class === c).length;

  return (
    <>
      <p className="small">
        <Link href={runHref}>← run {id}</Link>
      </p>
      <div className="row">
        <h1>Review</h1>
        {run.provider === 'simulated' && <SimulatedBadge />}
      </div>
      <p className="muted">
        Every baseline → treatment pair with a failed trial on either side. Open one to see both trials side by side with the
        definitions that differ, and confirm or override each verdict; the verdicts themselves (and Table 1) never change.
      </p>
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
          </>
        )}
      </div>
      {reviewed && (
        <details className="panel" data-testid="reviewed-table1">
          <summary>
            Table 1 with the reviewers&apos; readings applied: {reviewed.changed} {reviewed.changed === 1 ? 'trial changes' : 'trials change'} status{' '}
            <span className="muted small">(a second view; the formal result on the run page does not change)</span>
          </summary>
          <Table1 summary={summarizeRun(exp.spec, reviewed.outcomes)} published={null} />
        </details>
      )}
      <nav className="tabs" aria-label="Pair classes">
        <Link href={`${runHref}/review`} aria-current={selected ? undefined : 'page'}>
          all ({pairs.length})
        </Link>
        {PAIR_CLASSES.map((c) => (
          <Link key={c} href={`${runHref}/review?show=${c}`} aria-current={selected === c ? 'page' : undefined} data-testid={`show-${c}`}>
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
                <th />
              </tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={`${p.pairKey}|${p.treatment.condition}`} data-class={p.class}>
                  <td className="mono">{p.study}</td>
                  <td className="mono">
                    {p.scenario} / {p.locale}
                  </td>
                  <td className="mono">{p.caseId}</td>
                  <td className="mono">
                    o{p.order} / r{p.replicate}
                  </td>
                  <td>
                    <span className="small mono">{p.baseline.condition}</span> <StatusBadge status={p.baseline.status ?? 'missing'} />
                  </td>
                  <td>
                    <span className="small mono">{p.treatment.condition}</span> <StatusBadge status={p.treatment.status ?? 'missing'} />
                  </td>
                  <td className="mono small">{[...new Set([...p.baseline.categories, ...p.treatment.categories])].join(', ') || '—'}</td>
                  <td>
                    {p.baseline.trialId && p.treatment.trialId ? (
                      <Link href={`${runHref}/pairs/${encodeURIComponent(p.baseline.trialId)}/${encodeURIComponent(p.treatment.trialId)}`}>side by side</Link>
                    ) : (
                      <Link href={`${runHref}/trials/${encodeURIComponent((p.baseline.trialId ?? p.treatment.trialId)!)}`}>trial</Link>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
