'use client';

import { useState } from 'react';
import { useDesigner } from './context';
import type { DCondition, DStudy } from './draft-types';
import { proposeVariantsAction, type VariantsResult } from './actions';
import { WordDiff } from '../WordDiff';

const show = (v: unknown) => (v === undefined ? '' : JSON.stringify(v).slice(0, 160));

/**
 * "Generate variants" (docs/designer.md): a length-matched placebo and single-defect mutants
 * of a treatment, shown as a diff against the baseline before anything is added; the ones kept become
 * ordinary conditions (each recording its kind), and with more than two candidate tools the study's orders
 * become a Latin square.
 */
export function Variants({ study, si }: { study: DStudy; si: number }) {
  const { draft, update } = useDesigner();
  const treatments = study.conditions.filter((c) => !c.baseline && !c.variant);
  const [treatment, setTreatment] = useState(treatments[0]?.id ?? '');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<VariantsResult | null>(null);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  if (!study.conditions.some((c) => c.baseline) || treatments.length === 0) return null;
  const chosen = result?.proposals.filter((p) => picked.has(p.condition.id)) ?? [];
  return (
    <div className="panel" aria-label={`Variants of ${study.id}`}>
      <h4 style={{ marginTop: 0 }}>Variants that isolate the cause</h4>
      <p className="small muted">
        A length-matched placebo (the baseline padded with neutral sentences to the treatment&apos;s length, ±5% tokens) and single-defect mutants of the treatment (one
        lint rule each). Each becomes an ordinary condition paired with the baseline.
      </p>
      <div className="row">
        <select aria-label="Treatment to vary" value={treatment} onChange={(e) => setTreatment(e.target.value)}>
          {treatments.map((c) => (
            <option key={c.id} value={c.id}>
              {c.id}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            try {
              const r = await proposeVariantsAction(draft.id, study.id, treatment || treatments[0].id);
              setResult(r);
              setPicked(new Set(r.proposals.map((p) => p.condition.id)));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? 'Generating…' : 'Generate variants'}
        </button>
      </div>
      {result?.message && <p className="field-error">{result.message}</p>}
      {result && result.proposals.length > 0 && (
        <div data-testid="variant-proposals">
          {result.orderPolicy && (
            <p className="small" data-testid="variant-orders">
              More than two candidate tools: candidate orders <span className="mono">{result.orderPolicy.before}</span> →{' '}
              <span className="mono">{result.orderPolicy.after}</span> (a Latin square: every condition sees each tool at each position equally often).
            </p>
          )}
          {result.proposals.map((p) => (
            <details key={p.condition.id} className="panel" data-testid={`variant-${p.kind}`} style={{ overflowWrap: 'anywhere' }}>
              <summary>
                <label onClick={(e) => e.stopPropagation()}>
                  <input
                    type="checkbox"
                    aria-label={`Keep ${p.condition.id}`}
                    checked={picked.has(p.condition.id)}
                    onChange={(e) =>
                      setPicked((s) => {
                        const next = new Set(s);
                        if (e.target.checked) next.add(p.condition.id);
                        else next.delete(p.condition.id);
                        return next;
                      })
                    }
                  />{' '}
                  <span className="badge">{p.kind}</span> <span className="mono">{p.condition.id}</span>
                </label>{' '}
                — {p.diff.length} change{p.diff.length === 1 ? '' : 's'} against the baseline
                {p.skipped.length > 0 && `, ${p.skipped.length} definition${p.skipped.length === 1 ? '' : 's'} left as they were`}
              </summary>
              <ul className="small" data-testid="variant-diff">
                {p.diff.map((c) => (
                  <li key={c.path}>
                    <span className="mono">{c.path}</span> <span className="muted">({c.kind})</span>
                    {typeof c.before === 'string' && typeof c.after === 'string' ? (
                      <WordDiff before={c.before} after={c.after} />
                    ) : (
                      <p className="small">
                        <del>{show(c.before)}</del> → <ins>{show(c.after)}</ins>
                      </p>
                    )}
                  </li>
                ))}
              </ul>
              {p.changes.some((c) => c.tokens) && (
                <p className="small muted" data-testid="placebo-tokens">
                  Tokens (baseline → treatment → placebo):{' '}
                  {p.changes
                    .filter((c) => c.tokens)
                    .map((c) => `${c.scenario}/${c.locale} ${c.tool} ${c.tokens!.baseline} → ${c.tokens!.target} → ${c.tokens!.placebo}`)
                    .join(' · ')}
                </p>
              )}
              {p.skipped.length > 0 && (
                <ul className="small muted">
                  {p.skipped.map((s, k) => (
                    <li key={k}>
                      {s.scenario}/{s.locale} <span className="mono">{s.tool}</span>: {s.reason}
                    </li>
                  ))}
                </ul>
              )}
            </details>
          ))}
          <button
            type="button"
            className="primary"
            disabled={chosen.length === 0}
            onClick={() => {
              update((d) => {
                const s = d.studies[si];
                s.conditions.push(...(structuredClone(chosen.map((p) => p.condition)) as DCondition[]));
                if (result.orderPolicy) s.orderPolicy = result.orderPolicy.after;
              });
              setResult(null);
            }}
          >
            Add these {chosen.length} conditions
          </button>
        </div>
      )}
    </div>
  );
}
