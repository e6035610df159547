import type { TrialUsage } from '../schema/outcomes';
import { withOutcomes, type OutcomePrice } from './outcomes';
import type {
  Ablation,
  ClusterBy,
  Clustered,
  Difference,
  McNemarResult,
  OrderConsistency,
  PassCount,
  PassK,
  RunSummary,
  StudySummary,
  SummaryRow,
  TrialOutcome,
} from '../schema/table1';
import { mcnemar } from '../stats/mcnemar';
import { passHatK } from '../stats/pass-k';
import { clusteredProportion, pairedDifference } from '../stats/clustered';
import { wilson } from '../stats/wilson';
import { baselinesOf, cellsFromTrials, type OrderCell, type PairCell, type RunCells, type StatusCell } from './cells';

export { compareWithPublished } from './published';

/**
 * What the summary needs from the experiment spec. An `ExperimentSpec` fits as is; its `scenarios` and
 * `locales` (optional here) set the row order.
 */
export interface SummarySpec {
  studies: readonly {
    id: string;
    kind: StudySummary['kind'];
    conditions: readonly { id: string; baseline: boolean }[];
  }[];
  scenarios?: readonly { id: string }[];
  locales?: readonly string[];
}

export interface SummaryOptions {
  /** The cluster of the cluster-robust statistics: the case (default) or the scenario. */
  clusterBy?: ClusterBy;
  /** One row per trial with its usage: adds each study's noise floor, cost, power and unpassable cases (./outcomes.ts). */
  outcomes?: { trials: readonly TrialUsage[]; replicates: number; price: OutcomePrice | null };
}

/**
 * Table 1 (docs/design.md#the-statistics-it-relies-on, docs/results.md) from trial outcomes in memory: one StudySummary per study, baseline vs. the
 * study's first non-baseline condition (every condition: `summarizeComparisons`). The database path
 * (lib/db/aggregate.ts) computes the same cells with grouped queries and calls `summarizeCells`.
 *
 * - Rows are the scenario × locale combinations that have trials, ordered as the spec lists its scenarios
 *   and locales; combinations the spec does not list come after, sorted by scenario, then locale.
 * - `pass`/`n` count only passed and failed trials; unresolved and untested are counted beside;
 *   queued, running and cancelled trials are counted nowhere (they show up as `incomplete` pairs).
 * - Pairs join trials on `pairKey`: improved (baseline failed → treatment passed), regressed (passed →
 *   failed), same (both passed or both failed), incomplete (a side missing or not passed/failed).
 * - `mcnemarP`: the exact McNemar p on improved vs. regressed; null when no pair is complete; `mcnemar`
 *   carries it with the mid-p.
 * - `clustered`, `difference`: CR1 standard errors and t intervals on G − 1 df, the cluster being the
 *   case (its orders and replicates) or, on request, the scenario.
 * - `categories`: per condition, the number of trials with at least one failed check of that category.
 * - Trials of unknown studies or conditions are ignored.
 */
export function summarizeRun(spec: SummarySpec, trials: Iterable<TrialOutcome>, options: SummaryOptions = {}): RunSummary {
  return summarizeCells(spec, cellsFromTrials(spec, trials, options.clusterBy), options);
}

/** Like `summarizeRun`, but baseline vs. every non-baseline condition (one StudySummary each, in spec order). */
export function summarizeComparisons(spec: SummarySpec, trials: Iterable<TrialOutcome>, options: SummaryOptions = {}): RunSummary {
  return summarizeCells(spec, cellsFromTrials(spec, trials, options.clusterBy), { ...options, everyCondition: true });
}

function roles(study: SummarySpec['studies'][number]): { baseline: string; treatments: string[] } {
  const baseline = baselinesOf({ studies: [study] }).get(study.id);
  const treatments = study.conditions.filter((c) => c.id !== baseline).map((c) => c.id);
  if (baseline === undefined || treatments.length === 0) throw new Error(`study "${study.id}" needs a baseline and at least one other condition to be summarised`);
  return { baseline, treatments };
}

/** Table 1 from per-cluster counts (see ./cells.ts). */
export function summarizeCells(spec: SummarySpec, cells: RunCells, options: SummaryOptions & { everyCondition?: boolean } = {}): RunSummary {
  const clusterBy = options.clusterBy ?? 'case';
  const ablations: Ablation[] = [];
  const studies = spec.studies.flatMap((study) => {
    const { baseline, treatments } = roles(study);
    const mine = {
      status: cells.status.filter((c) => c.study === study.id),
      pairs: cells.pairs.filter((c) => c.study === study.id),
      orders: cells.orders.filter((c) => c.study === study.id),
    };
    if (study.conditions.length > 2) ablations.push(ablationOf(study.id, baseline, treatments, mine));
    const shown = options.everyCondition ? treatments : treatments.slice(0, 1);
    return shown.map((treatment) => toStudySummary(spec, study, cells, mine, baseline, treatment, clusterBy));
  });
  const summary = ablations.length ? { studies, ablations } : { studies };
  const o = options.outcomes;
  return o ? withOutcomes(summary, { studies: spec.studies, replicates: o.replicates }, o.trials, o.price) : summary;
}

