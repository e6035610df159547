import Link from 'next/link';
import type { Clustered, OrderConsistency, PassCount, RunSummary, StudySummary } from '@/lib/schema/table1';
import { wilson } from '@/lib/stats/wilson';
import { clusteredCi, differenceCi, formatP, numberedOrderLabel, pct, plural, pts, wilsonCi } from '../format';
import { Interval } from '../Interval';
import { OrderConsistencyChart, PairedFlowChart, PassRateChart, type FlowBar, type OrderBar, type RateBar } from './Charts';
import { urls } from '@/lib/urls';

/** What the page says about its intervals (docs/design.md#the-statistics-it-relies-on: say which is shown, and why). */
export function IntervalNote({ clusterBy }: { clusterBy: 'case' | 'scenario' }) {
  const unit = clusterBy === 'scenario' ? 'scenario' : 'case (its candidate orders and replicates)';
  return (
    <p className="small muted" data-testid="interval-note">
      <strong>Which interval is shown:</strong> every k/n carries its 95% <strong>Wilson</strong> interval, which treats trials as independent draws and stays honest at
      0% and 100%. Trials of one {unit} are not independent — they share the task and the tools — so beside it, marked <strong>CR1</strong>, is the cluster-robust
      interval (Miller 2024): the CR1 standard error with t on G − 1 degrees of freedom, G the number of clusters, and the design effect (how much the clustering inflates
      the variance; about 1 when it does not matter). Use CR1 for claims about a rate. With fewer than two clusters, or when every cluster has the same rate (at 0% or
      100%, say), there is nothing to estimate it from: it shows as — (hover for why), and Wilson stays the headline. The paired difference, in percentage points (pts),
      has its own CR1 interval over complete pairs.{' '}
      {clusterBy === 'case' ? <Link href="?cluster=scenario">Cluster by scenario instead</Link> : <Link href="?">Cluster by case (default)</Link>}
    </p>
  );
}

/** `CR1 [44.1%, 71.2%] · SE 0.068 · 24 clusters, 23 df · deff 1.80` — or `CR1 —` (why on hover) · 1 cluster. */
export function ClusteredLine({ c, testId }: { c: Clustered | undefined; testId?: string }) {
  if (!c || c.estimate === null) return null;
  const ci = clusteredCi(c);
  return (
    <span className="stats-line" data-testid={testId} title="cluster-robust (CR1) 95% interval, t on G − 1 degrees of freedom; deff = design effect">
      CR1 <Interval ci={ci} />
      {ci.reason ? ` · ${plural(c.clusters, 'cluster')}` : ` · SE ${c.se!.toFixed(3)} · ${plural(c.clusters, 'cluster')}, ${c.df} df`}
      {!ci.reason && c.designEffect !== null && ` · deff ${c.designEffect.toFixed(2)}`}
    </span>
  );
}

/** The paired difference in pts with its CR1 interval in pts (or — and why), then its SE, pairs and clusters. */
export function DifferenceText({ d }: { d: NonNullable<StudySummary['difference']> }) {
  if (d.estimate === null) return <>—</>;
  const ci = differenceCi(d);
  return (
    <>
      <strong>
        {pts(d.estimate)} <Interval ci={ci} />
      </strong>{' '}
      <span className="muted">
        ({!ci.reason && `CR1 SE ${d.se!.toFixed(3)}, `}
        {plural(d.pairs, 'pair')} in {plural(d.clusters, 'cluster')}
        {!ci.reason && `, t on ${d.df} df`})
      </span>
    </>
  );
}

/** The paired difference with its interval and both McNemar p values, labelled. */
export function PairedLine({ s }: { s: StudySummary }) {
  return (
    <>
      {s.difference && (
        <p
          className="small"
          data-testid={`difference-${s.study}`}
          title="treatment − baseline pass rate over complete pairs; cluster-robust (CR1) SE and t interval on G − 1 df"
        >
          Paired difference ({s.treatment} − {s.baseline}): <DifferenceText d={s.difference} />
        </p>
      )}
      {s.mcnemar && (
        <p className="small" data-testid={`mcnemar-${s.study}`}>
          <span title="two-sided exact binomial test on the discordant pairs (conservative)">exact McNemar {formatP(s.mcnemar.pExact)}</span> ·{' '}
          <span title="mid-p: the exact p less the probability of the observed split (Fagerland et al. 2013)">mid-p McNemar {formatP(s.mcnemar.pMid)}</span>{' '}
          <span className="muted">
            (b = {s.mcnemar.b} improved, c = {s.mcnemar.c} regressed)
          </span>
        </p>
      )}
    </>
  );
}

function ocText(o: OrderConsistency | null): string {
  if (!o || o.cases === 0) return '—';
  return `${o.consistent}/${o.cases} consistent · flip rate ${pct(o.flipRate ?? 0)}`;
}

