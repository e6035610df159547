'use client';

import { useActionState } from 'react';
import { labelRunAction } from './actions';
import type { RunLabelFormState } from './run-label-form';
import { RUN_NAME_MAX, RUN_NOTE_MAX } from '@/lib/schema/run-label';

/** Edit a run's name and note (shown to those who may control runs; the action checks again). */
export function RunLabelForm({ runId, name, note }: { runId: string; name: string | null; note: string | null }) {
  const [state, action, pending] = useActionState<RunLabelFormState, FormData>(labelRunAction.bind(null, runId), { issues: [], message: null });
  const issue = (path: string) => state.issues.find((i) => i.path === path)?.message;
  const shown = state.values ?? { name: name ?? '', note: note ?? '' };
  return (
    <details className="panel" data-testid="run-label-form">
      <summary>{name || note ? 'Edit name and note' : 'Name this run'}</summary>
      <form action={action} style={{ display: 'grid', gap: 8, marginTop: 8 }}>
        <label className="small">
          Name
          <input name="name" defaultValue={shown.name} maxLength={RUN_NAME_MAX} placeholder="e.g. v2 descriptions, rate-limit retry" />
        </label>
        {issue('name') && <div className="field-error">name: {issue('name')}</div>}
        <label className="small">
          Note
          <textarea name="note" defaultValue={shown.note} rows={2} maxLength={RUN_NOTE_MAX} placeholder="What this run is for (optional)" />
        </label>
        {issue('note') && <div className="field-error">note: {issue('note')}</div>}
        <div className="row">
          <button type="submit" disabled={pending}>
            Save name and note
          </button>
          {state.message && (
            <span className={state.issues.length ? 'field-error' : 'small'} role="status" data-testid="run-label-message">
              {state.message}
            </span>
          )}
        </div>
      </form>
    </details>
  );
}