type Mine = { status: StatusCell[]; pairs: PairCell[]; orders: OrderCell[] };

function toStudySummary(
  spec: SummarySpec,
  study: SummarySpec['studies'][number],
  cells: RunCells,
  mine: Mine,
  baseline: string,
  treatment: string,
  clusterBy: ClusterBy,
): StudySummary {
  const hasOrders = mine.orders.some((o) => o.units > 0);
  const rowKeys = sortRows(spec, [...new Map(mine.status.map((c) => [`${c.scenario}\u0000${c.locale}`, { scenario: c.scenario, locale: c.locale }])).values()]);
  const rows: SummaryRow[] = [];
  const grouped = <T extends { scenario: string; locale: string }>(xs: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of xs) {
      const key = `${x.scenario}\u0000${x.locale}`;
      const list = m.get(key);
      if (list) list.push(x);
      else m.set(key, [x]);
    }
    return (k: { scenario: string; locale: string }) => m.get(`${k.scenario}\u0000${k.locale}`) ?? [];
  };
  const statusIn = grouped(mine.status);
  const pairsIn = grouped(mine.pairs);
  const ordersIn = grouped(mine.orders);
  for (const k of rowKeys) {
    const inRow = { status: statusIn(k), pairs: pairsIn(k), orders: ordersIn(k) };
    const st = inRow.status;
    const b = st.filter((c) => c.condition === baseline);
    const t = st.filter((c) => c.condition === treatment);
    if (!b.length && !t.length) continue;
    const pairs = inRow.pairs.filter((p) => p.treatment === treatment);
    const pc = pairCounts(pairs);
    const orders = inRow.orders;
    rows.push({
      scenario: k.scenario,
      locale: k.locale,
      baseline: countOf(b),
      treatment: countOf(t),
      clustered: { baseline: clusteredOf(b), treatment: clusteredOf(t) },
      pairs: pc,
      difference: differenceOf(pairs),
      mcnemar: mcnemarOf(pc),
      ...(hasOrders && {
        orderConsistency: { baseline: orderOf(orders.filter((o) => o.condition === baseline)), treatment: orderOf(orders.filter((o) => o.condition === treatment)) },
      }),
    });
  }
  const bAll = mine.status.filter((c) => c.condition === baseline);
  const tAll = mine.status.filter((c) => c.condition === treatment);
  const pAll = mine.pairs.filter((p) => p.treatment === treatment);
  const pairs = pairCounts(pAll);
  const complete = pairs.improved + pairs.same + pairs.regressed;

  const categories: StudySummary['categories'] = {};
  const catOf = (condition: string) => new Map(cells.categories.filter((c) => c.study === study.id && c.condition === condition).map((c) => [c.category, c.trials]));
  const bCats = catOf(baseline);
  const tCats = catOf(treatment);
  for (const name of [...new Set([...bCats.keys(), ...tCats.keys()])].sort()) categories[name] = { baseline: bCats.get(name) ?? 0, treatment: tCats.get(name) ?? 0 };

  // pass^k with k = the most replicates any task of either condition has (tasks with fewer are skipped)
  const tasksOf = (c: string) => cells.tasks.filter((x) => x.study === study.id && x.condition === c);
  const k = Math.max(0, ...[...tasksOf(baseline), ...tasksOf(treatment)].map((x) => x.decided));
  const passK = k > 1 ? { k, baseline: passKOf(tasksOf(baseline), k), treatment: passKOf(tasksOf(treatment), k) } : undefined;

  const m = complete ? mcnemarOf(pairs) : null;
  const flipped = cells.flipped.filter((f) => f.study === study.id && (f.condition === baseline || f.condition === treatment));
  return {
    study: study.id,
    kind: study.kind,
    baseline,
    treatment,
    rows,
    total: { baseline: countOf(bAll), treatment: countOf(tAll) },
    pairs,
    mcnemarP: m ? m.pExact : null,
    clusterBy,
    clustered: { baseline: clusteredOf(bAll), treatment: clusteredOf(tAll) },
    difference: differenceOf(pAll),
    mcnemar: m,
    categories,
    ...(passK && { passK }),
    ...(hasOrders && {
      orderConsistency: {
        baseline: orderOf(mine.orders.filter((o) => o.condition === baseline)),
        treatment: orderOf(mine.orders.filter((o) => o.condition === treatment)),
      },
      flipped: flipped.map(({ study: _s, ...f }) => f),
      flippedTotal: (cells.flippedTotal.get(`${study.id}\u0000${baseline}`) ?? 0) + (cells.flippedTotal.get(`${study.id}\u0000${treatment}`) ?? 0),
    }),
  };
}

