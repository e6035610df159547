'use client';

import { useActionState, useState, type FormEvent } from 'react';
import { importExperiment, type ActionState } from './actions';
import { IssueList } from '../IssueList';
import { keepValues } from '../keep-values';
import { INPUT_LIMITS } from '@/lib/schema/input';

const initial: ActionState = { issues: [], message: null };
/** What a server action accepts (next.config.ts): a larger file is refused here, unsent. */
const SEND_LIMIT = 24 * 1024 * 1024;

/**
 * Import a spec (pasted or a file), or — with `initialJson` — edit a stored one: either way the result is
 * stored as a frozen version (changed content under the same id is the next version).
 */
export function ImportExperimentForm({
  initialJson,
  title = 'Import experiment JSON',
  submitLabel = 'Import',
}: {
  initialJson?: string;
  title?: string;
  submitLabel?: string;
}) {
  const [state, action, pending] = useActionState(importExperiment, initial);
  const [tooBig, setTooBig] = useState<ActionState | null>(null);
  const withinLimit = (e: FormEvent<HTMLFormElement>): boolean => {
    const file = (e.currentTarget.elements.namedItem('file') as HTMLInputElement | null)?.files?.[0];
    const size = file?.size ?? 0;
    if (size > SEND_LIMIT) {
      const mb = (INPUT_LIMITS.maxBytes / (1024 * 1024)).toFixed(0);
      setTooBig({
        issues: [
          { path: '(input)', message: `${size.toLocaleString('en-US')} bytes: over the limit of ${mb} MB (${INPUT_LIMITS.maxBytes.toLocaleString('en-US')} bytes)` },
        ],
        message: 'The experiment spec is invalid; nothing was stored.',
      });
      return false;
    }
    setTooBig(null);
    return true;
  };
  const shown = tooBig ?? state;
  return (
    <form action={action} onSubmit={keepValues(action, withinLimit)} className="panel" aria-label={title}>
      <h2 style={{ marginTop: 0 }}>{title}</h2>
      <p className="muted small">
        A <code>tclab.experiment/v1</code> spec. It is stored as a frozen version: the same content returns the stored version, changed content under the same id becomes
        the next version. Nothing is stored when the spec is invalid.
      </p>
      <div className="field">
        <label htmlFor="import-json">Spec JSON</label>
        <textarea
          id="import-json"
          name="json"
          rows={initialJson ? 24 : 10}
          spellCheck={false}
          defaultValue={initialJson}
          placeholder='{"format": "tclab.experiment/v1", "id": "…", …}'
        />
      </div>
      <div className="field">
        <label htmlFor="import-file">
          or a file <span className="hint">(used instead of the text when chosen)</span>
        </label>
        <input id="import-file" name="file" type="file" accept="application/json,.json" />
      </div>
      <button type="submit" className="primary" disabled={pending}>
        {pending ? 'Saving…' : submitLabel}
      </button>
      <IssueList message={shown.message} issues={shown.issues} testId="import-errors" />
    </form>
  );
}
