// Use case: a reviewer's readings of the grader's verdicts — the queue of pairs to review, a pair's
// neighbours, the progress, the agreement between grader and reviewer, and saving one pair's readings (each
// audited with the change it attributes, in lib/db/reviews.ts). lib/db stores the rows; the review page, the
// pair page and the review form's action read and write them here (docs/architecture.md).

export { MAX_READINGS, reviewAgreement, reviewAgreementTables, runReviews, saveReviews, type AgreementTable } from '../db/reviews';
export { assignmentCounts, pairNeighbours, reviewFilterOf, reviewProgress, reviewQueuePage, type ReviewFilter } from '../db/review-queue';
export { AssignError, reviewerAccounts, shareReviewPairs, viewerOf } from './assign';
export { reviewPairCounts } from '../db/review-pairs';
