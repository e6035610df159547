'use client';

import { useActionState } from 'react';
import { shareReviewPairsAction, type ShareFormState } from './actions';

const initial: ShareFormState = { message: null, error: null };

/** Share the unreviewed pairs no one has among the accounts that may review (ticked), one each in turn. */
export function ShareForm({ runId, reviewers, unassigned }: { runId: string; reviewers: readonly string[]; unassigned: number }) {
  const [state, share, pending] = useActionState(shareReviewPairsAction.bind(null, runId), initial);
  return (
    <form action={share} className="panel" aria-label="Share the review" data-testid="share-review">
      <strong>Share the review</strong>{' '}
      <span className="small muted">
        {unassigned} unreviewed {unassigned === 1 ? 'pair has' : 'pairs have'} no reviewer; they go to those ticked, one each in turn, in the list&apos;s order.
      </span>
      <div className="row small" style={{ flexWrap: 'wrap', gap: 12, margin: '6px 0' }}>
        {reviewers.map((email) => (
          <label key={email}>
            <input type="checkbox" name="reviewer" value={email} /> {email}
          </label>
        ))}
      </div>
      <button type="submit" disabled={pending || unassigned === 0}>
        Share {unassigned} {unassigned === 1 ? 'pair' : 'pairs'}
      </button>{' '}
      <span role="status" className="small">
        {state.message}
      </span>
      {state.error && (
        <span className="field-error small" data-testid="share-error">
          {' '}
          {state.error}
        </span>
      )}
    </form>
  );
}
