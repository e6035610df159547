import type { RunFunnel } from '@/lib/runs/funnel';
import { FUNNEL_STAGES, STAGE_LABEL, type StageCount } from '@/lib/analysis/funnel';
import { differenceCi, pct, pts, wilsonCi } from '../format';
import { Interval } from '../Interval';
import { FunnelChart, type FunnelChartSeries } from '../results/FunnelChart';
import { DescriptionPairs } from './DescriptionPairs';

type Row = RunFunnel['rows'][number];

const sizeText = (n: number | null) => (n === null ? '—' : String(n));

/** k/n, the rate and its 95% Wilson interval, in the one format; then the paired split against the baseline. */
function StageCell({ c, stage }: { c: StageCount; stage: string }) {
  const ci = wilsonCi(c.k, c.n);
  return (
    <td data-testid={`funnel-${stage}`}>
      <span data-testid="funnel-kn">
        {c.k}/{c.n}
      </span>{' '}
      {c.rate !== null && <strong>{pct(c.rate)}</strong>} <Interval ci={ci} />
      {c.paired && (
        <div className="small muted" data-testid="funnel-paired">
          <span data-testid="funnel-improved">{c.paired.improved}</span> improved · <span data-testid="funnel-same">{c.paired.same}</span> same ·{' '}
          <span data-testid="funnel-regressed">{c.paired.regressed}</span> regressed
          {c.paired.difference.estimate !== null && (
            <>
              {' '}
              · {pts(c.paired.difference.estimate)} <Interval ci={differenceCi(c.paired.difference)} />
            </>
          )}
        </div>
      )}
    </td>
  );
}

/** The chart's series: one per discovery × condition, a point per N with each stage's rate and interval. */
function chartSeries(rows: Row[]): FunnelChartSeries[] {
  const by = new Map<string, FunnelChartSeries>();
  for (const r of rows) {
    const name = `${r.discovery ?? 'all'} · ${r.condition}`;
    const s = by.get(name) ?? by.set(name, { name, points: [] }).get(name)!;
    s.points.push({
      n: r.catalogSize ?? 0,
      toolTokens: r.toolTokens,
      stages: Object.fromEntries(
        FUNNEL_STAGES.map((st) => {
          const c = r.stages[st];
          return [st, c.rate === null || !c.ci95 ? null : { rate: 100 * c.rate, low: 100 * c.ci95.low, high: 100 * c.ci95.high }];
        }),
      ),
    });
  }
  return [...by.values()];
}

/**
 * The visibility funnel of a run's catalog studies (docs/discovery.md): per study, one row per discovery × catalog
 * size N × condition — needed tool visible (recall@k), chosen once visible, right arguments once chosen, end
 * result — each k/n with its Wilson interval, and against the baseline of the same cell the paired split and
 * difference; tool tokens per request and the estimated cost. Render only: the page loads the rows.
 */
export function Funnel({ funnel }: { funnel: RunFunnel }) {
  if (funnel.rows.length === 0) return null;
  const studies = [...new Set(funnel.rows.map((r) => r.study))];
  return (
    <section data-testid="funnel">
      <h2 id="funnel">Visibility funnel</h2>
      <p className="small muted">
        Per discovery mechanism × catalog size N × condition: how often the needed tool was among the tools the model saw (recall@k), chosen once visible, called with the
        right arguments once chosen, and the end result. Each stage counts only the trials that reached it (k/n, 95% Wilson interval); under a treatment, the pairs
        against the baseline of the same cell (improved / same / regressed, and the paired difference with its CR1 interval). Tool tokens: estimated tokens of the tool
        definitions sent per request.
      </p>
      {studies.map((study) => {
        const rows = funnel.rows.filter((r) => r.study === study);
        return (
          <div key={study} data-testid={`funnel-${study}`}>
            <h3>{study}</h3>
            <div className="table-scroll">
              <table data-testid="funnel-table">
                <thead>
                  <tr>
                    <th>Discovery</th>
                    <th>N</th>
                    <th>Condition</th>
                    {FUNNEL_STAGES.map((s) => (
                      <th key={s}>{STAGE_LABEL[s]}</th>
                    ))}
                    <th>Tool tokens / request</th>
                    <th>Input tokens / request</th>
                    <th>Est. cost / request</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((r) => (
                    <tr
                      key={`${r.discovery}-${r.catalogSize}-${r.condition}`}
                      data-testid="funnel-row"
                      data-discovery={r.discovery ?? ''}
                      data-n={r.catalogSize ?? ''}
                      data-condition={r.condition}
                    >
                      <td>{r.discovery ?? '—'}</td>
                      <td>{sizeText(r.catalogSize)}</td>
                      <td>
                        {r.condition}
                        {r.baseline && <span className="muted"> (baseline)</span>}
                      </td>
                      {FUNNEL_STAGES.map((s) => (
                        <StageCell key={s} c={r.stages[s]} stage={s} />
                      ))}
                      <td data-testid="funnel-tool-tokens">{r.toolTokens.toLocaleString('en')}</td>
                      <td data-testid="funnel-input-tokens">{r.tokensPerRequest === null ? '—' : Math.round(r.tokensPerRequest).toLocaleString('en')}</td>
                      <td data-testid="funnel-cost">{r.costPerRequest === null ? '—' : `USD ${r.costPerRequest.toFixed(5)}`}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <DescriptionPairs study={study} pairs={funnel.pairs.filter((p) => p.study === study)} />
            <FunnelChart study={study} series={chartSeries(rows)} />
          </div>
        );
      })}
    </section>
  );
}
