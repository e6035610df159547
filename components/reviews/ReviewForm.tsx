'use client';

import { useActionState } from 'react';
import { saveReviewAction } from './actions';
import type { ReviewFormState } from './review-form';

export interface ReviewFormProps {
  runId: string;
  trialId: string;
  checkId: string;
  graderStatus: string;
  /** The stored review of this check, if any. */
  review: { humanStatus: string; reviewer: string; note: string } | null;
  /** Who is signed in: the review is saved under this account (the action takes it from the session). */
  reviewer: string;
}

/** Confirm or override one verdict: the reviewer's reading is stored beside it, never in its place. */
export function ReviewForm({ runId, trialId, checkId, graderStatus, review, reviewer }: ReviewFormProps) {
  const [state, action, pending] = useActionState<ReviewFormState, FormData>(saveReviewAction, { issues: [], message: null });
  const issue = (path: string) => state.issues.find((i) => i.path === path)?.message;
  const shown = state.values ?? { humanStatus: review?.humanStatus ?? graderStatus, note: review?.note ?? '' };
  return (
    <form action={action} className="review-form" data-testid={`review-${checkId}`}>
      <input type="hidden" name="runId" value={runId} />
      <input type="hidden" name="trialId" value={trialId} />
      <input type="hidden" name="checkId" value={checkId} />
      <fieldset>
        <legend className="small">Reviewer reads this check as</legend>
        {(['pass', 'fail'] as const).map((s) => (
          <label key={s} className="small">
            <input type="radio" name="humanStatus" value={s} defaultChecked={shown.humanStatus === s} /> {s}
            {s === graderStatus ? ' (as graded)' : ' (override)'}
          </label>
        ))}
        {issue('humanStatus') && <div className="field-error">{issue('humanStatus')}</div>}
      </fieldset>
      <span className="small muted" data-testid="reviewing-as">
        as {reviewer}
      </span>
      <textarea name="note" defaultValue={shown.note} rows={2} placeholder="Why (optional)" aria-label="Note" />
      {issue('checkId') && <div className="field-error">{issue('checkId')}</div>}
      <div className="row">
        <button type="submit" disabled={pending}>
          {review ? 'Update review' : 'Save review'}
        </button>
        {state.message && (
          <span className={state.issues.length ? 'field-error' : 'small'} role="status">
            {state.message}
          </span>
        )}
        {!state.message && review && (
          <span className="small muted" data-testid="stored-review">
            {review.humanStatus === graderStatus ? 'confirmed' : `overridden to ${review.humanStatus}`} by {review.reviewer}
          </span>
        )}
      </div>
    </form>
  );
}
