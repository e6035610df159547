'use client';

import { useState } from 'react';
import type { ExperimentPlan } from '@/lib/design/plan';
import { DEFAULT_ALPHA, planPower } from '@/lib/analysis/power-plan';
import { formatInt } from '../format';

/** A percentage typed in a field as a share in (0, 1), or null. */
function share(text: string): number | null {
  const x = Number(text) / 100;
  return text.trim() !== '' && Number.isFinite(x) && x > 0 && x < 1 ? x : null;
}

/**
 * Power before spending (docs/statistics.md), from assumed rates: per study, the pairs a paired comparison needs
 * to detect δ with the chosen power (Connor's formula on the assumed discordant share ψ, times the design effect
 * 1 + (m − 1)·ICC with m the design's pairs per case), and the smallest difference the design as it stands could
 * detect. `tclab plan --pilot RUN` gives the same numbers with ψ and the ICC read from a pilot run.
 */
export function PowerPreview({ plan }: { plan: ExperimentPlan }) {
  const [psiText, setPsi] = useState('30');
  const [deltaText, setDelta] = useState('10');
  const [powerText, setPower] = useState('80');
  const [iccText, setIcc] = useState('0');
  const psi = share(psiText);
  const delta = share(deltaText);
  const power = share(powerText);
  const iccNum = Number(iccText);
  const icc = iccText.trim() !== '' && Number.isFinite(iccNum) && iccNum >= 0 && iccNum <= 1 ? iccNum : null;
  const errors = [
    psi === null && 'discordant share: a percentage between 0 and 100',
    delta === null && 'difference: a percentage between 0 and 100',
    power === null && 'power: a percentage between 0 and 100',
    icc === null && 'ICC: a number from 0 to 1',
  ].filter(Boolean) as string[];
  return (
    <div data-testid="power-preview">
      <h3>Power</h3>
      <div className="row small" style={{ flexWrap: 'wrap', gap: 8 }}>
        <label>
          discordant share ψ{' '}
          <input aria-label="Assumed discordant share (%)" id="power-psi" value={psiText} onChange={(e) => setPsi(e.target.value)} size={4} inputMode="decimal" /> %
        </label>
        <label>
          difference δ{' '}
          <input aria-label="Difference to detect (points)" id="power-delta" value={deltaText} onChange={(e) => setDelta(e.target.value)} size={4} inputMode="decimal" />{' '}
          pts
        </label>
        <label>
          power <input aria-label="Power (%)" id="power-power" value={powerText} onChange={(e) => setPower(e.target.value)} size={4} inputMode="decimal" /> %
        </label>
        <label>
          ICC <input aria-label="ICC of pairs within a case" id="power-icc" value={iccText} onChange={(e) => setIcc(e.target.value)} size={4} inputMode="decimal" />
        </label>
      </div>
      {errors.length > 0 ? (
        <ul className="field-error small">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      ) : (
        <table className="compact" data-testid="power-table">
          <thead>
            <tr>
              <th>Study</th>
              <th className="num">Pairs</th>
              <th className="num">Needed</th>
              <th className="num">With DE</th>
              <th className="num">Could detect</th>
            </tr>
          </thead>
          <tbody>
            {plan.matrix.studies.map((s) => {
              const first = plan.cells.filter((c) => c.study === s.study && c.condition === s.conditions[0]?.condition);
              const cases = first.reduce((a, c) => a + c.cases, 0);
              const m = cases > 0 ? s.pairs / cases : 1;
              const p = planPower({ psi: psi!, delta: delta!, alpha: DEFAULT_ALPHA, power: power!, icc, pairsPerCluster: m }, s.pairs);
              return (
                <tr key={s.study} data-testid={`power-${s.study}`} title={`m = ${m.toFixed(1)} pairs per case; design effect ${p.designEffect.toFixed(2)}`}>
                  <td className="mono small">{s.study}</td>
                  <td className="num small">{formatInt(s.pairs)}</td>
                  <td className="num small" data-testid={`power-needed-${s.study}`}>
                    {p.pairsNeeded === null ? '—' : formatInt(p.pairsNeeded)}
                  </td>
                  <td className="num small" data-testid={`power-needed-de-${s.study}`}>
                    {p.pairsNeededWithDesignEffect === null ? '—' : formatInt(p.pairsNeededWithDesignEffect)}
                  </td>
                  <td className="num small" data-testid={`power-mdd-${s.study}`}>
                    {p.minimumDetectable === null ? '—' : `≥ ${(100 * p.minimumDetectable).toFixed(1)} pts`}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <p className="small muted">
        Pairs a paired comparison needs (Connor 1987; α {DEFAULT_ALPHA} two-sided), times the design effect 1 + (m − 1)·ICC, m the design&apos;s pairs per case. Assumed
        rates; <span className="mono">tclab plan --pilot RUN</span> reads ψ and the ICC from a pilot run.
      </p>
    </div>
  );
}
