import type { PriceTable } from '../design/cost';
import {
  COST_METRICS,
  type ConditionCost,
  type ConditionNoise,
  type CostMetric,
  type MetricDifference,
  type StudyCost,
  type StudyNoise,
  type StudyPower,
  type TrialUsage,
  type UnpassableCase,
} from '../schema/outcomes';
import type { RunSummary, StudySummary } from '../schema/table1';
import { clusteredMean } from '../stats/clustered';
import { Z_95 } from '../stats/wilson';
import { anovaIcc, connorReason, designEffect, minimumDetectableDifference, pilotPairs, type PairClusterCounts } from './power';

// The outcomes beside Table 1 (docs/design.md#the-statistics-it-relies-on), pure: from one row per trial (lib/db/usage.ts), per
// study, the noise floor from replicates, cost as an outcome, the minimum detectable difference of the run's
// pairs and the cases no condition passes. loadRunSummary attaches them to each StudySummary.

const DECIDED = new Set(['passed', 'failed']);
/** Trials that got an answer: their usage counts. */
const ANSWERED = new Set(['passed', 'failed', 'untested']);
const caseKey = (t: Pick<TrialUsage, 'scenario' | 'locale' | 'caseId'>) => `${t.scenario}|${t.locale}|${t.caseId}`;

function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const g = m.get(k);
    if (g) g.push(x);
    else m.set(k, [x]);
  }
  return m;
}

/**
 * One condition's replicate noise. A task is a case in one candidate order; its decided replicates are
 * identical trials, so a task whose replicates both passed and failed flipped. The within-task variance
 * (pooled, each task's p̂(1 − p̂)·k/(k − 1) weighted by k − 1) is the noise of one trial that repeating it
 * would show; two identical runs of n decided trials then differ in pass rate with variance 2σ²/n, and
 * 1.96 times its root is the difference noise alone reaches 5% of the time.
 */
export function conditionNoise(condition: string, trials: readonly TrialUsage[]): ConditionNoise {
  const decided = trials.filter((t) => DECIDED.has(t.status));
  const tasks = [...groupBy(decided, (t) => `${caseKey(t)}|o${t.orderIndex}`).values()].map((g) => g.map((t): number => (t.status === 'passed' ? 1 : 0)));
  const replicated = tasks.filter((g) => g.length >= 2);
  const flipped = replicated.filter((g) => g.some((y) => y !== g[0])).length;
  let ss = 0;
  let df = 0;
  for (const g of replicated) {
    const m = g.reduce((a, y) => a + y, 0) / g.length;
    ss += g.reduce((a, y) => a + (y - m) ** 2, 0);
    df += g.length - 1;
  }
  const withinVariance = df > 0 ? ss / df : null;
  const n = decided.length;
  return {
    condition,
    tasks: replicated.length,
    flipped,
    flipRate: replicated.length > 0 ? flipped / replicated.length : null,
    icc: anovaIcc(replicated),
    withinVariance,
    n,
    noiseFloor: withinVariance !== null && n > 0 ? Z_95 * Math.sqrt((2 * withinVariance) / n) : null,
  };
}

export function studyNoise(
  study: Pick<StudySummary, 'baseline' | 'treatment' | 'difference'>,
  conditions: readonly string[],
  trials: readonly TrialUsage[],
  replicates: number,
): StudyNoise {
  const byCondition = groupBy(trials, (t) => t.condition);
  const noise = conditions.map((c) => conditionNoise(c, byCondition.get(c) ?? []));
  const b = noise.find((x) => x.condition === study.baseline);
  const t = noise.find((x) => x.condition === study.treatment);
  const known = b && t && b.withinVariance !== null && t.withinVariance !== null && b.n > 0 && t.n > 0;
  const noiseFloor = known ? Z_95 * Math.sqrt(b.withinVariance! / b.n + t.withinVariance! / t.n) : null;
  const estimate = study.difference?.estimate ?? null;
  const reason =
    replicates < 2
      ? 'one replicate: the noise floor needs two or more (set replicates)'
      : noiseFloor === null
        ? 'no task has two decided replicates in both conditions'
        : null;
  return {
    replicates,
    conditions: noise,
    noiseFloor,
    withinNoise: noiseFloor !== null && estimate !== null ? Math.abs(estimate) < noiseFloor : null,
    reason,
  };
}

