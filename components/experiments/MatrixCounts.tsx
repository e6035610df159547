import type { MatrixCount } from '@/lib/design/matrix';
import { formatInt } from '../format';

/** The matrix: trials per condition (baseline marked), pairs per study, formal total and pre-checks. */
export function MatrixCounts({ matrix }: { matrix: MatrixCount }) {
  return (
    <div className="table-scroll">
      <table className="compact" data-testid="matrix">
        <thead>
          <tr>
            <th>Study (kind)</th>
            <th>Trials per condition</th>
            <th className="num">Pairs</th>
            <th className="num">Trials</th>
          </tr>
        </thead>
        <tbody>
          {matrix.studies.map((s) => (
            <tr key={s.study} data-testid={`matrix-${s.study}`}>
              <td>
                <span className="mono">{s.study}</span>
                {s.kind !== s.study && <div className="muted small">{s.kind}</div>}
              </td>
              <td>
                {s.conditions.map((c) => (
                  <div key={c.condition} className="nowrap">
                    <span className="mono">{c.condition}</span>
                    {c.baseline && (
                      <span className="badge" style={{ marginLeft: 4 }}>
                        baseline
                      </span>
                    )}
                    : {formatInt(c.trials)}
                  </div>
                ))}
              </td>
              <td className="num">{formatInt(s.pairs)}</td>
              <td className="num" data-testid={`study-trials-${s.study}`}>
                {formatInt(s.trials)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr className="total">
            <th colSpan={3}>Formal requests</th>
            <td className="num" data-testid="formal-total">
              {formatInt(matrix.formal)}
            </td>
          </tr>
          <tr>
            <th colSpan={3}>
              Pre-checks <span className="muted small">(sent before the run, never in any denominator)</span>
            </th>
            <td className="num" data-testid="precheck-total">
              {formatInt(matrix.prechecks)}
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
