// A pair to review, as lib/analysis/review.ts finds it and lib/db/review-pairs.ts / review-queue.ts page through it.

/** How a pair's two sides came out (baseline → treatment), for the pairs with a failure on either side. */
export const PAIR_CLASSES = ['regressed', 'both-failed', 'improved', 'unpaired'] as const;
export type PairClass = (typeof PAIR_CLASSES)[number];

export interface ReviewSide {
  condition: string;
  /** Absent when the pair has no trial of this condition. */
  trialId: string | null;
  status: string | null;
  categories: string[];
}

export interface ReviewPair {
  pairKey: string;
  study: string;
  scenario: string;
  locale: string;
  caseId: string;
  order: number;
  replicate: number;
  baseline: ReviewSide;
  treatment: ReviewSide;
  /** regressed: passed → failed; improved: failed → passed; unpaired: one side failed, the other not decided. */
  class: PairClass;
}
