'use server';

import { cookies } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { saveReview } from '@/lib/db/reviews';
import { SpecError } from '@/lib/schema/common';
import type { ReviewFormState } from './review-form';
import { REVIEWER_COOKIE } from './review-form';

/** Save a reviewer's reading of one check. The verdict is never changed; bad input names its field. */
export async function saveReviewAction(_prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  const field = (k: string) => (typeof form.get(k) === 'string' ? (form.get(k) as string) : '');
  const values = { humanStatus: field('humanStatus'), reviewer: field('reviewer'), note: field('note') };
  try {
    const saved = await saveReview({
      runId: field('runId'),
      trialId: field('trialId'),
      checkId: field('checkId'),
      humanStatus: field('humanStatus') as 'pass' | 'fail',
      reviewer: field('reviewer'),
      note: field('note'),
    });
    // remembered for the next form (a name, not a credential)
    (await cookies()).set(REVIEWER_COOKIE, saved.reviewer, { path: '/', maxAge: 60 * 60 * 24 * 365, sameSite: 'lax' });
    revalidatePath(`/runs/${encodeURIComponent(field('runId'))}`, 'layout');
    const verb = saved.humanStatus === saved.graderStatus ? 'confirmed' : `overridden to ${saved.humanStatus}`;
    return { issues: [], message: `Saved: ${verb} by ${saved.reviewer}.`, values };
  } catch (e) {
    if (e instanceof SpecError) return { issues: e.issues, message: 'Not saved.', values };
    throw e;
  }
}
