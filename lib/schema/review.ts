import { z } from 'zod';
import { Id } from './common';

/** A reviewer's reading of one check of one trial (docs/review.md). */
export const ReviewInput = z.object({
  runId: Id,
  trialId: z.string().min(1),
  checkId: z.string().min(1),
  /** What the reviewer finds the check to be: the grader's status confirms the verdict, the other overrides it. */
  humanStatus: z.enum(['pass', 'fail'], { error: 'choose pass or fail' }),
  note: z.string().trim().max(2000).default(''),
});
export type ReviewInput = z.input<typeof ReviewInput>;

export interface Review {
  trialId: string;
  checkId: string;
  graderStatus: string;
  humanStatus: 'pass' | 'fail';
  reviewer: string;
  note: string;
  reviewedAt: Date;
}
