import type { ClusterBy, TrialOutcome } from '../schema/table1';
import { orderNumber } from '../schema/trial-place';
import {
  baselinesOf,
  compareFlipped,
  FLIPPED_LIMIT,
  type CategoryCell,
  type FlippedCase,
  type OrderCell,
  type PairCell,
  type RunCells,
  type StatusCell,
  type TaskCell,
} from '../schema/cells';

/** A unit's trials in order position, ties (catalog sizes, discovery variants of one order) by their pair key: a
 * function of the design, so the order never depends on the order the rows were read in. */
function byOrderThenPair(a: { orderIndex: number; pairKey: string }, b: { orderIndex: number; pairKey: string }): number {
  return a.orderIndex - b.orderIndex || (a.pairKey < b.pairKey ? -1 : a.pairKey > b.pairKey ? 1 : 0);
}

// The cells' shapes live in lib/schema/cells.ts (lib/db/aggregate.ts fills them in SQL); re-exported here for the analysis.
export { baselinesOf, compareFlipped, FLIPPED_LIMIT, type CategoryCell, type FlippedCase, type OrderCell, type PairCell, type RunCells, type StatusCell, type TaskCell };

/** A task for pass^k: a case in one candidate order (its replicates together), as lib/db/aggregate.ts taskCells builds it. */
function taskOf(t: TrialOutcome): string {
  return `${t.scenario}|${t.locale}|${t.caseId}|o${t.orderIndex}`;
}

export function clusterOf(t: { scenario: string; locale: string }, caseId: string, by: ClusterBy): string {
  return by === 'scenario' ? t.scenario : `${t.scenario}|${t.locale}|${caseId}`;
}

const DECIDED = new Set(['passed', 'failed']);

/** The same cells as the SQL aggregation, from trial outcomes in memory. */
export function cellsFromTrials(spec: Parameters<typeof baselinesOf>[0], trials: Iterable<TrialOutcome>, by: ClusterBy = 'case'): RunCells {
  const baselines = baselinesOf(spec);
  const conditionsOf = new Map(spec.studies.map((s) => [s.id, new Set(s.conditions.map((c) => c.id))]));
  const status = new Map<string, StatusCell>();
  const categories = new Map<string, CategoryCell>();
  const tasks = new Map<string, TaskCell>();
  const byPair = new Map<string, Map<string, TrialOutcome>>();
  const units = new Map<string, TrialOutcome[]>();
  const caseIds = new Map<TrialOutcome, string>();
  const SEP = '\u0000';
  for (const t of trials) {
    if (!conditionsOf.get(t.study)?.has(t.condition)) continue;
    const caseId = t.caseId;
    caseIds.set(t, caseId);
    const cluster = clusterOf(t, caseId, by);
    const sk = t.study + SEP + t.condition + SEP + t.scenario + SEP + t.locale + SEP + cluster;
    let s = status.get(sk);
    if (!s)
      status.set(sk, (s = { study: t.study, condition: t.condition, scenario: t.scenario, locale: t.locale, cluster, passed: 0, failed: 0, unresolved: 0, untested: 0 }));
    if (t.status === 'passed' || t.status === 'failed' || t.status === 'unresolved' || t.status === 'untested') s[t.status]++;

    const cats = t.categories ?? [];
    for (const category of cats.length > 1 ? new Set(cats) : cats) {
      const ck = t.study + SEP + t.condition + SEP + category;
      const c = categories.get(ck) ?? { study: t.study, condition: t.condition, category, trials: 0 };
      c.trials++;
      categories.set(ck, c);
    }

    if (DECIDED.has(t.status)) {
      const task = taskOf(t);
      const tk = t.study + SEP + t.condition + SEP + task;
      const x = tasks.get(tk) ?? { study: t.study, condition: t.condition, task, passed: 0, decided: 0 };
      x.decided++;
      if (t.status === 'passed') x.passed++;
      tasks.set(tk, x);
    }

    let p = byPair.get(t.pairKey);
    if (!p) byPair.set(t.pairKey, (p = new Map()));
    p.set(t.condition, t);

    if (t.decision === undefined && t.firstPick === undefined) continue; // nothing to say about order
    const uk = t.study + SEP + t.condition + SEP + t.scenario + SEP + t.locale + SEP + caseId + SEP + t.replicate;
    const u = units.get(uk);
    if (u) u.push(t);
    else units.set(uk, [t]);
  }

  const pairs = new Map<string, PairCell>();
  for (const byCondition of byPair.values()) {
    const any = byCondition.values().next().value as TrialOutcome;
    const baseline = baselines.get(any.study)!;
    const b = byCondition.get(baseline);
    for (const treatment of conditionsOf.get(any.study)!) {
      if (treatment === baseline) continue;
      const t = byCondition.get(treatment);
      if (!b && !t) continue;
      const where = (t ?? b)!;
      const cluster = clusterOf(where, caseIds.get(where)!, by);
      const pk = where.study + SEP + treatment + SEP + where.scenario + SEP + where.locale + SEP + cluster;
      let c = pairs.get(pk);
      if (!c)
        pairs.set(
          pk,
          (c = {
            study: where.study,
            treatment,
            scenario: where.scenario,
            locale: where.locale,
            cluster,
            improved: 0,
            regressed: 0,
            samePassed: 0,
            sameFailed: 0,
            incomplete: 0,
          }),
        );
      if (!b || !t || !DECIDED.has(b.status) || !DECIDED.has(t.status)) c.incomplete++;
      else if (b.status === t.status) c[b.status === 'passed' ? 'samePassed' : 'sameFailed']++;
      else if (t.status === 'passed') c.improved++;
      else c.regressed++;
    }
  }

  const orders = new Map<string, OrderCell>();
  const flipped: FlippedCase[] = [];
  const flippedTotal = new Map<string, number>();
  for (const u of units.values()) {
    const t0 = u[0];
    const caseId = caseIds.get(t0)!;
    const cluster = clusterOf(t0, caseId, by);
    const ok = t0.study + SEP + t0.condition + SEP + t0.scenario + SEP + t0.locale + SEP + cluster;
    let o = orders.get(ok);
    if (!o)
      orders.set(
        ok,
        (o = { study: t0.study, condition: t0.condition, scenario: t0.scenario, locale: t0.locale, cluster, units: 0, consistent: 0, calls: 0, firstPicks: 0 }),
      );
    for (const t of u)
      if (t.firstPick !== undefined) {
        o.calls++;
        if (t.firstPick) o.firstPicks++;
      }
    const decided = u.every((t) => t.decision !== undefined);
    const orderCount = new Set(u.map((t) => t.orderIndex)).size;
    if (!decided || orderCount < 2) continue;
    o.units++;
    if (new Set(u.map((t) => t.decision)).size === 1) o.consistent++;
    else {
      const fk = t0.study + SEP + t0.condition;
      flippedTotal.set(fk, (flippedTotal.get(fk) ?? 0) + 1);
      flipped.push({
        study: t0.study,
        condition: t0.condition,
        scenario: t0.scenario,
        locale: t0.locale,
        caseId,
        replicate: t0.replicate ?? 1,
        trials: [...u].sort(byOrderThenPair).map((t) => ({ id: t.id, orderNumber: orderNumber(t.orderIndex), decision: t.decision! })),
      });
    }
  }
  flipped.sort(compareFlipped);
  const kept = new Map<string, number>();
  const limited = flipped.filter((f) => {
    const k = f.study + SEP + f.condition;
    kept.set(k, (kept.get(k) ?? 0) + 1);
    return kept.get(k)! <= FLIPPED_LIMIT;
  });
  return {
    status: [...status.values()],
    pairs: [...pairs.values()],
    categories: [...categories.values()],
    tasks: [...tasks.values()],
    orders: [...orders.values()],
    flipped: limited,
    flippedTotal,
  };
}

