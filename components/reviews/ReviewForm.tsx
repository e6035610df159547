'use client';

import { createContext, useActionState, useContext, useEffect, useRef, type ReactNode } from 'react';
import { saveReviewAction } from './actions';
import { readingField, type ReviewFormState } from './review-form';

const FormState = createContext<ReviewFormState>({ issues: [], message: null });

export interface PairReviewFormProps {
  runId: string;
  /** Who is signed in: the readings are saved under this account (the action takes it from the session). */
  reviewer: string;
  /** How many readings the form holds (one per scored check of the pair). */
  count: number;
  /** How many of them are stored already. */
  stored: number;
  /** The next pair of the review list (its filter kept), if any: Save and next. */
  nextHref: string | null;
  children: ReactNode;
}

/**
 * One form for a whole pair: each scored check's reading (ReadingFields, anywhere inside) is saved by one
 * button, in one action call — all or nothing. **Save and next** saves, then opens the next pair of the list.
 */
export function PairReviewForm({ runId, reviewer, count, stored, nextHref, children }: PairReviewFormProps) {
  const [state, action, pending] = useActionState<ReviewFormState, FormData>(saveReviewAction, { issues: [], message: null });
  const general = state.issues.filter((i) => !/^readings\.\d+\./.test(i.path));
  return (
    <form action={action} className="review-form" data-testid="pair-review-form">
      <input type="hidden" name="runId" value={runId} />
      <FormState.Provider value={state}>{children}</FormState.Provider>
      {count > 0 && (
        <div className="review-save panel">
          <button type="submit" disabled={pending} data-testid="save-readings">
            {stored > 0 ? 'Update all readings' : 'Save all readings'} ({count})
          </button>
          {nextHref && (
            <button type="submit" name="then" value={nextHref} disabled={pending} data-testid="save-and-next" title="s">
              Save and next
            </button>
          )}
          <span className="small muted">keys: j next · k previous · s save and next</span>
          <span className="small muted" data-testid="reviewing-as">
            as {reviewer}
          </span>
          {state.message && (
            <span className={state.issues.length ? 'field-error' : 'small'} role="status">
              {state.message}
            </span>
          )}
          {state.issues.length > 0 && (
            <ul className="field-error small" data-testid="review-issues">
              {state.issues.map((i) => (
                <li key={i.path}>{i.message}</li>
              ))}
            </ul>
          )}
          {general.length === 0 && !state.message && <span className="small muted">{stored > 0 ? `${stored} of ${count} stored` : 'not reviewed yet'}</span>}
        </div>
      )}
    </form>
  );
}

export interface ReadingFieldsProps {
  /** The reading's place in the pair's form. */
  index: number;
  trialId: string;
  checkId: string;
  graderStatus: string;
  /** The stored review of this check, if any. */
  review: { humanStatus: string; reviewer: string; note: string } | null;
}

/** Confirm or override one verdict, inside a PairReviewForm: the reading is stored beside it, never in its place. */
export function ReadingFields({ index, trialId, checkId, graderStatus, review }: ReadingFieldsProps) {
  const state = useContext(FormState);
  const issue = state.issues.find((i) => i.path.startsWith(`readings.${index}.`))?.message;
  const shown = state.values?.[index] ?? { humanStatus: review?.humanStatus ?? graderStatus, note: review?.note ?? '' };
  return (
    <div className="review-reading" data-testid={`review-${checkId}`} data-reviewed={review ? 'yes' : 'no'}>
      <input type="hidden" name={readingField('trialId', index)} value={trialId} />
      <input type="hidden" name={readingField('checkId', index)} value={checkId} />
      <fieldset>
        <legend className="small">Reviewer reads this check as</legend>
        {(['pass', 'fail'] as const).map((s) => (
          <label key={s} className="small">
            <input type="radio" name={readingField('humanStatus', index)} value={s} defaultChecked={shown.humanStatus === s} /> {s}
            {s === graderStatus ? ' (as graded)' : ' (override)'}
          </label>
        ))}
      </fieldset>
      <textarea name={readingField('note', index)} defaultValue={shown.note} rows={2} placeholder="Why (optional)" aria-label="Note" />
      {issue && <div className="field-error">{issue}</div>}
      {review && (
        <span className="small muted" data-testid="stored-review">
          {review.humanStatus === graderStatus ? 'confirmed' : `overridden to ${review.humanStatus}`} by {review.reviewer}
        </span>
      )}
    </div>
  );
}

/** What a key does on a pair page (docs/review.md): j the next pair, k the previous one, s save and next. */
const KEYS: Record<string, string[]> = {
  j: ['[data-testid="pair-next"]'],
  k: ['[data-testid="pair-prev"]'],
  s: ['[data-testid="save-and-next"]', '[data-testid="save-readings"]'],
};

/**
 * The review queue's keys, outside a text field. Each acts on what the page shows when the key is pressed
 * (its next / previous link, its save button), never on what an earlier page showed: the first of its
 * elements the page has is clicked, so `s` saves and goes on, or saves on the list's last pair.
 */
export function ReviewKeys() {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.repeat || !(e.key in KEYS)) return;
      const el = e.target as HTMLElement | null;
      if (el && (el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || (el.tagName === 'INPUT' && (el as HTMLInputElement).type !== 'radio')))
        return;
      const target = KEYS[e.key].map((sel) => document.querySelector<HTMLElement>(sel)).find((x) => x !== null);
      if (!target || (target instanceof HTMLButtonElement && target.disabled)) return;
      e.preventDefault();
      target.click();
    };
    window.addEventListener('keydown', onKey);
    marker.current?.setAttribute('data-listening', 'yes');
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  // Says when the keys work: before the page is hydrated a key press does nothing.
  return <span hidden ref={marker} data-testid="review-keys" data-listening="no" />;
}
