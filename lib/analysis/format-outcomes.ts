import type { ConditionCost, CostMetric, MetricDifference, StudyCost, StudyNoise, StudyPower } from '../schema/outcomes';
import type { StudySummary, SummaryRow } from '../schema/table1';
import { pct, plural, pts } from './format';
import { readVerdict, type PairedNumbers, type Verdict } from './reading';

// The outcomes beside Table 1 (lib/analysis/outcomes.ts) as text, in the one format (./format.ts): rates in %,
// differences in percentage points, counts as integers. The run page, the CLI and the tests read the same strings.

/** `12,345`: a count. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en');
}

/** `1,234.5`: a mean count per trial (one decimal). */
export function perTrial(x: number): string {
  return x.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** `+12.5` / `-3.0`: a signed difference of means per trial. */
export function signedPerTrial(x: number): string {
  const v = perTrial(x);
  return x >= 0 && !v.startsWith('-') ? `+${v}` : v;
}

/** The noise floor beside a paired difference: `noise floor ±9.8 pts — within noise` (or why there is none). */
export function formatNoiseFloor(n: StudyNoise): string {
  if (n.noiseFloor === null) return `noise floor — (${n.reason ?? 'not estimable'})`;
  const verdict = n.withinNoise === null ? '' : n.withinNoise ? ' — within noise' : ' — beyond noise';
  return `noise floor ±${pts(n.noiseFloor).replace('+', '')}${verdict}`;
}

/** `flip rate 3/8 tasks 37.5%, ICC 0.41`: how often identical trials of a condition disagreed. */
export function formatFlipRate(c: StudyNoise['conditions'][number]): string {
  if (c.flipRate === null) return 'flip rate — (no task with two decided replicates)';
  return `flip rate ${c.flipped}/${plural(c.tasks, 'task')} ${pct(c.flipRate)}, ICC ${c.icc === null ? '—' : c.icc.toFixed(2)}`;
}

/**
 * `this run could detect ≥ 14.2 points (α 0.05, power 80%, design effect 1.35)`, or why it cannot say. Given the
 * study's verdict (./reading.ts) and it is *improved* or *worse*, the line says what the figure is — a planning
 * figure for a run of this size, which does not qualify the difference this run shows — so that "too few pairs"
 * never stands unexplained beside a significant result (docs/statistics.md, "Power").
 */
export function formatPower(p: StudyPower, verdict?: Verdict | null): string {
  const line =
    p.minimumDetectable === null
      ? `minimum detectable difference — (${p.reason ?? 'not estimable'})`
      : `this run could detect ≥ ${(100 * p.minimumDetectable).toFixed(1)} points (α ${p.alpha}, power ${pct(p.power).replace('.0%', '%')}, ${plural(p.pairs, 'pair')}, design effect ${p.designEffect.toFixed(2)})`;
  if (verdict !== 'improved' && verdict !== 'worse') return line;
  return `${line}; this is a planning figure for a new run of this size at ${pct(p.power).replace('.0%', '%')} power, and does not qualify the difference this run shows (${verdict})`;
}

/** A Table 1 study's paired numbers for the reading (./reading.ts); null without a paired difference. */
export function studyPairedNumbers(s: StudySummary): PairedNumbers | null {
  if (!s.difference) return null;
  return {
    pairs: s.difference.pairs,
    improved: s.pairs.improved,
    regressed: s.pairs.regressed,
    clusters: s.difference.clusters,
    estimate: s.difference.estimate,
    ci95: s.difference.ci95,
    p: s.mcnemarP,
    icc: s.power?.icc ?? null,
  };
}

/**
 * A Table 1 row's (scenario × locale) paired numbers for the one reading: its own pairs, difference and
 * McNemar, with the study's ICC for the pairs needed; null when the row has no paired difference.
 */
export function rowPairedNumbers(row: SummaryRow, s: StudySummary): PairedNumbers | null {
  if (!row.difference || !row.pairs) return null;
  return {
    pairs: row.difference.pairs,
    improved: row.pairs.improved,
    regressed: row.pairs.regressed,
    clusters: row.difference.clusters,
    estimate: row.difference.estimate,
    ci95: row.difference.ci95,
    p: row.mcnemar?.pExact ?? null,
    icc: s.power?.icc ?? null,
  };
}

/** The verdict of a Table 1 study, in the one vocabulary (./reading.ts); null without a paired difference. */
export function studyVerdict(s: StudySummary): Verdict | null {
  const n = studyPairedNumbers(s);
  if (!n) return null;
  try {
    return readVerdict(n, { alpha: s.power?.alpha }).verdict;
  } catch {
    return null;
  }
}

export const COST_LABELS: Record<CostMetric, string> = {
  inputTokens: 'input tokens',
  outputTokens: 'output tokens',
  cachedTokens: 'cached tokens',
  toolCalls: 'tool calls',
  turns: 'turns',
};

/** A metric's total, `—` when no trial reported it. */
export function formatTotal(c: ConditionCost, m: CostMetric): string {
  const x = c.metrics[m];
  return x.total === null ? '—' : count(x.total);
}

/** `+12.5 per trial [+3.1, +21.9]` over pairs, or `—` and why. */
export function formatMetricDifference(d: MetricDifference): string {
  if (d.estimate === null) return '—';
  const ci =
    d.ci95 && perTrial(d.ci95[0]) !== perTrial(d.ci95[1]) ? ` [${signedPerTrial(d.ci95[0])}, ${signedPerTrial(d.ci95[1])}]` : ` — (${d.ciReason ?? 'no interval'})`;
  return `${signedPerTrial(d.estimate)} per trial${ci}`;
}

/** `USD 0.0123`, or `—` when the model is not priced. */
export function formatCost(c: ConditionCost, cost: StudyCost): string {
  return c.cost === null || !cost.price ? '—' : `${cost.price.currency} ${c.cost.toFixed(4)}`;
}
