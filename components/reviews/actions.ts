'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { actionActor } from '@/components/auth/action-guard';
import { AssignError, MAX_READINGS, saveReviews, shareReviewPairs } from '@/lib/reviews/reviews';
import { SpecError } from '@/lib/schema/common';
import { readingsFromForm, type ReadingValues, type ReviewFormState } from './review-form';
import { urls } from '@/lib/urls';

/**
 * Save every reading of one pair's form under the signed-in account, at once (each audited); any bad reading
 * stores nothing and is named by its check. The verdicts are never changed.
 */
export async function saveReviewAction(_prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  const actor = await actionActor('review.write');
  const runId = typeof form.get('runId') === 'string' ? (form.get('runId') as string) : '';
  const readings = readingsFromForm(form, MAX_READINGS);
  const values: Record<number, ReadingValues> = Object.fromEntries(readings.map((r) => [r.index, { humanStatus: r.humanStatus, note: r.note }]));
  try {
    const saved = await saveReviews(
      runId,
      readings.map((r) => ({ trialId: r.trialId, checkId: r.checkId, humanStatus: r.humanStatus as 'pass' | 'fail', note: r.note })),
      actor,
    );
    revalidatePath(urls.run(runId), 'layout');
    // Save and next: the next pair of this run's review list (a path of this run's pages, nothing else)
    const then = form.get('then');
    if (typeof then === 'string' && then.startsWith(`${urls.run(runId)}/`) && !then.includes('//')) redirect(then);
    const overridden = saved.filter((r) => r.humanStatus !== r.graderStatus).length;
    const who = saved[0]?.reviewer ?? '';
    return {
      issues: [],
      message: `Saved ${saved.length} ${saved.length === 1 ? 'reading' : 'readings'} (${overridden} overridden) by ${who}.`,
      values,
    };
  } catch (e) {
    if (e instanceof SpecError) {
      // the form's indices, not the list's positions
      const issues = e.issues.map((i) => ({ ...i, path: i.path.replace(/^readings\.(\d+)/, (_m, n: string) => `readings.${readings[Number(n)]?.index ?? n}`) }));
      return { issues, message: 'Not saved: nothing was stored.', values };
    }
    throw e;
  }
}

export interface ShareFormState {
  message: string | null;
  error: string | null;
}

/** Share the run's unreviewed pairs no one has among the reviewers ticked (form field `reviewer`, emails). */
export async function shareReviewPairsAction(runId: string, _prev: ShareFormState, form: FormData): Promise<ShareFormState> {
  const actor = await actionActor('run.control');
  const emails = form.getAll('reviewer').filter((x): x is string => typeof x === 'string');
  try {
    const got = await shareReviewPairs(actor, runId, emails);
    revalidatePath(urls.runReview(runId));
    const total = got.reduce((n, g) => n + g.pairs, 0);
    return { error: null, message: `Shared ${total} ${total === 1 ? 'pair' : 'pairs'}: ${got.map((g) => `${g.email} ${g.pairs}`).join(', ')}.` };
  } catch (e) {
    if (e instanceof AssignError) return { message: null, error: `${e.field}: ${e.message}` };
    throw e;
  }
}
