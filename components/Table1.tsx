import type { PassCount, RunSummary, StudySummary } from '@/lib/schema/table1';
import type { CellComparison, PublishedComparison, StudyComparison } from '@/lib/analysis/published';
import { zeroFailureUpperBound } from '@/lib/stats/bounds';
import { differenceCi, formatP, pct, pts, rateWithInterval } from './format';
import { formatPassK } from '@/lib/analysis/format';
import { wilson } from '@/lib/stats/wilson';
import { Table1Chart, type ChartRow } from './Table1Chart';
import type { Clustered, Difference } from '@/lib/schema/table1';
import { ClusteredLine, DifferenceText, IntervalNote, PairedLine } from './results/Statistics';
import { Interval } from './Interval';
import { OutcomeLines } from './results/Outcomes';
import { rowPairedNumbers, studyPairedNumbers } from '@/lib/analysis/format-outcomes';
import type { PairedNumbers } from '@/lib/analysis/reading';
import { ReadingText } from './runs/PlanDelta';

export const PUBLISHED_LABEL = 'published reference (seed 000, Gemini 3.1 Flash-Lite)';

/**
 * Table 1 (docs/design.md#the-statistics-it-relies-on, docs/results.md): rows scenario × locale, one column per study; each cell baseline k/n →
 * treatment k/n with 95% Wilson intervals, unresolved/untested beside n; the Total row; below, the paired
 * breakdown with the exact McNemar p and the failure categories. With `published`, the reference figures
 * are set beside ours, labelled.
 */
