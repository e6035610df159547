import { mcnemar, pairedDifference, wilson, type Interval, type McNemar, type PairedDifference } from '../stats';
import { readComparison, readVerdict, type PairedNumbers, type Reading, type Verdict } from './reading';

// The visibility funnel (docs/design.md#the-five-checkpoints): per study × discovery variant × catalog size N × condition,
// how often the needed tool was visible (recall@k), chosen once visible, called with the right arguments, and
// the end result — each paired against the baseline condition of the same cell (improved / same / regressed,
// with the cluster-robust interval of the difference), plus tokens per request and the estimated cost.
// Pure: the use case gives it the scored trials; a trial whose card needs no tool (CLARIFY, STOP) is outside
// the visibility stage (it has nothing to find).

export const FUNNEL_STAGES = ['visible', 'selected', 'arguments', 'result'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];

export const STAGE_LABEL: Record<FunnelStage, string> = {
  visible: 'visible (recall@k)',
  selected: 'chosen | visible',
  arguments: 'arguments | chosen',
  result: 'end result',
};

export interface FunnelTrial {
  study: string;
  condition: string;
  baseline: boolean;
  caseId: string;
  pairKey: string;
  catalogSize: number | null;
  discovery: string | null;
  /** Whether the case card needs a tool (a read or write); CLARIFY / STOP cases do not. */
  needsTool: boolean;
  checkpoints: Record<string, string> | null;
  status: string;
  inputTokens: number | null;
  costUsd: number | null;
}

/** One trial's outcome at a stage: 1 pass, 0 fail, null outside the stage (not reached, untested, not scored). */
export function stageOutcome(t: FunnelTrial, stage: FunnelStage): 0 | 1 | null {
  const cp = t.checkpoints;
  if (!cp) return null;
  const bit = (s: string | undefined) => (s === 'pass' ? 1 : s === 'fail' ? 0 : null);
  if (stage === 'result') return t.status === 'passed' ? 1 : t.status === 'failed' ? 0 : null;
  if (!t.needsTool) return null;
  if (stage === 'visible') return bit(cp.visibility);
  if (cp.visibility !== 'pass') return null;
  if (stage === 'selected') return bit(cp.selection);
  if (cp.selection !== 'pass') return null;
  return bit(cp.parameters);
}

export interface StageCount {
  k: number;
  n: number;
  rate: number | null;
  ci95: Interval | null;
  /** Against the baseline condition of the same cell; null for the baseline itself. */
  paired: PairedStage | null;
}

/**
 * One stage's pairs against the baseline of the same cell (same case, order, replicate, discovery and N), over
 * the pairs where both sides reached the stage: improved (0 → 1), same, regressed (1 → 0); the paired
 * difference with its CR1 interval (clusters: cases; null with the reason where there is nothing to estimate)
 * and both McNemar p on the discordant pairs.
 */
export interface PairedStage {
  improved: number;
  same: number;
  regressed: number;
  difference: PairedDifference;
  mcnemar: McNemar;
}

export interface FunnelRow {
  study: string;
  discovery: string | null;
  catalogSize: number | null;
  condition: string;
  baseline: boolean;
  trials: number;
  stages: Record<FunnelStage, StageCount>;
  /** Mean input tokens per request (formal attempts that reported usage); null when none did. */
  tokensPerRequest: number | null;
  /** Estimated cost per request at the run's prices; null without prices or usage. */
  costPerRequest: number | null;
}

const cellKey = (t: Pick<FunnelTrial, 'study' | 'discovery' | 'catalogSize'>) => `${t.study}\u0000${t.discovery ?? ''}\u0000${t.catalogSize ?? ''}`;

