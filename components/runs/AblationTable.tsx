import type { Ablation } from '@/lib/schema/table1';
import { formatP } from '../format';
import { DifferenceText } from '../results/Statistics';

/**
 * A study with more than one treatment (e.g. single-field ablations): each condition's paired comparison
 * with the baseline — passes, improved / same / regressed, the paired difference with its CR1 interval,
 * McNemar — beside the full treatment's, largest effect first (lib/analysis/summary.ts sorts them).
 */
export function AblationTable({ ablations }: { ablations: Ablation[] }) {
  return (
    <>
      <h2>Conditions against the baseline</h2>
      {ablations.map((a) => (
        <div key={a.study} className="table-scroll">
          <table className="compact" data-testid={`ablations-${a.study}`}>
            <caption className="small muted" style={{ textAlign: 'left' }}>
              {a.study}: every condition paired with <span className="mono">{a.baseline}</span>
            </caption>
            <thead>
              <tr>
                <th>Condition</th>
                <th className="num">Baseline</th>
                <th className="num">Condition</th>
                <th className="num">Improved</th>
                <th className="num">Same</th>
                <th className="num">Regressed</th>
                <th>Paired difference, 95% CR1</th>
                <th className="num">McNemar p (exact / mid)</th>
              </tr>
            </thead>
            <tbody>
              {a.conditions.map((c) => (
                <tr key={c.condition} data-testid={`ablation-${a.study}-${c.condition}`}>
                  <td className="mono">{c.condition}</td>
                  <td className="num">
                    {c.baseline.pass}/{c.baseline.n}
                  </td>
                  <td className="num">
                    {c.treatment.pass}/{c.treatment.n}
                  </td>
                  <td className="num">{c.pairs.improved}</td>
                  <td className="num">{c.pairs.same}</td>
                  <td className="num">{c.pairs.regressed}</td>
                  <td className="small" data-testid="ablation-difference">
                    <DifferenceText d={c.difference} />
                  </td>
                  <td className="num">{c.mcnemar ? `${formatP(c.mcnemar.pExact)} / ${formatP(c.mcnemar.pMid)}` : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </>
  );
}
