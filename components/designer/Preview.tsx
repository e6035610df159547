'use client';

import { useState } from 'react';
import type { ExperimentPlan } from '@/lib/design/plan';
import type { DraftCheck } from '@/lib/experiments/drafts';
import type { PriceTable } from '@/lib/design/cost';
import { savePricesAction } from './actions';

const int = (n: number) => n.toLocaleString('en');

/** The live matrix preview: the same plan `tclab plan` prints, with the stored price table to edit. */
export function Preview({ slug, plan, prices, onPrices }: { slug: string; plan: ExperimentPlan | null; prices: PriceTable; onPrices: (c: DraftCheck | null) => void }) {
  return (
    <aside className="panel" aria-label="Matrix preview" style={{ position: 'sticky', top: 8 }}>
      <h2 style={{ marginTop: 0 }}>Matrix preview</h2>
      {!plan ? (
        <p className="muted" data-testid="preview-empty">
          The preview appears once the draft is valid.
        </p>
      ) : (
        <>
          <table className="compact" data-testid="preview-matrix">
            <thead>
              <tr>
                <th>Study / condition</th>
                <th className="num">Trials</th>
                <th className="num">Pairs</th>
              </tr>
            </thead>
            <tbody>
              {plan.matrix.studies.map((s) => (
                <StudyRows key={s.study} s={s} />
              ))}
            </tbody>
            <tfoot>
              <tr className="total">
                <th>Formal requests</th>
                <td className="num" data-testid="preview-formal">
                  {int(plan.matrix.formal)}
                </td>
                <td />
              </tr>
              <tr>
                <th>Pre-checks</th>
                <td className="num" data-testid="preview-prechecks">
                  {int(plan.matrix.prechecks)}
                </td>
                <td />
              </tr>
            </tfoot>
          </table>
          <details>
            <summary className="small">cases × orders × replicates per study × condition × scenario × locale</summary>
            <table className="compact">
              <tbody>
                {plan.cells.map((c) => (
                  <tr key={`${c.study}|${c.condition}|${c.scenario}|${c.locale}`}>
                    <td className="mono small">
                      {c.study}/{c.condition}/{c.scenario}/{c.locale}
                    </td>
                    <td className="num small">
                      {c.cases} × {c.orders} × {c.replicates} = {int(c.trials)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
          <h3>
            Tokens per catalog <span className="small muted">(≈, {plan.tokenizer})</span>
          </h3>
          <table className="compact" data-testid="preview-tokens">
            <tbody>
              {plan.catalogs.map((c) => (
                <tr key={`${c.study}|${c.condition}|${c.scenario}|${c.locale}`} data-testid={`tokens-${c.study}-${c.condition}-${c.scenario}-${c.locale}`}>
                  <td className="mono small">
                    {c.study}/{c.condition}/{c.scenario}/{c.locale}
                  </td>
                  <td className="num small">{c.tools} tools</td>
                  <td className="num small">{int(c.tokens)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Estimated cost</h3>
          <p className="small muted">
            input ≈ {int(plan.inputTokens)} tokens; output ≈ {int(plan.costs[0]?.outputTokens ?? 0)} tokens assumed
          </p>
          <table className="compact" data-testid="preview-costs">
            <tbody>
              {plan.costs.map((c) => (
                <tr key={`${c.provider}/${c.model}`}>
                  <td className="mono small">
                    {c.provider}/{c.model}
                  </td>
                  <td className="num small">
                    {plan.currency} {c.cost.toFixed(4)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {plan.warnings.length > 0 && (
            <>
              <h3>Warnings</h3>
              <ul className="small" data-testid="preview-warnings">
                {plan.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      <PriceEditor slug={slug} prices={prices} onSaved={onPrices} />
    </aside>
  );
}

function StudyRows({ s }: { s: ExperimentPlan['matrix']['studies'][number] }) {
  return (
    <>
      <tr>
        <th className="mono">
          {s.study} <span className="muted small">({s.kind})</span>
        </th>
        <td className="num" data-testid={`preview-trials-${s.study}`}>
          {int(s.trials)}
        </td>
        <td className="num" data-testid={`preview-pairs-${s.study}`}>
          {int(s.pairs)}
        </td>
      </tr>
      {s.conditions.map((c) => (
        <tr key={c.condition}>
          <td className="mono small" style={{ paddingLeft: 20 }}>
            {c.condition} {c.baseline && <span className="badge">baseline</span>}
          </td>
          <td className="num small" data-testid={`preview-cond-${s.study}-${c.condition}`}>
            {int(c.trials)}
          </td>
          <td />
        </tr>
      ))}
    </>
  );
}

function PriceEditor({ slug, prices, onSaved }: { slug: string; prices: PriceTable; onSaved: (c: DraftCheck | null) => void }) {
  const [table, setTable] = useState(prices);
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const [saved, setSaved] = useState(false);
  const set = (fn: (t: PriceTable) => void) => {
    const next = structuredClone(table);
    fn(next);
    setTable(next);
    setSaved(false);
  };
  return (
    <details className="panel" aria-label="Price table">
      <summary>Price table (per million tokens)</summary>
      <div className="row">
        <label className="small">
          currency <input aria-label="Currency" value={table.currency} onChange={(e) => set((t) => void (t.currency = e.target.value))} style={{ width: '5em' }} />
        </label>
        <label className="small">
          output tokens / request{' '}
          <input
            aria-label="Output tokens per request"
            type="number"
            value={table.outputTokensPerRequest}
            onChange={(e) => set((t) => void (t.outputTokensPerRequest = Number(e.target.value)))}
          />
        </label>
      </div>
      {table.prices.map((p, i) => (
        <div key={i} className="row small">
          <input
            aria-label={`Price ${i + 1} provider`}
            value={p.provider}
            onChange={(e) => set((t) => void (t.prices[i].provider = e.target.value))}
            style={{ width: '8em' }}
          />
          <input aria-label={`Price ${i + 1} model`} value={p.model} onChange={(e) => set((t) => void (t.prices[i].model = e.target.value))} style={{ width: '10em' }} />
          <input
            aria-label={`Price ${i + 1} input`}
            type="number"
            step="0.01"
            value={p.inputPerMTok}
            onChange={(e) => set((t) => void (t.prices[i].inputPerMTok = Number(e.target.value)))}
            style={{ width: '6em' }}
          />
          <input
            aria-label={`Price ${i + 1} output`}
            type="number"
            step="0.01"
            value={p.outputPerMTok}
            onChange={(e) => set((t) => void (t.prices[i].outputPerMTok = Number(e.target.value)))}
            style={{ width: '6em' }}
          />
          <button type="button" className="danger" onClick={() => set((t) => void t.prices.splice(i, 1))}>
            ×
          </button>
        </div>
      ))}
      <div className="row">
        <button type="button" onClick={() => set((t) => void t.prices.push({ provider: 'openai', model: 'model', inputPerMTok: 0, outputPerMTok: 0 }))}>
          Add price
        </button>
        <button
          type="button"
          className="primary"
          onClick={async () => {
            const r = await savePricesAction(slug, table);
            setIssues(r.issues);
            if (r.prices) {
              setSaved(true);
              onSaved(r.check);
            }
          }}
        >
          Save prices
        </button>
        {saved && <span className="badge good">saved</span>}
      </div>
      {issues.map((i, k) => (
        <div key={k} className="field-error">
          <code>{i.path}</code>: {i.message}
        </div>
      ))}
    </details>
  );
}
