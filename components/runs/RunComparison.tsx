import Link from 'next/link';
import type { RunComparison as Comparison } from '@/lib/schema/compare';
import { formatP } from '@/lib/analysis/format';
import { differenceCi, pts as points } from '../format';
import { Interval } from '../Interval';
import { Table1 } from '../Table1';
import { SimulatedBadge } from '../StatusBadge';

function pts(estimate: number | null): string {
  return estimate === null ? '—' : points(estimate);
}

/** Runs of one experiment version side by side: Table 1 per model, then each model against the first. */
export function RunComparison({ comparison }: { comparison: Comparison }) {
  const ref = comparison.runs[0];
  const labelOf = new Map(comparison.runs.map((r) => [r.runId, r.label]));
  return (
    <>
      <h2>Model vs model on identical trials</h2>
      <p className="small muted">
        Each model against <span className="mono">{ref.label}</span> on the trials both runs decided with the same case, condition, candidate order and replicate. Better
        / worse: trials the model passed where the reference failed, and the reverse. The difference is model − reference pass rate with its cluster-robust (CR1)
        interval, clusters being the {comparison.clusterBy}; McNemar exact and mid-p on the discordant trials.
      </p>
      <div className="table-scroll">
        <table data-testid="model-differences">
          <thead>
            <tr>
              <th>study / condition</th>
              <th>model</th>
              <th>trials</th>
              <th>reference passed</th>
              <th>model passed</th>
              <th>better / worse</th>
              <th>difference</th>
              <th>95% CI (CR1), pts</th>
              <th>McNemar exact / mid-p</th>
            </tr>
          </thead>
          <tbody>
            {comparison.differences.flatMap((d) =>
              d.conditions.map((x) => (
                <tr key={`${d.otherRunId}-${d.study}-${x.condition}`} data-testid={`difference-${d.study}-${x.condition}`}>
                  <td>
                    {d.study} / {x.condition}
                  </td>
                  <td className="mono">{labelOf.get(d.otherRunId)}</td>
                  <td>{x.pairs}</td>
                  <td>{x.referencePass}</td>
                  <td>{x.otherPass}</td>
                  <td>
                    {x.otherBetter} / {x.referenceBetter}
                  </td>
                  <td data-testid="difference-estimate">{pts(x.difference.estimate)}</td>
                  <td>
                    <Interval ci={differenceCi(x.difference)} />
                  </td>
                  <td>{x.mcnemar ? `${formatP(x.mcnemar.pExact)} / ${formatP(x.mcnemar.pMid)}` : '—'}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>

      {comparison.runs.map((r) => (
        <section key={r.runId} data-testid={`compared-run-${r.runId}`}>
          <div className="row">
            <h2 className="mono">{r.label}</h2>
            {r.simulated && <SimulatedBadge />}
          </div>
          <p className="small muted">
            <Link href={`/runs/${encodeURIComponent(r.runId)}`}>run {r.runId}</Link> · <span data-testid="compared-run-status">{r.status}</span>
          </p>
          <Table1 summary={r.summary} published={null} />
        </section>
      ))}
    </>
  );
}