const metricOf = (t: TrialUsage, m: CostMetric): number | null => t[m];

/**
 * Cost as an outcome: per condition, each metric's total and mean per trial over the trials that got an
 * answer (tokens over those that reported them), the estimated cost at the price row; against the
 * baseline, the mean per-pair difference with its cluster-robust interval (the cluster: the case).
 */
export function studyCost(baseline: string, conditions: readonly string[], trials: readonly TrialUsage[], price: OutcomePrice | null): StudyCost {
  const row = price ? (price.table.prices.find((p) => p.provider === price.provider && p.model === price.model) ?? null) : null;
  const answered = trials.filter((t) => ANSWERED.has(t.status));
  const byCondition = groupBy(answered, (t) => t.condition);
  const pairs = [...groupBy(answered, (t) => t.pairKey).values()];
  const out: ConditionCost[] = conditions.map((condition) => {
    const ts = byCondition.get(condition) ?? [];
    const metrics = Object.fromEntries(
      COST_METRICS.map((m) => {
        const xs = ts.map((t) => metricOf(t, m)).filter((x): x is number => x !== null);
        const total = xs.length > 0 ? xs.reduce((a, x) => a + x, 0) : null;
        return [m, { total, trials: xs.length, perTrial: total !== null ? total / xs.length : null }];
      }),
    ) as ConditionCost['metrics'];
    const cost =
      row && metrics.inputTokens.total !== null
        ? ((metrics.inputTokens.total ?? 0) * row.inputPerMTok + (metrics.outputTokens.total ?? 0) * row.outputPerMTok) / 1_000_000
        : null;
    if (condition === baseline) return { condition, baseline: true, trials: ts.length, metrics, cost };
    const difference = Object.fromEntries(COST_METRICS.map((m) => [m, pairedMetric(pairs, baseline, condition, m)])) as Record<CostMetric, MetricDifference>;
    return { condition, baseline: false, trials: ts.length, metrics, cost, difference };
  });
  return {
    conditions: out,
    price:
      row && price
        ? { provider: row.provider, model: row.model, inputPerMTok: row.inputPerMTok, outputPerMTok: row.outputPerMTok, currency: price.table.currency }
        : null,
  };
}

function pairedMetric(pairs: readonly TrialUsage[][], baseline: string, treatment: string, m: CostMetric): MetricDifference {
  const clusters = new Map<string, { sum: number; n: number }>();
  for (const p of pairs) {
    const b = p.find((t) => t.condition === baseline);
    const t = p.find((x) => x.condition === treatment);
    const yb = b && metricOf(b, m);
    const yt = t && metricOf(t, m);
    if (yb === null || yb === undefined || yt === null || yt === undefined) continue;
    const c = clusters.get(caseKey(b!)) ?? { sum: 0, n: 0 };
    c.sum += yt - yb;
    c.n += 1;
    clusters.set(caseKey(b!), c);
  }
  const e = clusteredMean([...clusters.values()]);
  return { estimate: e.estimate, ci95: e.ci95, ciReason: e.ciReason, pairs: e.n, clusters: e.clusters };
}

/** The run's complete baseline/treatment pairs per case, by outcome (what the planner reads a pilot from). */
export function pairClusters(baseline: string, treatment: string, trials: readonly TrialUsage[]): PairClusterCounts[] {
  const byCase = new Map<string, PairClusterCounts>();
  for (const p of groupBy(trials, (t) => t.pairKey).values()) {
    const b = p.find((t) => t.condition === baseline);
    const t = p.find((x) => x.condition === treatment);
    if (!b || !t || !DECIDED.has(b.status) || !DECIDED.has(t.status)) continue;
    const c = byCase.get(caseKey(b)) ?? { improved: 0, regressed: 0, same: 0 };
    if (b.status === 'failed' && t.status === 'passed') c.improved++;
    else if (b.status === 'passed' && t.status === 'failed') c.regressed++;
    else c.same++;
    byCase.set(caseKey(b), c);
  }
  return [...byCase.values()];
}

export const RUN_POWER = { alpha: 0.05, power: 0.8 } as const;