/** The funnel of a run's scored trials, ordered by study, discovery, N, then baseline first. */
export function funnel(trials: readonly FunnelTrial[]): FunnelRow[] {
  const groups = new Map<string, FunnelTrial[]>();
  for (const t of trials) {
    const k = `${cellKey(t)}\u0000${t.condition}`;
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  const baselines = new Map<string, Map<string, FunnelTrial>>();
  for (const t of trials) if (t.baseline) (baselines.get(cellKey(t)) ?? baselines.set(cellKey(t), new Map()).get(cellKey(t))!).set(t.pairKey, t);

  const rows: FunnelRow[] = [];
  for (const g of groups.values()) {
    const first = g[0];
    const base = first.baseline ? null : (baselines.get(cellKey(first)) ?? new Map<string, FunnelTrial>());
    const stages = Object.fromEntries(
      FUNNEL_STAGES.map((stage) => {
        const bits = g.map((t) => stageOutcome(t, stage)).filter((b): b is 0 | 1 => b !== null);
        const k = bits.filter((b) => b === 1).length;
        const n = bits.length;
        let paired: StageCount['paired'] = null;
        if (base) {
          const clusters = new Map<string, { pairs: number; improved: number; regressed: number }>();
          let improved = 0;
          let regressed = 0;
          let same = 0;
          for (const t of g) {
            const b = base.get(t.pairKey);
            const y1 = stageOutcome(t, stage);
            const y0 = b ? stageOutcome(b, stage) : null;
            if (y1 === null || y0 === null) continue;
            const c = clusters.get(t.caseId) ?? clusters.set(t.caseId, { pairs: 0, improved: 0, regressed: 0 }).get(t.caseId)!;
            c.pairs++;
            if (y1 > y0) {
              c.improved++;
              improved++;
            } else if (y1 < y0) {
              c.regressed++;
              regressed++;
            } else same++;
          }
          paired = { improved, same, regressed, difference: pairedDifference([...clusters.values()]), mcnemar: mcnemar(improved, regressed) };
        }
        return [stage, { k, n, rate: n > 0 ? k / n : null, ci95: wilson(k, n), paired }];
      }),
    ) as Record<FunnelStage, StageCount>;
    const tokens = g.map((t) => t.inputTokens).filter((x): x is number => x !== null);
    const costs = g.map((t) => t.costUsd).filter((x): x is number => x !== null);
    rows.push({
      study: first.study,
      discovery: first.discovery,
      catalogSize: first.catalogSize,
      condition: first.condition,
      baseline: first.baseline,
      trials: g.length,
      stages,
      tokensPerRequest: tokens.length > 0 ? tokens.reduce((a, b) => a + b, 0) / tokens.length : null,
      costPerRequest: costs.length > 0 ? costs.reduce((a, b) => a + b, 0) / costs.length : null,
    });
  }
  return rows.sort(
    (a, b) =>
      a.study.localeCompare(b.study) ||
      (a.discovery ?? '').localeCompare(b.discovery ?? '') ||
      (a.catalogSize ?? -1) - (b.catalogSize ?? -1) ||
      Number(b.baseline) - Number(a.baseline) ||
      a.condition.localeCompare(b.condition),
  );
}

/**
 * Which way a stage moved under the treatment: the stage's reading (./reading.ts, docs/statistics.md "Reading a
 * comparison") from its pairs, CR1 interval and exact McNemar p — `up` / `down` for improved / worse, `not shown`,
 * `too few` (no pairs, one case, or too few cases that all moved alike).
 */
export type StageShift = 'up' | 'down' | 'not shown' | 'too few';

/** A stage's numbers as the reading takes them. */
export function stageNumbers(s: PairedStage): PairedNumbers {
  const d = s.difference;
  return {
    pairs: d.pairs,
    improved: s.improved,
    regressed: s.regressed,
    clusters: d.clusters,
    estimate: d.estimate,
    ci95: d.ci95,
    p: d.pairs > 0 ? s.mcnemar.pExact : null,
  };
}

const SHIFT: Record<Verdict, StageShift> = { improved: 'up', worse: 'down', 'not-shown': 'not shown', 'too-few': 'too few' };

export function shiftOf(s: PairedStage): StageShift {
  return SHIFT[readVerdict(stageNumbers(s)).verdict];
}

/**
 * The reading of a pair's two stages, in words: `found more often`, `chosen less often once found`, both, or
 * `no shift shown at either stage`; a stage with too few pairs to tell is named (`…; stage 2: too few pairs to
 * tell`). Read from the stages' numbers, not from a stored shift.
 */
export function pairReading(p: Pick<DescriptionPair, 'visible' | 'chosen'>): string {
  const shift = { visible: shiftOf(p.visible), chosen: shiftOf(p.chosen) };
  const moved: string[] = [];
  if (shift.visible === 'up' || shift.visible === 'down') moved.push(`found ${shift.visible === 'up' ? 'more' : 'less'} often`);
  if (shift.chosen === 'up' || shift.chosen === 'down') moved.push(`chosen ${shift.chosen === 'up' ? 'more' : 'less'} often once found`);
  const unsure = (['visible', 'chosen'] as const).filter((k) => shift[k] === 'too few').map((k) => (k === 'visible' ? 'stage 1' : 'stage 2'));
  if (moved.length === 0 && unsure.length === 2) return 'too few pairs to tell at either stage';
  const head = moved.length
    ? moved.join(' and ')
    : unsure.length === 1
      ? `no shift shown at ${unsure[0] === 'stage 1' ? 'stage 2' : 'stage 1'}`
      : 'no shift shown at either stage';
  return unsure.length ? `${head}; ${unsure.join(' and ')}: too few pairs to tell` : head;
}

/** Each stage's reading in full (verdict, why, numbers, pairs needed). */
export function stageReading(s: PairedStage): Reading {
  return readComparison(stageNumbers(s));
}

/**
 * Descriptions move both stages (docs/discovery.md): for each treatment against the baseline of its study, under
 * the same discovery × N, stage 1 (the needed tool visible) and stage 2 (chosen, over the pairs where it was
 * visible on both sides) side by side. A projection of the funnel rows: the pairs are counted once, there.
 */
export interface DescriptionPair {
  study: string;
  discovery: string | null;
  catalogSize: number | null;
  baseline: string;
  treatment: string;
  /** Stage 1: pairs whose card needs a tool; a pair counts as improved when only the treatment's trial saw it. */
  visible: PairedStage;
  /** Stage 2: pairs where the needed tool was visible in both trials; improved when only the treatment chose it. */
  chosen: PairedStage;
  shift: { visible: StageShift; chosen: StageShift };
}

/** Every baseline → treatment pair of conditions per study × discovery × N, in the funnel's order. */
export function descriptionPairs(rows: readonly FunnelRow[]): DescriptionPair[] {
  const out: DescriptionPair[] = [];
  for (const r of rows) {
    const visible = r.stages.visible.paired;
    const chosen = r.stages.selected.paired;
    if (r.baseline || !visible || !chosen) continue;
    const base = rows.find((b) => b.baseline && b.study === r.study && b.discovery === r.discovery && b.catalogSize === r.catalogSize);
    if (!base) continue;
    out.push({
      study: r.study,
      discovery: r.discovery,
      catalogSize: r.catalogSize,
      baseline: base.condition,
      treatment: r.condition,
      visible,
      chosen,
      shift: { visible: shiftOf(visible), chosen: shiftOf(chosen) },
    });
  }
  return out;
}
