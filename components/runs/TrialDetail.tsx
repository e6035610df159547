import type { TrialRecord } from '@/lib/schema/trial-record';
import { StatusBadge } from '../StatusBadge';
import { jsonText } from '../format';
import { SentNames } from '../reviews/SentNames';

/** What the model did (parsed from its final answer), always rendered as text. */
export function ObservationView({ obs }: { obs: TrialRecord['observation'] }) {
  if (!obs) return <p className="muted">No observation: the trial has no model answer (yet).</p>;
  return (
    <div className="panel" data-testid="observation">
      <dl className="kv">
        <dt>Tool calls</dt>
        <dd>
          {obs.toolCalls.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            obs.toolCalls.map((c, i) => (
              <div key={i}>
                <span className="mono">
                  {i + 1}. {c.name}
                </span>
                <pre className="text">{c.arguments === null ? `unparsed arguments: ${c.rawArguments ?? '—'}` : jsonText(c.arguments)}</pre>
              </div>
            ))
          )}
        </dd>
        <dt>Marker</dt>
        <dd className="mono">{obs.marker ?? '—'}</dd>
        <dt>Label</dt>
        <dd className="mono">{obs.label ?? '—'}</dd>
        <dt>Refusal</dt>
        <dd>{obs.refusal ? 'yes' : 'no'}</dd>
        {obs.malformed && (
          <>
            <dt>Malformed</dt>
            <dd className="mono">{obs.malformed}</dd>
          </>
        )}
        <dt>Text</dt>
        <dd>
          <pre className="text" data-testid="observation-text">
            {obs.text ?? '—'}
          </pre>
        </dd>
      </dl>
    </div>
  );
}

/**
 * Each check's verdict with its reason, failure category and evidence; the scenario's tool ids they name are
 * shown with the names the trial's condition sent (`names`), the id beside in grey.
 */
export function VerdictsView({ verdicts, names = new Map() }: { verdicts: TrialRecord['verdicts']; names?: ReadonlyMap<string, string> }) {
  if (verdicts.length === 0) return <p className="muted">No verdicts yet.</p>;
  return (
    <div className="table-scroll">
      <table className="compact" data-testid="verdicts">
        <thead>
          <tr>
            <th>Check</th>
            <th>Axis</th>
            <th>Verdict</th>
            <th>Category</th>
            <th>Reason</th>
            <th>Evidence</th>
          </tr>
        </thead>
        <tbody>
          {verdicts.map((v) => (
            <tr key={v.checkId}>
              <td className="mono">{v.checkId}</td>
              <td className="small">{v.axis}</td>
              <td>
                <StatusBadge status={v.status} />
              </td>
              <td className="mono small">{v.category ?? '—'}</td>
              <td style={{ whiteSpace: 'pre-wrap' }} data-testid="verdict-reason">
                <SentNames text={v.reason} names={names} />
              </td>
              <td>
                <pre className="text">
                  <SentNames text={jsonText(v.evidence)} names={names} />
                </pre>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