export function Table1({ summary, published }: { summary: RunSummary; published: PublishedComparison | null }) {
  const rowKeys: { scenario: string; locale: string }[] = [];
  for (const s of summary.studies)
    for (const r of s.rows) if (!rowKeys.some((k) => k.scenario === r.scenario && k.locale === r.locale)) rowKeys.push({ scenario: r.scenario, locale: r.locale });
  const pubOf = (study: string): StudyComparison | undefined => published?.studies.find((s) => s.study === study);

  return (
    <section data-testid="table1">
      <div className="table-scroll">
        <table className="t1">
          <thead>
            <tr>
              <th>Scenario / locale</th>
              {summary.studies.map((s) => (
                <th key={`${s.study}/${s.treatment}`}>
                  {s.study}{' '}
                  <span className="muted small">
                    ({s.baseline} → {s.treatment})
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rowKeys.map((k) => (
              <tr key={`${k.scenario}/${k.locale}`} data-testid={`t1-row-${k.scenario}-${k.locale}`}>
                <th className="mono">
                  {k.scenario} / {k.locale}
                </th>
                {summary.studies.map((s) => {
                  const r = s.rows.find((x) => x.scenario === k.scenario && x.locale === k.locale);
                  const pub = pubOf(s.study)?.rows.find((x) => x.scenario === k.scenario && x.locale === k.locale);
                  const numbers = r ? rowPairedNumbers(r, s) : null;
                  return (
                    <Cell
                      key={s.study + s.treatment}
                      baseline={r?.baseline}
                      treatment={r?.treatment}
                      clustered={r?.clustered}
                      difference={r?.difference}
                      pub={pub}
                      reading={numbers && { numbers, s, id: `${s.study}-${k.scenario}-${k.locale}` }}
                    />
                  );
                })}
              </tr>
            ))}
            <tr className="total" data-testid="t1-total">
              <th>Total</th>
              {summary.studies.map((s) => (
                <Cell
                  key={s.study + s.treatment}
                  baseline={s.total.baseline}
                  treatment={s.total.treatment}
                  clustered={s.clustered}
                  difference={s.difference}
                  pub={pubOf(s.study)?.total}
                  testId={`t1-clustered-${s.study}`}
                  reading={studyReading(s)}
                />
              ))}
            </tr>
          </tbody>
        </table>
      </div>
      <p className="small muted" data-testid="table1-caption">
        Each cell: baseline k/n → treatment k/n (n excludes unresolved and untested trials, shown beside) and the paired difference in percentage points with its
        cluster-robust 95% interval; open it for the 95% Wilson and CR1 intervals of each side, with no failure the one-sided 95% upper bound on the failure rate. — : no
        interval, nothing to estimate it from (hover for why).
        {published && (
          <>
            {' '}
            <span className="pub-label">Purple: {PUBLISHED_LABEL}.</span>
          </>
        )}
      </p>
      <IntervalNote clusterBy={summary.studies[0]?.clusterBy ?? 'case'} />
      <div className="grid-2" style={{ marginTop: 12 }}>
        {summary.studies.map((s) => (
          <StudyFooter key={s.study + s.treatment} s={s} pub={pubOf(s.study)} />
        ))}
      </div>
      <Table1Chart rows={chartRows(summary)} />
    </section>
  );
}

function Count({ c, headline }: { c: PassCount; headline?: boolean }) {
  const beside = [c.unresolved ? `${c.unresolved} unresolved` : '', c.untested ? `${c.untested} untested` : ''].filter(Boolean).join(', ');
  return (
    <span className="nowrap">
      <strong>
        {c.pass}/{c.n}
      </strong>
      {!headline && (
        <>
          {' '}
          <span className="ci">{rateWithInterval(c.pass, c.n)}</span>
        </>
      )}
      {beside && <span className="beside"> (+{beside})</span>}
      {!headline && c.n > 0 && c.pass === c.n && (
        <span className="ci" title="one-sided 95% upper bound on the failure rate with zero failures: 1 − 0.05^(1/n)">
          {' '}
          · failure ≤ {pct(zeroFailureUpperBound(c.n))}
        </span>
      )}
    </span>
  );
}

/**
 * A Table 1 cell: the headline — baseline k/n → treatment k/n and the paired difference with its interval —
 * and, on demand, the rest: each side's Wilson and CR1 intervals (SE, clusters, df, design effect), the
 * difference's SE and clusters, the zero-failure bound and the published figure.
 */
function Cell({
  baseline,
  treatment,
  clustered,
  difference,
  pub,
  testId,
  reading,
}: {
  /** The cell's paired numbers read in words (the total's: the study's; a row's: its own), and its test id's tail. */
  reading?: CellReadingProps | null;
  baseline?: PassCount;
  treatment?: PassCount;
  clustered?: { baseline: Clustered; treatment: Clustered };
  difference?: Difference;
  pub?: { baseline: CellComparison; treatment: CellComparison };
  testId?: string;
}) {
  const pb = pub?.baseline.published;
  const pt = pub?.treatment.published;
  return (
    <td className="cell">
      <div className="headline">
        {baseline ? <Count c={baseline} headline /> : '—'}
        <span className="arrow">→</span>
        {treatment ? <Count c={treatment} headline /> : '—'}
        {difference && difference.estimate !== null && (
          <span className="diff" title="paired difference treatment − baseline over complete pairs, with its cluster-robust 95% interval" data-testid="cell-difference">
            {pts(difference.estimate)} <Interval ci={differenceCi(difference)} />
          </span>
        )}
      </div>
      {reading && <CellReading {...reading} />}
      <details className="cell-more">
        <summary>intervals{pb || pt ? ', published' : ''}</summary>
        <div>
          <span className="side">baseline</span> {baseline ? <Count c={baseline} /> : '—'}
          <ClusteredLine c={clustered?.baseline} testId={testId && `${testId}-baseline`} />
        </div>
        <div>
          <span className="side">treatment</span> {treatment ? <Count c={treatment} /> : '—'}
          <ClusteredLine c={clustered?.treatment} testId={testId && `${testId}-treatment`} />
        </div>
        {difference && (
          <div className="small">
            <span className="side">difference</span> <DifferenceText d={difference} />
          </div>
        )}
        {(pb || pt) && (
          <span className="pub" data-testid="published-cell">
            published: {pb ? `${pb.pass}/${pb.n}` : '—'} → {pt ? `${pt.pass}/${pt.n}` : '—'}
          </span>
        )}
      </details>
    </td>
  );
}

/**
 * The study's paired numbers read in words with the one reading function (docs/statistics.md, "Reading a
 * comparison"), and the pairs a design like this would need at 80% power — for the difference chosen in
 * "Plan for a difference of" when the page has one, else for the observed difference.
 */
interface CellReadingProps {
  numbers: PairedNumbers;
  s: StudySummary;
  /** `selection` for the study's total, `selection-restaurant-en` for a row */
  id: string;
}

const studyReading = (s: StudySummary): CellReadingProps | null => {
  const numbers = studyPairedNumbers(s);
  return numbers && { numbers, s, id: s.study };
};

function CellReading({ numbers, s, id }: CellReadingProps) {
  return (
    <div className="small" data-testid={`t1-reading-${id}`}>
      <ReadingText numbers={numbers} cluster={s.clusterBy ?? 'case'} alpha={s.power?.alpha} testId={`t1-pairs-needed-${id}`} />
    </div>
  );
}

function StudyFooter({ s, pub }: { s: StudySummary; pub?: StudyComparison }) {
  const cats = Object.entries(s.categories);
  const pubCats = pub ? Object.entries(pub.categories).filter(([, v]) => v.baseline.published !== null || v.treatment.published !== null) : [];
  return (
    <div className="panel" data-testid={`t1-study-${s.study}`}>
      <h3 style={{ marginTop: 0 }}>
        {s.study} <span className="muted small">paired vs. baseline</span>
      </h3>
      <p data-testid={`pairs-${s.study}`}>
        improved <strong>{s.pairs.improved}</strong> · same <strong>{s.pairs.same}</strong> · regressed <strong>{s.pairs.regressed}</strong>
        {s.pairs.incomplete > 0 && <span className="muted"> · incomplete {s.pairs.incomplete}</span>} —{' '}
        <span title="exact McNemar test: two-sided binomial on the discordant pairs">exact McNemar {formatP(s.mcnemarP)}</span>
      </p>
      <PairedLine s={s} />
      <OutcomeLines s={s} />
      {s.passK && (
        <p
          className="small"
          data-testid={`passk-${s.study}`}
          title="pass^k: the chance that k replicates of a task all pass (τ-bench estimator), beside the plain pass rate of the same tasks"
        >
          {formatPassK(s.passK)}{' '}
          <span className="muted">
            over {s.passK.treatment.tasks} tasks with {s.passK.k} replicates
            {s.passK.baseline.skipped + s.passK.treatment.skipped > 0 &&
              ` (${s.passK.baseline.skipped + s.passK.treatment.skipped} with fewer decided replicates left out)`}
          </span>
        </p>
      )}
      {pub?.pairs.published && (
        <p className="pub small">
          published: improved {pub.pairs.published.improved} · same {pub.pairs.published.same} · regressed {pub.pairs.published.regressed}
        </p>
      )}
      <div className="small">
        Failure categories ({s.baseline} → {s.treatment}):
        {cats.length === 0 ? (
          <span className="muted"> none</span>
        ) : (
          <ul style={{ margin: '4px 0', paddingLeft: 20 }} data-testid={`categories-${s.study}`}>
            {cats.map(([name, v]) => (
              <li key={name}>
                <span className="mono">{name}</span> {v.baseline} → {v.treatment}
              </li>
            ))}
          </ul>
        )}
        {pubCats.map(([name, v]) => (
          <span key={name} className="pub">
            published: {name} {v.baseline.published ?? '—'} → {v.treatment.published ?? '—'}
          </span>
        ))}
      </div>
    </div>
  );
}

function chartRows(summary: RunSummary): ChartRow[] {
  const r = (x: number) => Math.round(1000 * x) / 10;
  const rate = (c: PassCount) => {
    const w = wilson(c.pass, c.n);
    return w ? { rate: r(w.estimate), ci: [r(w.estimate - w.low), r(w.high - w.estimate)] as [number, number] } : { rate: null, ci: null };
  };
  const row = (name: string, b: PassCount, t: PassCount): ChartRow => {
    const [x, y] = [rate(b), rate(t)];
    return { name, baseline: x.rate, treatment: y.rate, baselineCi: x.ci, treatmentCi: y.ci };
  };
  return summary.studies.flatMap((s) => [
    ...s.rows.map((x) => row(`${s.study}: ${x.scenario}/${x.locale}`, x.baseline, x.treatment)),
    row(`${s.study}: total`, s.total.baseline, s.total.treatment),
  ]);
}