function ablationOf(study: string, baseline: string, treatments: string[], mine: Mine): Ablation {
  const conditions = treatments.map((condition) => {
    const p = mine.pairs.filter((x) => x.treatment === condition);
    const pairs = pairCounts(p);
    return {
      condition,
      baseline: countOf(mine.status.filter((c) => c.condition === baseline)),
      treatment: countOf(mine.status.filter((c) => c.condition === condition)),
      pairs,
      difference: differenceOf(p),
      mcnemar: pairs.improved + pairs.same + pairs.regressed ? mcnemarOf(pairs) : null,
    };
  });
  const effect = (x: (typeof conditions)[number]) => x.difference.estimate ?? -Infinity;
  conditions.sort((a, b) => effect(b) - effect(a) || (a.condition < b.condition ? -1 : 1));
  return { study, baseline, conditions };
}

function countOf(cells: StatusCell[]): PassCount {
  const c = { pass: 0, n: 0, unresolved: 0, untested: 0 };
  for (const x of cells) {
    c.pass += x.passed;
    c.n += x.passed + x.failed;
    c.unresolved += x.unresolved;
    c.untested += x.untested;
  }
  return c;
}

/** Per cluster, the sums of `fields` over its cells (a cluster has several cells only when clustering by scenario). */
function byCluster<T extends { cluster: string }>(cells: readonly T[], value: (x: T) => number[]): number[][] {
  const m = new Map<string, number[]>();
  for (const x of cells) {
    const v = value(x);
    const have = m.get(x.cluster);
    if (!have) m.set(x.cluster, v);
    else for (let i = 0; i < v.length; i++) have[i] += v[i];
  }
  // in cluster order, so the sums (and the last digits of every SE) do not depend on the order cells arrived in
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

function clusteredOf(cells: StatusCell[]): Clustered {
  const per = byCluster(cells, (c) => [c.passed, c.passed + c.failed]);
  const r = clusteredProportion(per.map(([sum, n]) => ({ sum, n })));
  return { estimate: r.estimate, se: r.se, ci95: r.ci95, clusters: r.clusters, df: r.df, designEffect: r.designEffect };
}

function pairCounts(cells: PairCell[]): StudySummary['pairs'] {
  const p = { improved: 0, same: 0, regressed: 0, incomplete: 0 };
  for (const c of cells) {
    p.improved += c.improved;
    p.regressed += c.regressed;
    p.same += c.samePassed + c.sameFailed;
    p.incomplete += c.incomplete;
  }
  return p;
}

function differenceOf(cells: PairCell[]): Difference {
  const per = byCluster(cells, (c) => [c.improved + c.regressed + c.samePassed + c.sameFailed, c.improved, c.regressed]);
  // the export's fields only: the reason for a missing interval is derived from them where it is shown (lib/analysis/format.ts)
  const { ciReason: _reason, ...d } = pairedDifference(per.map(([pairs, improved, regressed]) => ({ pairs, improved, regressed })));
  return d;
}

function mcnemarOf(p: StudySummary['pairs']): McNemarResult {
  return mcnemar(p.improved, p.regressed);
}

function orderOf(cells: OrderCell[]): OrderConsistency | null {
  const per = byCluster(cells, (c) => [c.units, c.consistent, c.calls, c.firstPicks]).map(([units, consistent, calls, firstPicks]) => ({
    units,
    consistent,
    calls,
    firstPicks,
  }));
  let cases = 0;
  let consistent = 0;
  let calls = 0;
  let firstPicks = 0;
  for (const c of per) {
    cases += c.units;
    consistent += c.consistent;
    calls += c.calls;
    firstPicks += c.firstPicks;
  }
  if (cases === 0 && calls === 0) return null;
  const w = wilson(firstPicks, calls);
  const cl = clusteredProportion(per.map((c) => ({ sum: c.firstPicks, n: c.calls })));
  return {
    cases,
    consistent,
    flipRate: cases ? (cases - consistent) / cases : null,
    calls,
    firstPicks,
    firstPositionRate: calls ? firstPicks / calls : null,
    firstPositionCi95: w ? [w.low, w.high] : null,
    firstPositionClustered: { estimate: cl.estimate, se: cl.se, ci95: cl.ci95, clusters: cl.clusters, df: cl.df, designEffect: cl.designEffect },
  };
}

function sortRows<T extends { scenario: string; locale: string }>(spec: SummarySpec, rows: T[]): T[] {
  const scenarioRank = new Map(spec.scenarios?.map((s, i) => [s.id, i]));
  const localeRank = new Map(spec.locales?.map((l, i) => [l, i]));
  const rank = (m: Map<string, number>, key: string) => m.get(key) ?? Number.MAX_SAFE_INTEGER;
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return rows.sort(
    (a, b) =>
      rank(scenarioRank, a.scenario) - rank(scenarioRank, b.scenario) ||
      byCode(a.scenario, b.scenario) ||
      rank(localeRank, a.locale) - rank(localeRank, b.locale) ||
      byCode(a.locale, b.locale),
  );
}

function passKOf(tasks: { passed: number; decided: number }[], k: number): PassK {
  // passHatK needs each task's outcomes; their order does not matter to C(c, k)/C(n, k)
  const {
    passHatK: p,
    rate,
    tasks: n,
    skipped,
  } = passHatK(
    tasks.map((t) => Array.from({ length: t.decided }, (_, i) => i < t.passed)),
    k,
  );
  return { passHatK: p, rate, tasks: n, skipped };
}
