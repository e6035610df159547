import type { CatalogCost } from '@/lib/design/tokens';
import { TOKENIZER } from '@/lib/design/tokens';
import { LINT_RULES, type LintFinding } from '@/lib/design/lint';
import { formatInt } from '../format';

/**
 * Each tool catalog (the definitions one condition sends for one scenario and locale): its size in prompt
 * tokens, and what the description linter finds in it (docs/linter.md). All text is rendered as text.
 */
export function CatalogReport({ costs, findings }: { costs: CatalogCost[]; findings: LintFinding[] }) {
  const key = (x: { study: string; condition: string; scenario: string; locale: string }) => `${x.study}|${x.condition}|${x.scenario}|${x.locale}`;
  const byCatalog = new Map<string, LintFinding[]>();
  for (const f of findings) byCatalog.set(key(f), [...(byCatalog.get(key(f)) ?? []), f]);
  return (
    <>
      <p className="small muted">
        Tokens: an estimate of what the catalog adds to every request that carries it ({TOKENIZER}, the functions rendered as OpenAI&apos;s chat models receive them;
        other providers&apos; tokenizers differ). Findings are advice: a baseline may break them on purpose.
      </p>
      <div className="table-scroll">
        <table className="compact" data-testid="catalogs">
          <thead>
            <tr>
              <th>Study</th>
              <th>Condition</th>
              <th>Scenario / locale</th>
              <th className="num">Tools</th>
              <th className="num">≈ tokens</th>
              <th>Description lint</th>
            </tr>
          </thead>
          <tbody>
            {costs.map((c) => {
              const found = byCatalog.get(key(c)) ?? [];
              return (
                <tr key={key(c)} data-testid={`catalog-${c.study}-${c.condition}-${c.scenario}-${c.locale}`}>
                  <td className="mono">{c.study}</td>
                  <td className="mono">{c.condition}</td>
                  <td className="mono">
                    {c.scenario} / {c.locale}
                  </td>
                  <td className="num">{c.tools}</td>
                  <td className="num">{formatInt(c.tokens)}</td>
                  <td>
                    {found.length === 0 ? (
                      <span className="badge good">clean</span>
                    ) : (
                      <details>
                        <summary className="small">
                          {plural(count(found, 'error'), 'error')} · {plural(count(found, 'warning'), 'warning')}
                        </summary>
                        <ul className="small lint-list">
                          {found.map((f, i) => (
                            <li key={i} data-rule={f.rule}>
                              <span className={`badge ${f.level === 'error' ? 'bad' : 'warn'}`}>{f.rule}</span> <span className="mono">{f.tool}</span>: {f.message}{' '}
                              <span className="muted">({LINT_RULES[f.rule].what})</span>
                            </li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function count(found: LintFinding[], level: LintFinding['level']): number {
  return found.filter((f) => f.level === level).length;
}
