/**
 * The counts Table 1 is made of — per cluster, never per trial — so PostgreSQL can compute them with
 * grouped queries (lib/db/aggregate.ts) and the same summary code (./summary.ts) turns them into Table 1.
 * `cellsFromTrials` computes the same cells from trial outcomes in memory (tests, the reviewed view).
 * A cluster is named by `cluster`: the case (scenario|locale|case) or the scenario.
 */

/** Trials of one condition in one cluster of one Table 1 row, counted by status. */
export interface StatusCell {
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  cluster: string;
  passed: number;
  failed: number;
  unresolved: number;
  untested: number;
}

/** Pairs (baseline vs. `treatment`, joined on the pair key) of one cluster of one row, by the two sides' statuses. */
export interface PairCell {
  study: string;
  treatment: string;
  scenario: string;
  locale: string;
  cluster: string;
  improved: number;
  regressed: number;
  samePassed: number;
  sameFailed: number;
  /** A side missing or not passed / failed. */
  incomplete: number;
}

/** Trials of a condition with at least one check failed in `category`. */
export interface CategoryCell {
  study: string;
  condition: string;
  category: string;
  trials: number;
}

/** One task (a case in one order) of a condition: its decided replicates and how many passed (pass^k). */
export interface TaskCell {
  study: string;
  condition: string;
  task: string;
  passed: number;
  decided: number;
}

/** Order consistency of one condition in one cluster of one row. */
export interface OrderCell {
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  cluster: string;
  /** Case × replicate units with a decision in each of more than one order. */
  units: number;
  /** Units whose decision was the same in every order. */
  consistent: number;
  /** Trials that called a tool, and those whose first call was the tool listed first. */
  calls: number;
  firstPicks: number;
}

/** A case × replicate whose decision changed with the candidate order, with its trials in order. */
export interface FlippedCase {
  study: string;
  condition: string;
  scenario: string;
  locale: string;
  caseId: string;
  replicate: number;
  /** `orderNumber`: the order numbered from 1, as pages and exports number it. */
  trials: { id: string; orderNumber: number; decision: string }[];
}

export interface RunCells {
  status: StatusCell[];
  pairs: PairCell[];
  categories: CategoryCell[];
  tasks: TaskCell[];
  orders: OrderCell[];
  /** Up to `FLIPPED_LIMIT` per study and condition. */
  flipped: FlippedCase[];
  /** All flipped cases per `study\u0000condition`. */
  flippedTotal: Map<string, number>;
}

export const FLIPPED_LIMIT = 100;

/** The baseline condition of each study (the one marked, else the first). */
export function baselinesOf(spec: { studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[] }): Map<string, string> {
  return new Map(spec.studies.map((s) => [s.id, (s.conditions.find((c) => c.baseline) ?? s.conditions[0])?.id]));
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order flipped cases are listed in (code-unit order, as PostgreSQL's COLLATE "C"). */
export function compareFlipped(a: FlippedCase, b: FlippedCase): number {
  return (
    byCode(a.study, b.study) ||
    byCode(a.condition, b.condition) ||
    byCode(a.scenario, b.scenario) ||
    byCode(a.locale, b.locale) ||
    byCode(a.caseId, b.caseId) ||
    a.replicate - b.replicate
  );
}
