import type { StudySummary } from '@/lib/schema/table1';
import { COST_METRICS } from '@/lib/schema/outcomes';
import {
  COST_LABELS,
  formatCost,
  formatFlipRate,
  formatMetricDifference,
  formatNoiseFloor,
  formatPower,
  formatTotal,
  perTrial,
  studyVerdict,
} from '@/lib/analysis/format-outcomes';

/**
 * Beside a study's paired difference (docs/statistics.md): what the run could detect, the noise floor from replicates
 * ("within noise" when the difference is), the flip rate per condition, and the cases no condition passes.
 */
export function OutcomeLines({ s }: { s: StudySummary }) {
  return (
    <>
      {s.power && (
        <p
          className="small"
          data-testid={`power-${s.study}`}
          title="minimum detectable difference of this run's pairs: Connor's formula on its discordant share, times the design effect 1 + (m − 1)·ICC"
        >
          {formatPower(s.power, studyVerdict(s))}
        </p>
      )}
      {s.noise && (
        <div className="small" data-testid={`noise-${s.study}`}>
          <span
            className={s.noise.withinNoise ? 'badge warn' : undefined}
            data-testid={`noise-floor-${s.study}`}
            title="the pass-rate difference two identical runs of this size reach from replicate noise alone (95%): 1.96·√(σ²_B/n_B + σ²_T/n_T), σ² the within-task variance of identical trials"
          >
            {formatNoiseFloor(s.noise)}
          </span>
          <ul style={{ margin: '4px 0', paddingLeft: 20 }}>
            {s.noise.conditions.map((c) => (
              <li key={c.condition} data-testid={`flip-${s.study}-${c.condition}`}>
                <span className="mono">{c.condition}</span> {formatFlipRate(c)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {s.unpassable && s.unpassable.length > 0 && <UnpassableNotice study={s.study} cases={s.unpassable} />}
    </>
  );
}

export function UnpassableNotice({ study, cases, scope = 'every condition' }: { study: string; cases: NonNullable<StudySummary['unpassable']>; scope?: string }) {
  return (
    <div className="notice small" data-testid={`unpassable-${study}`}>
      <strong>Check this case card:</strong> {cases.length === 1 ? 'one case was' : `${cases.length} cases were`} failed by {scope} in{' '}
      <span className="mono">{study}</span> — a case no one passes is often a defect of the card (its expectation or its tools), not of the model.
      <ul style={{ margin: '4px 0', paddingLeft: 20 }}>
        {cases.map((c) => (
          <li key={`${c.scenario}|${c.locale}|${c.caseId}`} className="mono">
            {c.scenario}/{c.locale}/{c.caseId} <span className="muted">({c.trials} trials, all failed)</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Cost as an outcome: per condition, totals and means per trial; against the baseline, the paired difference per trial. */
export function CostTable({ s }: { s: StudySummary }) {
  const cost = s.cost;
  if (!cost) return null;
  return (
    <div className="panel" data-testid={`cost-${s.study}`}>
      <h3 style={{ marginTop: 0 }}>
        {s.study} <span className="muted small">cost as an outcome</span>
      </h3>
      <div className="table-scroll">
        <table className="compact">
          <thead>
            <tr>
              <th>Condition</th>
              {COST_METRICS.map((m) => (
                <th key={m} className="num">
                  {COST_LABELS[m]}
                </th>
              ))}
              <th className="num">est. cost</th>
            </tr>
          </thead>
          <tbody>
            {cost.conditions.map((c) => (
              <tr key={c.condition} data-testid={`cost-${s.study}-${c.condition}`}>
                <td className="mono">
                  {c.condition} {c.baseline && <span className="badge">baseline</span>}
                  <div className="small muted">{c.trials} trials</div>
                </td>
                {COST_METRICS.map((m) => (
                  <td key={m} className="num" data-testid={`cost-${s.study}-${c.condition}-${m}`}>
                    {formatTotal(c, m)}
                    {c.metrics[m].perTrial !== null && <div className="small muted">{perTrial(c.metrics[m].perTrial!)} / trial</div>}
                    {c.difference && (
                      <div
                        className="small"
                        data-testid={`cost-diff-${s.study}-${c.condition}-${m}`}
                        title="paired difference per trial vs the baseline, cluster-robust 95% interval by case"
                      >
                        {formatMetricDifference(c.difference[m])}
                      </div>
                    )}
                  </td>
                ))}
                <td className="num" data-testid={`cost-${s.study}-${c.condition}-cost`}>
                  {formatCost(c, cost)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted">
        Tokens as the provider reported them, over every attempt (— when it reported none; the simulated provider reports none); cached tokens where the provider reports
        them. {cost.price ? `Priced at ${cost.price.provider}/${cost.price.model} from the price table.` : 'The price table has no row for this model: no cost estimate.'}
      </p>
    </div>
  );
}