/** What a run of this many pairs could detect, at α 0.05 and power 0.8, with its own ψ and clustering. */
export function studyPower(baseline: string, treatment: string, trials: readonly TrialUsage[]): StudyPower {
  const pilot = pilotPairs(pairClusters(baseline, treatment, trials));
  const de = designEffect(pilot.pairsPerCluster, pilot.icc);
  const base = { ...RUN_POWER, pairs: pilot.pairs, psi: pilot.psi, icc: pilot.icc, pairsPerCluster: pilot.pairsPerCluster, designEffect: de };
  if (pilot.pairs === 0 || pilot.psi === null) return { ...base, minimumDetectable: null, reason: 'no complete pairs' };
  const reason = connorReason({ delta: pilot.psi, psi: pilot.psi, ...RUN_POWER });
  if (reason) return { ...base, minimumDetectable: null, reason };
  const mdd = minimumDetectableDifference(pilot.pairs, pilot.psi, { ...RUN_POWER, pairsPerCluster: pilot.pairsPerCluster, icc: pilot.icc });
  return { ...base, minimumDetectable: mdd, reason: mdd === null ? 'too few pairs for any difference at this discordant share' : null };
}

/** Cases where every decided trial of every condition failed (at least one decided trial in each condition). */
export function unpassableCases(conditions: readonly string[], trials: readonly TrialUsage[]): UnpassableCase[] {
  const out: UnpassableCase[] = [];
  for (const g of groupBy(trials, caseKey).values()) {
    const decided = g.filter((t) => DECIDED.has(t.status));
    if (decided.some((t) => t.status === 'passed')) continue;
    if (!conditions.every((c) => decided.some((t) => t.condition === c))) continue;
    out.push({ scenario: g[0].scenario, locale: g[0].locale, caseId: g[0].caseId, trials: decided.length });
  }
  return out.sort((a, b) => caseKey(a).localeCompare(caseKey(b), 'en'));
}

/** The price table and the run's provider and model (the row is looked up here). */
export interface OutcomePrice {
  table: PriceTable;
  provider: string;
  model: string;
}

export interface OutcomeSpec {
  studies: readonly { id: string; conditions: readonly { id: string; baseline: boolean }[] }[];
  replicates?: number;
}

/** Table 1 with each study's noise, cost, power and unpassable cases attached. */
export function withOutcomes(summary: RunSummary, spec: OutcomeSpec, trials: readonly TrialUsage[], price: OutcomePrice | null = null): RunSummary {
  const byStudy = groupBy(trials, (t) => t.study);
  return {
    ...summary,
    studies: summary.studies.map((s) => {
      const ts = byStudy.get(s.study) ?? [];
      const conditions = spec.studies.find((x) => x.id === s.study)?.conditions.map((c) => c.id) ?? [s.baseline, s.treatment];
      return {
        ...s,
        noise: studyNoise(s, conditions, ts, spec.replicates ?? 1),
        cost: studyCost(s.baseline, conditions, ts, price),
        power: studyPower(s.baseline, s.treatment, ts),
        unpassable: unpassableCases(conditions, ts),
      };
    }),
  };
}

/** Per study, the cases every run of a comparison flagged unpassable (failed by every condition of every run). */
export function unpassableAcrossRuns(summaries: readonly RunSummary[]): { study: string; cases: UnpassableCase[] }[] {
  if (summaries.length === 0) return [];
  const [first, ...rest] = summaries;
  const out: { study: string; cases: UnpassableCase[] }[] = [];
  for (const s of first.studies) {
    if (out.some((o) => o.study === s.study)) continue;
    const cases = (s.unpassable ?? [])
      .filter((c) => rest.every((r) => r.studies.some((x) => x.study === s.study && (x.unpassable ?? []).some((u) => caseKey(u) === caseKey(c)))))
      .map((c) => ({
        ...c,
        trials: c.trials + rest.reduce((a, r) => a + (r.studies.find((x) => x.study === s.study)?.unpassable?.find((u) => caseKey(u) === caseKey(c))?.trials ?? 0), 0),
      }));
    if (cases.length > 0) out.push({ study: s.study, cases });
  }
  return out;
}
