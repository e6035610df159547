import type { Metadata } from 'next';
import Link from 'next/link';
import { compareTrialPairs, PAIR_CHANGES } from '@/lib/runs/compare';
import { SpecError } from '@/lib/schema/common';
import { pageActor } from '@/app/_auth/guard';
import { urls } from '@/lib/urls';
import { placeLabel } from '@/components/format';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Trial pairs of two runs' };

/** One trial of a pair: its status (a link to its page) and what the model decided. */
function TrialCell({ runId, trial }: { runId: string; trial: { trialId: string; status: string; decision: string | null } }) {
  return (
    <td>
      <Link href={urls.trial(runId, trial.trialId)} data-testid="pair-trial-link">
        {trial.status}
      </Link>{' '}
      <span className="mono small">{trial.decision ?? '—'}</span>
    </td>
  );
}

type Query = { a?: string; b?: string; study?: string; condition?: string; change?: string };
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/** /runs/compare/pairs?a=RUN&b=RUN&study=S&condition=C&change=improved|same|regressed: one compare cell's trial pairs side by side. */
export default async function ComparePairsPage({ searchParams }: { searchParams: Promise<Record<keyof Query, string | string[] | undefined>> }) {
  await pageActor('read');
  const q = await searchParams;
  const [a, b, study, condition, change] = [one(q.a), one(q.b), one(q.study), one(q.condition), one(q.change)];
  const back = urls.compareWith({ ids: `${a},${b}` });
  let result: Awaited<ReturnType<typeof compareTrialPairs>> | null = null;
  let error: string | null = null;
  try {
    const kind = PAIR_CHANGES.find((c) => c === change);
    if (!kind) throw new SpecError('change: expected improved, same or regressed', [{ path: 'change', message: 'improved, same or regressed' }]);
    result = await compareTrialPairs(a, b, { study, condition, change: kind });
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    error = e.message;
  }
  if (!result)
    return (
      <>
        <h1>Trial pairs</h1>
        <p className="field-error" role="alert" data-testid="compare-error">
          {error}
        </p>
      </>
    );
  const { reference, other, pairs } = result;
  const label = (x: typeof reference) => `${x.run.provider}/${x.run.model} (v${x.experiment.version})`;
  return (
    <>
      <h1>
        {study} / {condition}: {pairs.length} {change} pair{pairs.length === 1 ? '' : 's'}
      </h1>
      <p className="small muted">
        Reference <Link href={urls.run(a)}>{a}</Link> <span className="mono">{label(reference)}</span> against <Link href={urls.run(b)}>{b}</Link>{' '}
        <span className="mono">{label(other)}</span>: identical trials (same case, condition, candidate order and replicate)
        {reference.experiment.id === other.experiment.id ? '' : ' of the cases unchanged between the versions'}. <Link href={back}>← the comparison</Link>
      </p>
      <div className="table-scroll">
        <table data-testid="trial-pairs">
          <thead>
            <tr>
              <th>scenario / locale</th>
              <th>case</th>
              <th>order / replicate</th>
              <th>reference ({label(reference)})</th>
              <th>run ({label(other)})</th>
            </tr>
          </thead>
          <tbody>
            {pairs.map((p) => (
              <tr key={`${p.reference.trialId}`} data-testid="trial-pair">
                <td>
                  {p.scenario} / {p.locale}
                </td>
                <td className="mono">{p.caseId}</td>
                <td>{placeLabel(p.orderIndex, p.replicate)}</td>
                <TrialCell runId={a} trial={p.reference} />
                <TrialCell runId={b} trial={p.other} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
