import { UnpassableNotice } from '../results/Outcomes';
import Link from 'next/link';
import type { ReactNode } from 'react';
import type { ModelDifferenceCell, RunComparison as Comparison } from '@/lib/schema/compare';
import { formatP } from '@/lib/analysis/format';
import { runLabel } from '@/lib/analysis/format-compare';
import { differenceCi, pts as points } from '../format';
import { Interval } from '../Interval';
import { Table1 } from '../Table1';
import { SimulatedBadge } from '../StatusBadge';
import { CompareLive } from './CompareLive';
import { VersionDiff } from './VersionDiff';
import { PlanDelta, ReadingText } from './PlanDelta';
import { urls } from '@/lib/urls';

function pts(estimate: number | null): string {
  return estimate === null ? '—' : points(estimate);
}

/** The cell read in words by the one reading (lib/analysis/reading.ts, docs/statistics.md): the verdict, why, and the pairs a design like this would need. */
function Reading({ cell: x, cluster }: { cell: ModelDifferenceCell; cluster: string }) {
  const numbers = {
    pairs: x.pairs,
    improved: x.otherBetter,
    regressed: x.referenceBetter,
    clusters: x.difference.clusters,
    estimate: x.difference.estimate,
    ci95: x.difference.ci95,
    p: x.mcnemar?.pExact ?? null,
  };
  return <ReadingText numbers={numbers} cluster={cluster} />;
}

/** The trial pairs of one cell and kind of change, side by side (app/runs/compare/pairs). */
export function pairsHref(ref: string, other: string, study: string, condition: string, change: 'improved' | 'same' | 'regressed'): string {
  return urls.comparePairs({ a: ref, b: other, study, condition, change });
}

/** improved · same · regressed, each a link to those trial pairs (none: plain text). */
function Changes({ cell, href }: { cell: ModelDifferenceCell; href: (change: 'improved' | 'same' | 'regressed') => string }) {
  const parts = [
    ['improved', cell.otherBetter],
    ['same', cell.same],
    ['regressed', cell.referenceBetter],
  ] as const;
  return (
    <span className="nowrap">
      {parts.map(([change, n], i) => (
        <span key={change}>
          {i > 0 && ' · '}
          {n > 0 ? (
            <Link href={href(change)} data-testid={`pairs-${change}`} aria-label={`${n} ${change}: the trial pairs`}>
              {n} {change}
            </Link>
          ) : (
            <span data-testid={`pairs-${change}`}>
              {n} {change}
            </span>
          )}
        </span>
      ))}
    </span>
  );
}

/** Runs of one experiment side by side: the version diff, each run against the first, Table 1 per run. */
export function RunComparison({ comparison, children }: { comparison: Comparison; children?: ReactNode }) {
  const ref = comparison.runs[0];
  const labelOf = new Map(comparison.runs.map((r) => [r.runId, runLabel(comparison, r)]));
  const versionOf = new Map(comparison.runs.map((r) => [r.runId, `v${r.version}`]));
  // the conditions an edit between the versions touched (paths such as studies[s].conditions[c].tools…): their rows stand out
  const changed = new Set<string>();
  for (const v of comparison.versions)
    for (const c of v.changes) {
      const m = /^studies\[([^\]]+)\]\.conditions\[([^\]]+)\]/.exec(c.path);
      if (m) changed.add(`${m[1]}/${m[2]}`);
    }
  return (
    <>
      <CompareLive runs={comparison.runs.map((r) => ({ runId: r.runId, label: labelOf.get(r.runId)!, status: r.status }))} />
      {comparison.versions
        .filter((v) => v.from !== v.to)
        .map((v) => (
          <VersionDiff key={v.otherRunId} version={v} fromLabel={versionOf.get(v.referenceRunId)!} toLabel={versionOf.get(v.otherRunId)!} />
        ))}
      {comparison.unpassable?.map((u) => (
        <UnpassableNotice key={u.study} study={u.study} cases={u.cases} scope="every condition of every run" />
      ))}
      <h2>Run vs run on identical trials</h2>
      <p className="small muted">
        Each run against <span className="mono">{labelOf.get(ref.runId)}</span> on the trials both runs decided with the same case, condition, candidate order and
        replicate (across versions: of the unchanged cases only). Improved / regressed: trials the run passed where the reference failed, and the reverse; each count
        opens those trial pairs. The difference is run − reference pass rate with its cluster-robust (CR1) interval, clusters being the {comparison.clusterBy}; McNemar
        exact and mid-p on the discordant trials.
      </p>
      <PlanDelta>
        <div className="table-scroll">
          <table data-testid="model-differences">
            <thead>
              <tr>
                <th>study / condition</th>
                <th>run</th>
                <th>trials</th>
                <th>reference passed</th>
                <th>run passed</th>
                <th>improved / same / regressed</th>
                <th>difference</th>
                <th>95% CI (CR1), pts</th>
                <th>McNemar exact / mid-p</th>
                <th>reading</th>
              </tr>
            </thead>
            <tbody>
              {comparison.differences.flatMap((d) =>
                d.conditions.map((x) => (
                  <tr
                    key={`${d.otherRunId}-${d.study}-${x.condition}`}
                    data-testid={`difference-${d.study}-${x.condition}`}
                    data-changed={changed.has(`${d.study}/${x.condition}`) ? 'yes' : 'no'}
                    className={changed.has(`${d.study}/${x.condition}`) ? 'changed-row' : undefined}
                    title={changed.has(`${d.study}/${x.condition}`) ? 'this condition was edited between the versions' : undefined}
                  >
                    <td>
                      {d.study} / {x.condition}
                    </td>
                    <td className="mono">{labelOf.get(d.otherRunId)}</td>
                    <td data-testid="difference-pairs">{x.pairs}</td>
                    <td>{x.referencePass}</td>
                    <td>{x.otherPass}</td>
                    <td>
                      <Changes cell={x} href={(change) => pairsHref(d.referenceRunId, d.otherRunId, d.study, x.condition, change)} />
                    </td>
                    <td data-testid="difference-estimate">{pts(x.difference.estimate)}</td>
                    <td>
                      <Interval ci={differenceCi(x.difference)} />
                    </td>
                    <td>{x.mcnemar ? `${formatP(x.mcnemar.pExact)} / ${formatP(x.mcnemar.pMid)}` : '—'}</td>
                    <td data-testid="difference-reading">
                      <Reading cell={x} cluster={comparison.clusterBy} />
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      </PlanDelta>

      {children}

      {comparison.runs.map((r) => (
        <section key={r.runId} data-testid={`compared-run-${r.runId}`}>
          <div className="row">
            <h2 className="mono">{r.label}</h2>
            {r.simulated && <SimulatedBadge />}
          </div>
          <p className="small muted">
            <Link href={urls.run(r.runId)}>run {r.runId}</Link> · <Link href={urls.experiment(r.experimentId)}>{r.experimentId}</Link> ·{' '}
            <span data-testid="compared-run-status">{r.status}</span>
          </p>
          <Table1 summary={r.summary} published={null} />
        </section>
      ))}
    </>
  );
}
