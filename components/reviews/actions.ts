'use server';

import { revalidatePath } from 'next/cache';
import { actionActor } from '@/components/auth/action-guard';
import { saveReview } from '@/lib/db/reviews';
import { recordAudit } from '@/lib/db/audit';
import { SpecError } from '@/lib/schema/common';
import type { ReviewFormState } from './review-form';

/** Save a reviewer's reading of one check under the signed-in account. The verdict is never changed; bad input names its field. */
export async function saveReviewAction(_prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  const actor = await actionActor('review.write');
  const field = (k: string) => (typeof form.get(k) === 'string' ? (form.get(k) as string) : '');
  const values = { humanStatus: field('humanStatus'), note: field('note') };
  try {
    const saved = await saveReview(
      { runId: field('runId'), trialId: field('trialId'), checkId: field('checkId'), humanStatus: field('humanStatus') as 'pass' | 'fail', note: field('note') },
      actor,
    );
    await recordAudit(
      actor,
      'review.saved',
      { runId: field('runId') },
      { trialId: saved.trialId, checkId: saved.checkId, humanStatus: saved.humanStatus, graderStatus: saved.graderStatus },
    );
    revalidatePath(`/runs/${encodeURIComponent(field('runId'))}`, 'layout');
    const verb = saved.humanStatus === saved.graderStatus ? 'confirmed' : `overridden to ${saved.humanStatus}`;
    return { issues: [], message: `Saved: ${verb} by ${saved.reviewer}.`, values };
  } catch (e) {
    if (e instanceof SpecError) return { issues: e.issues, message: 'Not saved.', values };
    throw e;
  }
}
