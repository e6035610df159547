import type { ExperimentSpec, Study } from '@/lib/schema/experiment';
import { kindModule } from '@/lib/studies/registry';
import { jsonText } from '../format';

/** One study: conditions (baseline marked), scenarios × locales, protocol, each condition's tool definitions, cases with their checks. */
export function StudyView({ spec, study }: { spec: ExperimentSpec; study: Study }) {
  const grid = spec.scenarios.flatMap((sc) =>
    spec.locales.map((locale) => ({ scenario: sc.id, locale, cases: study.cases.filter((c) => c.scenario === sc.id && c.locale === locale).length })),
  );
  return (
    <section className="panel" data-testid={`study-${study.id}`}>
      <h2 style={{ marginTop: 0 }}>
        {study.title} <span className="mono muted small">{study.id}</span> <span className="badge">{study.kind}</span>
      </h2>
      <dl className="kv">
        <dt>Conditions</dt>
        <dd>
          {study.conditions.map((c, i) => (
            <span key={c.id}>
              {i > 0 && ' → '}
              <span className="mono">{c.id}</span> ({c.label})
              {c.baseline && (
                <span className="badge" style={{ marginLeft: 4 }}>
                  baseline
                </span>
              )}
              {c.variant && (
                <span className="badge" style={{ marginLeft: 4 }} data-testid={`variant-${c.id}`}>
                  {c.variant.kind} of {c.variant.of}
                </span>
              )}
            </span>
          ))}
        </dd>
        <dt>Candidate order</dt>
        <dd className="mono">{study.orderPolicy}</dd>
        <dt>Cases per scenario × locale</dt>
        <dd>{grid.map((g) => `${g.scenario}/${g.locale}: ${g.cases}`).join(' · ')}</dd>
        <dt>Markers</dt>
        <dd className="mono">
          {study.protocol.markers.clarify} {study.protocol.markers.stop} {study.protocol.markers.status}
          {study.protocol.labels.length > 0 && ` — labels: ${study.protocol.labels.join(', ')}`}
        </dd>
      </dl>
      <details>
        <summary>System instruction per locale</summary>
        {Object.entries(study.protocol.system).map(([locale, text]) => (
          <div key={locale}>
            <div className="mono small">{locale}</div>
            <pre className="text">{text}</pre>
          </div>
        ))}
      </details>
      {study.conditions.map((c) => (
        <details key={c.id}>
          <summary>
            Tool definitions — <span className="mono">{c.id}</span>
            {c.baseline && ' (baseline)'}
          </summary>
          {Object.entries(c.tools).flatMap(([scenario, byLocale]) =>
            Object.entries(byLocale).map(([locale, defs]) => (
              <div key={`${scenario}/${locale}`}>
                <h3 className="mono">
                  {scenario} / {locale}
                </h3>
                <table className="compact">
                  <thead>
                    <tr>
                      <th>Name</th>
                      <th>Tool (effect)</th>
                      <th>Description</th>
                      <th>Parameters</th>
                    </tr>
                  </thead>
                  <tbody>
                    {defs.map((d) => (
                      <tr key={d.name}>
                        <td className="mono">{d.name}</td>
                        <td className="mono small">
                          {d.tool} ({spec.scenarios.find((s) => s.id === scenario)?.tools.find((t) => t.id === d.tool)?.effect ?? '?'})
                        </td>
                        <td style={{ whiteSpace: 'pre-wrap' }}>{d.description}</td>
                        <td>
                          <pre className="text">{jsonText(d.parameters)}</pre>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )),
          )}
        </details>
      ))}
      <details>
        <summary>Cases and their case-card checks ({study.cases.length})</summary>
        <table className="compact" data-testid={`cases-${study.id}`}>
          <thead>
            <tr>
              <th>Case</th>
              <th>Scenario / locale</th>
              <th>Task</th>
              <th>Checks (expected)</th>
            </tr>
          </thead>
          <tbody>
            {study.cases.map((k) => (
              <tr key={k.id}>
                <td className="mono small">{k.id}</td>
                <td className="mono small nowrap">
                  {k.scenario} / {k.locale}
                </td>
                <td style={{ whiteSpace: 'pre-wrap' }} data-testid="case-task">
                  {k.task}
                  {kindDetails(study, k)}
                </td>
                <td>
                  {k.checks.map((chk) => (
                    <div key={chk.id} className="small">
                      <span className="mono">{chk.id}</span> <span className="muted">({chk.axis})</span> <code>{JSON.stringify(chk.expected)}</code>
                    </div>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}

/** The fields a case's study kind adds (e.g. interpretation's fixed call and injected result), as text. */
function kindDetails(study: Study, k: Study['cases'][number]) {
  const details = kindModule(study.kind).caseDetails(k);
  return details && <pre className="text">{jsonText(details)}</pre>;
}
