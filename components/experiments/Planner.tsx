'use client';

import { useState } from 'react';
import type { MatrixCount } from '@/lib/design/matrix';
import { planTrials } from '@/lib/design/planner';
import { formatInt } from '../format';

/**
 * The trial-count planner (docs/design.md#the-statistics-it-relies-on): what each condition's trials can claim if none fails, and how many
 * replicates of the experiment a target bound on the failure rate needs.
 */
export function Planner({ matrix, replicates }: { matrix: MatrixCount; replicates: number }) {
  const [target, setTarget] = useState('1');
  const rate = Number(target) / 100;
  const valid = Number.isFinite(rate) && rate > 0 && rate < 1;
  const rows = valid ? planTrials(matrix, replicates, rate) : [];
  const most = rows.reduce((m, r) => Math.max(m, r.replicatesNeeded), 0);
  return (
    <div data-testid="planner">
      <label className="small">
        Target: failure rate below{' '}
        <input id="planner-target" aria-label="Target failure rate (%)" value={target} onChange={(e) => setTarget(e.target.value)} size={5} inputMode="decimal" /> %
        (one-sided 95%, zero failures)
      </label>
      {!valid ? (
        <div className="field-error">a percentage between 0 and 100, e.g. 1 or 0.5</div>
      ) : (
        <>
          <div className="table-scroll">
            <table className="compact">
              <thead>
                <tr>
                  <th>Study / condition</th>
                  <th className="num">Trials now</th>
                  <th className="num">Bound if all pass</th>
                  <th className="num">Trials needed</th>
                  <th className="num">Replicates needed</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={`${r.study}|${r.condition}`} data-testid={`plan-${r.study}-${r.condition}`}>
                    <td className="mono">
                      {r.study} / {r.condition}
                    </td>
                    <td className="num">{formatInt(r.trials)}</td>
                    <td className="num">{(100 * r.boundIfAllPass).toFixed(1)}%</td>
                    <td className="num">{formatInt(r.trialsNeeded)}</td>
                    <td className="num">{Number.isFinite(r.replicatesNeeded) ? r.replicatesNeeded : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {Number.isFinite(most) && most > 0 && (
            <p className="small muted" data-testid="planner-summary">
              {most} replicates (now {replicates}) give every condition its {formatInt(rows[0].trialsNeeded)} trials:{' '}
              {formatInt((matrix.formal / Math.max(1, replicates)) * most)} formal requests in all.
            </p>
          )}
        </>
      )}
    </div>
  );
}