function FirstText({ o }: { o: OrderConsistency | null }) {
  if (!o || o.firstPositionRate === null) return <>—</>;
  return (
    <>
      {o.firstPicks}/{o.calls} {pct(o.firstPositionRate)} Wilson <Interval ci={wilsonCi(o.firstPicks, o.calls)} /> · CR1{' '}
      <Interval ci={clusteredCi(o.firstPositionClustered)} />
    </>
  );
}

/** Order consistency of one study (cases run in more than one candidate order), with the flipped cases linked to their trials. */
export function OrderConsistencyPanel({ s, runId }: { s: StudySummary; runId: string }) {
  const oc = s.orderConsistency;
  if (!oc) return null;
  const trialHref = (id: string) => urls.trial(runId, id);
  return (
    <div className="panel" data-testid={`order-consistency-${s.study}`}>
      <h3 style={{ marginTop: 0 }}>
        {s.study} <span className="muted small">order consistency</span>
      </h3>
      <p className="small muted">
        A case (× replicate) is consistent when its decision — the tool chosen, CLARIFY / STOP, or no call — is the same in every candidate order. The first-position pick
        rate is over trials that called a tool: the share that picked whichever tool was listed first.
      </p>
      <table className="compact">
        <thead>
          <tr>
            <th>Condition</th>
            <th>Consistent cases</th>
            <th>First-position pick rate</th>
          </tr>
        </thead>
        <tbody>
          {(['baseline', 'treatment'] as const).map((role) => (
            <tr key={role} data-testid={`oc-${s.study}-${role}`}>
              <td className="mono">{role === 'baseline' ? s.baseline : s.treatment}</td>
              <td>{ocText(oc[role])}</td>
              <td>
                <FirstText o={oc[role]} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {(s.flipped?.length ?? 0) > 0 && (
        <details data-testid={`flipped-${s.study}`}>
          <summary>
            {s.flippedTotal} flipped {s.flippedTotal === 1 ? 'case' : 'cases'}
            {s.flippedTotal! > s.flipped!.length && ` (first ${s.flipped!.length} per condition shown)`}
          </summary>
          <ul className="small">
            {s.flipped!.map((f) => (
              <li key={`${f.condition}|${f.scenario}|${f.locale}|${f.caseId}|${f.replicate}`}>
                <span className="mono">
                  {f.condition} · {f.scenario}/{f.locale} · {f.caseId} r{f.replicate}
                </span>
                :{' '}
                {f.trials.map((t, i) => (
                  <span key={t.id}>
                    {i > 0 && ' · '}
                    <Link href={trialHref(t.id)} data-testid="flipped-trial">
                      {numberedOrderLabel(t.orderNumber)}: {t.decision}
                    </Link>
                  </span>
                ))}
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

function rateBar(name: string, c: PassCount, cl: Clustered | undefined, condition: 'baseline' | 'treatment'): RateBar {
  const w = wilson(c.pass, c.n);
  const r = (x: number) => Math.round(1000 * x) / 10;
  if (!w) return { name, rate: null, wilson: null, clustered: null, condition };
  // a whisker only where there is an interval (never a zero-width one): clusteredCi says whether there is
  const ci = cl && !clusteredCi(cl).reason ? cl.ci95 : null;
  return {
    name,
    rate: r(w.estimate),
    wilson: [r(w.estimate - w.low), r(w.high - w.estimate)],
    clustered: ci ? [r(w.estimate - ci[0]), r(ci[1] - w.estimate)] : null,
    condition,
  };
}

/** The three charts of the results: pass rate with intervals, paired flow, order consistency. */
export function ResultCharts({ summary }: { summary: RunSummary }) {
  const rates = summary.studies.flatMap((s) => [
    rateBar(`${s.study}: ${s.baseline}`, s.total.baseline, s.clustered?.baseline, 'baseline'),
    rateBar(`${s.study}: ${s.treatment}`, s.total.treatment, s.clustered?.treatment, 'treatment'),
  ]);
  const flow: FlowBar[] = summary.studies.map((s) => ({ name: `${s.study}: ${s.baseline} → ${s.treatment}`, ...s.pairs }));
  const r = (x: number | null) => (x === null ? null : Math.round(1000 * x) / 10);
  const orders: OrderBar[] = summary.studies.flatMap((s) =>
    s.orderConsistency
      ? (['baseline', 'treatment'] as const).flatMap((role) => {
          const o = s.orderConsistency![role];
          if (!o) return [];
          const first = r(o.firstPositionRate);
          const ci = o.firstPositionCi95;
          return [
            {
              name: `${s.study}: ${role === 'baseline' ? s.baseline : s.treatment}`,
              flip: r(o.flipRate),
              first,
              firstCi: first !== null && ci ? ([first - r(ci[0])!, r(ci[1])! - first] as [number, number]) : null,
            },
          ];
        })
      : [],
  );
  return (
    <section data-testid="result-charts">
      <h3>Pass rate per condition</h3>
      <PassRateChart bars={rates} />
      <h3>Paired flow</h3>
      <PairedFlowChart bars={flow} />
      {orders.length > 0 && (
        <>
          <h3>Order consistency</h3>
          <OrderConsistencyChart bars={orders} />
        </>
      )}
    </section>
  );
}
