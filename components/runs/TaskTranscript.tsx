import type { TaskTrialView } from '@/lib/studies/task/view';
import { StatusBadge } from '../StatusBadge';
import { jsonText } from '../format';

const GATES = ['valid', 'invoked', 'authorized', 'verified'] as const;

/** A task trial: the transcript turn by turn, each call's four gates with evidence, the state before/after/diff. Model and tool text as text. */
export function TaskTranscript({ view }: { view: TaskTrialView }) {
  return (
    <>
      <h2>Transcript ({view.turns.length} turns)</h2>
      {view.turns.length === 0 && <p className="muted">No turn stored yet.</p>}
      <ol className="panel" data-testid="transcript">
        {view.turns.map((t) => (
          <li key={t.n} data-testid={`turn-${t.n}`}>
            <p className="small muted">
              Turn {t.n} · attempt {t.attemptN}
            </p>
            {t.text !== null && (
              <pre className="text" data-testid="turn-text">
                {t.text}
              </pre>
            )}
            {t.calls.length === 0 && t.text === null && <p className="muted">No call, no text.</p>}
            {t.calls.map((c) => (
              <div key={c.id} className="panel" data-testid="call">
                <p className="mono">
                  {c.name} <span className="muted small">({c.id})</span>
                  {c.wrote && <span className="badge">wrote</span>}
                  {c.injected && <span className="badge">result carried an instruction</span>}
                </p>
                <pre className="text">{c.arguments === null ? `unparsed arguments: ${c.rawArguments ?? '—'}` : jsonText(c.arguments)}</pre>
                <table className="compact" data-testid="gates">
                  <thead>
                    <tr>
                      <th>Gate</th>
                      <th>Status</th>
                      <th>Evidence</th>
                    </tr>
                  </thead>
                  <tbody>
                    {GATES.map((g) => (
                      <tr key={g} data-testid={`gate-${g}`}>
                        <td className="mono">{g}</td>
                        <td>
                          <StatusBadge status={c.gates[g].status} />
                        </td>
                        <td>
                          <pre className="text">{jsonText(c.gates[g].evidence)}</pre>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <details>
                  <summary>Result sent back to the model</summary>
                  <pre className="text" data-testid="call-result">
                    {jsonText(c.result)}
                  </pre>
                </details>
              </div>
            ))}
          </li>
        ))}
      </ol>

      <h2>Fixture state</h2>
      {view.before === null ? (
        <p className="muted">Not scored yet: the state is shown once the conversation has ended.</p>
      ) : (
        <div className="panel">
          <dl className="kv">
            <dt>fixture_ref</dt>
            <dd className="mono small" style={{ wordBreak: 'break-all' }}>
              {view.fixtureRef}
            </dd>
            <dt>Principal</dt>
            <dd className="mono">{view.principal ? `${view.principal.id} (${view.principal.permissions.join(', ') || 'no permissions'})` : '—'}</dd>
          </dl>
          <h3>Diff ({view.diff.length} changes)</h3>
          {view.diff.length === 0 ? (
            <p className="muted" data-testid="state-diff">
              Nothing changed.
            </p>
          ) : (
            <table className="compact" data-testid="state-diff">
              <thead>
                <tr>
                  <th>Collection / record</th>
                  <th>Field</th>
                  <th>Before</th>
                  <th>After</th>
                </tr>
              </thead>
              <tbody>
                {view.diff.map((d, i) => (
                  <tr key={i}>
                    <td className="mono">
                      {d.collection}/{d.id}
                    </td>
                    <td className="mono">{d.field ?? '(whole record)'}</td>
                    <td>
                      <pre className="text">{jsonText(d.before)}</pre>
                    </td>
                    <td>
                      <pre className="text">{jsonText(d.after)}</pre>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="grid-2">
            <details>
              <summary>State before</summary>
              <pre className="text" data-testid="state-before">
                {jsonText(view.before)}
              </pre>
            </details>
            <details>
              <summary>State after</summary>
              <pre className="text" data-testid="state-after">
                {jsonText(view.after)}
              </pre>
            </details>
          </div>
        </div>
      )}
    </>
  );
}
