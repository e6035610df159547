'use client';

import { useActionState } from 'react';
import { overrideComparisonAction } from './actions';
import type { ActionState } from '@/lib/experiments/import';

/**
 * The comparability guard refused these runs (docs/optimise.md › The comparability guard): compare them
 * anyway with a reason, recorded in the audit log and shown beside the result. Shown to those who may
 * control runs; the action checks again.
 */
export function CompareOverrideForm({ runIds, cluster }: { runIds: string[]; cluster: string | null }) {
  const [state, action, pending] = useActionState<ActionState, FormData>(overrideComparisonAction.bind(null, runIds, cluster), { issues: [], message: null });
  const issue = state.issues.find((i) => i.path === 'reason')?.message;
  return (
    <form action={action} className="panel" style={{ display: 'grid', gap: 8 }} data-testid="compare-override-form">
      <label className="small">
        Compare anyway, because…
        <textarea name="reason" rows={2} maxLength={1000} required placeholder="e.g. the temperature changed on purpose: both runs are pilots" />
      </label>
      {issue && <div className="field-error">reason: {issue}</div>}
      <div className="row">
        <button type="submit" disabled={pending} data-testid="compare-override">
          Compare with an override
        </button>
        <span className="small muted">Recorded in the audit log under your name, and shown beside the comparison.</span>
        {state.message && (
          <span className="field-error" role="status">
            {state.message}
          </span>
        )}
      </div>
    </form>
  );
}

/** Beside a comparison that passed the guard by an override: what it let through, why, who and when. */
export function CompareOverrideNotice({
  overrides,
  recorded,
}: {
  overrides: { runId: string; reason: string; differences: { text: string }[] }[];
  recorded: { by: string; at: string } | null;
}) {
  if (overrides.length === 0) return null;
  return (
    <div className="panel notice" role="note" data-testid="compare-override-notice">
      <strong>Compared with an override of the comparability guard.</strong>{' '}
      {recorded && (
        <span className="small">
          Given by {recorded.by} at {recorded.at}.
        </span>
      )}
      {overrides.map((o) => (
        <div key={o.runId} className="small" data-testid="compare-override-entry">
          Run <span className="mono">{o.runId}</span>: “{o.reason}”. These runs differ beyond their descriptions, so a difference between them is not the descriptions’
          alone:
          <ul>
            {o.differences.map((d, i) => (
              <li key={i}>{d.text}</li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
