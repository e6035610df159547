'use client';

import { useActionState } from 'react';
import { keepValues } from '../keep-values';
import { archiveAction, duplicateAction, editInDesignerAction, type FormState } from './actions';

const initial: FormState = { message: null, issues: [] };

/** Per experiment row: open in the designer, duplicate under a new id, archive (or restore). */
export function RowActions({ experimentId, slug, archived }: { experimentId: string; slug: string; archived: boolean }) {
  const [state, duplicate, pending] = useActionState(duplicateAction.bind(null, experimentId), initial);
  return (
    <div className="row small" style={{ gap: 6 }}>
      <form action={editInDesignerAction.bind(null, experimentId)}>
        <button type="submit">Edit in designer</button>
      </form>
      <form action={duplicate} onSubmit={keepValues(duplicate)} className="row" style={{ gap: 4 }}>
        <input name="id" aria-label={`New id for a copy of ${experimentId}`} placeholder="copy id" style={{ width: '9em' }} required />
        <button type="submit" disabled={pending}>
          Duplicate
        </button>
      </form>
      <form action={archiveAction.bind(null, slug, !archived)}>
        <button type="submit" className={archived ? '' : 'danger'}>
          {archived ? 'Restore' : 'Archive'}
        </button>
      </form>
      {state.message && <span className="field-error">{state.message}</span>}
    </div>
  );
}
