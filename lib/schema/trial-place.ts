import type { TrialStatus } from './run-status';
import type { CheckStatus, FailureCategory } from './verdict';

/** Where a trial stands in the matrix: its id and its coordinates (columns of the trials table). */
export interface TrialPlace {
  id: string;
  study: string;
  scenario: string;
  locale: string;
  caseId: string;
  condition: string;
  /** The candidate order's index in the design (lib/design/matrix.ts TrialSpec.orderIndex), from 0: see orderNumber. */
  orderIndex: number;
  replicate: number;
}

/**
 * A trial's order as every page and export numbers it: from 1, as the grid does (the first order sent is 1). The
 * stored index (`orderIndex`, the `o<i>` of a pair key) counts from 0 and stays in the database and the design.
 */
export const orderNumber = (orderIndex: number): number => orderIndex + 1;

/** A trial with its status and its verdicts (failed trials only): what a JUnit test case needs of a trial (lib/export/junit.ts). */
export interface JunitTrial extends TrialPlace {
  status: TrialStatus;
  verdicts: { checkId: string; status: CheckStatus; category: FailureCategory | null; reason: string }[];
}
