import type { z } from 'zod';
import type { ExperimentSpecShape, OrderPolicy } from './experiment';
import type { PathIssue } from './common';
import { ORDERS_APPLY } from './catalog';

// How big a spec's matrix is, computed arithmetically (never by expanding it), and the bounds a spec must
// stay within: a page that counts a matrix of a million trials does a few multiplications.

type Spec = z.output<typeof ExperimentSpecShape>;

export const DEFAULT_SPEC_BOUNDS = {
  /** Formal trials one run of the spec makes (configurable: TCLAB_MAX_TRIALS_PER_RUN). */
  maxTrialsPerRun: 1_000_000,
  /** Candidate orders of one case (6! = 720: all permutations of 6 tools, MAX_PERMUTATION_TOOLS in lib/design/matrix.ts). */
  maxOrders: 720,
} as const;
export type SpecBounds = { maxTrialsPerRun: number; maxOrders: number };

function factorial(n: number): number {
  let f = 1;
  for (let i = 2; i <= n && Number.isFinite(f); i++) f *= i;
  return f;
}

/** How many candidate orders a policy gives `n` tools. */
export function orderCount(n: number, policy: OrderPolicy): number {
  if (policy === 'fixed' || n < 2) return 1;
  if (policy === 'reverse-swap') return 2;
  if (policy === 'rotations') return n;
  return factorial(n);
}

/** Tools the first condition sends for a case (the candidate orders permute them), 0 when it sends none. */
function toolsOfCase(study: Spec['studies'][number], scenario: string, locale: string): number {
  const byLocale = study.conditions[0] && Object.hasOwn(study.conditions[0].tools, scenario) ? study.conditions[0].tools[scenario] : undefined;
  return byLocale && Object.hasOwn(byLocale, locale) ? byLocale[locale].length : 0;
}

/**
 * Trials of one case per condition and replicate: its candidate orders, crossed with the catalog sizes and
 * discovery mechanisms when the study has a catalog (a ranking mechanism sends one order).
 */
function casesCells(study: Spec['studies'][number], orders: number): number {
  if (!study.catalog) return orders;
  return study.catalog.sizes.length * study.catalog.discovery.reduce((a, d) => a + (ORDERS_APPLY[d.mechanism] ? orders : 1), 0);
}

export interface MatrixSize {
  studies: {
    study: string;
    kind: Spec['studies'][number]['kind'];
    conditions: { condition: string; baseline: boolean; trials: number }[];
    pairs: number;
    trials: number;
  }[];
  formal: number;
  prechecks: number;
}

/** The matrix's size: per condition, cases × orders × replicates; pairs are the same product per study. */
export function matrixSize(spec: Spec): MatrixSize {
  const studies = spec.studies.map((study) => {
    let perCondition = 0;
    for (const c of study.cases) perCondition += casesCells(study, orderCount(toolsOfCase(study, c.scenario, c.locale), study.orderPolicy)) * spec.replicates;
    return {
      study: study.id,
      kind: study.kind,
      conditions: study.conditions.map((c) => ({ condition: c.id, baseline: c.baseline, trials: perCondition })),
      pairs: perCondition,
      trials: perCondition * study.conditions.length,
    };
  });
  return { studies, formal: studies.reduce((a, s) => a + s.trials, 0), prechecks: spec.prechecks.length };
}

const fmt = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-US') : 'more than 10^308');

/** The spec's matrix within the bounds: candidate orders per case, formal trials per run. */
export function checkSpecBounds(spec: Spec, bounds: SpecBounds = DEFAULT_SPEC_BOUNDS): PathIssue[] {
  const issues: PathIssue[] = [];
  const size = matrixSize(spec);
  spec.studies.forEach((study, i) => {
    let most = 0;
    let worst: { id: string; tools: number } | null = null;
    for (const c of study.cases) {
      const tools = toolsOfCase(study, c.scenario, c.locale);
      const orders = orderCount(tools, study.orderPolicy);
      if (orders > most) [most, worst] = [orders, { id: c.id, tools }];
    }
    if (worst && most > bounds.maxOrders)
      issues.push({
        path: ['studies', i, 'orderPolicy'],
        message: `${study.orderPolicy} over ${worst.tools} tools makes ${fmt(most)} candidate orders for case "${worst.id}"; the limit is ${fmt(bounds.maxOrders)} orders per case (use rotations or reverse-swap, or fewer tools)`,
      });
  });
  if (size.formal > bounds.maxTrialsPerRun)
    issues.push({
      path: ['studies'],
      message: `the matrix makes ${fmt(size.formal)} formal trials per run (${size.studies.map((s) => `${s.study}: ${fmt(s.trials)}`).join(', ')}); the limit is ${fmt(bounds.maxTrialsPerRun)} (TCLAB_MAX_TRIALS_PER_RUN)`,
    });
  return issues;
}