type Counted = Record<string, string | number>;

/** `base` + `plus` − `minus`, cell by cell (cells matched on their text fields, their numbers added). */
function shift<T extends object>(base: readonly T[], plus: readonly T[], minus: readonly T[]): T[] {
  const keyOf = (c: T) =>
    Object.entries(c)
      .filter(([, v]) => typeof v === 'string')
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k}=${v as string}`)
      .join('\u0000');
  const out = new Map<string, Counted>(base.map((c) => [keyOf(c), { ...(c as Counted) }]));
  const add = (cells: readonly T[], sign: number) => {
    for (const c of cells) {
      const k = keyOf(c);
      const o = out.get(k);
      if (!o) out.set(k, Object.fromEntries(Object.entries(c).map(([f, v]) => [f, typeof v === 'number' ? sign * v : v])));
      else for (const [f, v] of Object.entries(c)) if (typeof v === 'number') o[f] = (o[f] as number) + sign * v;
    }
  };
  add(plus, 1);
  add(minus, -1);
  return [...out.values()] as T[];
}

/**
 * A run's cells with some trials' statuses changed (the reviewers' readings, lib/db/reviews.ts), from its
 * cells and only the trials of the pairs those trials belong to — every trial of each such pair key, as
 * they were (`before`) and as changed (`after`). Status, pairs and pass^k move with the status; order
 * consistency and categories do not depend on it. The same as cellsFromTrials on every trial changed
 * (aggregate.itest.ts).
 */
export function cellsWithStatusChanges(
  spec: Parameters<typeof baselinesOf>[0],
  cells: RunCells,
  before: readonly TrialOutcome[],
  after: readonly TrialOutcome[],
  by: ClusterBy = 'case',
): RunCells {
  const was = cellsFromTrials(spec, before, by);
  const now = cellsFromTrials(spec, after, by);
  return {
    ...cells,
    status: shift(cells.status, now.status, was.status),
    pairs: shift(cells.pairs, now.pairs, was.pairs),
    tasks: shift(cells.tasks, now.tasks, was.tasks).filter((t) => t.decided > 0),
  };
}
