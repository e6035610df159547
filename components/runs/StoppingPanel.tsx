import type { StoppingReport } from '@/lib/schema/stopping';
import { comparisonKey } from '@/lib/analysis/stopping';
import { pct } from '@/lib/analysis/format';
import { comparisonCount, stopWords } from '@/lib/analysis/stopping-words';

/**
 * Stop when decided (docs/statistics.md): when and why each study stopped, and for each comparison both
 * intervals, each under its own label — the anytime-valid confidence sequence (valid at the stop) and the
 * fixed-n interval of Table 1 (not valid after an early stop; shown for comparison). Never mixed.
 */
export function StoppingPanel({ report, fixedN }: { report: StoppingReport; fixedN: ReadonlyMap<string, string> }) {
  const m = comparisonCount(report.studies);
  return (
    <section data-testid="stopping" id="stopping">
      <h2>Stop when decided</h2>
      <p className="small muted">
        α = {pct(report.alpha)}
        {report.precision !== null && <>, precision {(100 * report.precision).toFixed(1)} pts</>}, pair order seed {report.seed ?? '—'}: {report.trialsNotSent} of{' '}
        {report.trialsPlanned} trials not sent.
      </p>
      {report.studies.map((s) => (
        <div key={s.study} className="table-scroll">
          <p data-testid={`stopping-${s.study}`}>
            <strong className="mono">{s.study}</strong>: {s.headline ?? `not decided: all ${s.plannedPairs} pairs were sent`}
          </p>
          <table className="compact">
            <thead>
              <tr>
                <th>Condition</th>
                <th>Why it stopped</th>
                <th>Reading (on the {report.intervalLabel})</th>
                <th>{report.intervalLabel}</th>
                <th>Fixed-n 95% interval (CR1; not valid after an early stop)</th>
              </tr>
            </thead>
            <tbody>
              {s.comparisons.map((c) => {
                const w = stopWords(c, report.alpha, m);
                return (
                  <tr key={c.treatment} data-testid={`stopping-${s.study}-${c.treatment}`}>
                    <td className="mono">{c.treatment}</td>
                    <td>
                      {c.decision?.text ?? '—'}
                      <div className="small muted" data-testid={`stopping-pairs-${s.study}-${c.treatment}`}>
                        {w.pairsText}
                      </div>
                      {w.thresholdText && (
                        <div className="small muted" data-testid={`stopping-threshold-${s.study}-${c.treatment}`}>
                          {w.thresholdText}
                        </div>
                      )}
                    </td>
                    <td data-testid={`stopping-reading-${s.study}-${c.treatment}`}>
                      <strong>{w.reading.label}</strong> — {w.reading.why}
                    </td>
                    <td className="num">
                      {c.anytimeValid.text} <span className="muted">({c.pairs} pairs)</span>
                    </td>
                    <td className="num">{fixedN.get(comparisonKey(s.study, c.treatment)) ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
