import type { TrialOutcome } from '../schema/table1';
import type { SummarySpec } from './summary';

export { PAIR_CLASSES, type PairClass, type ReviewPair, type ReviewSide } from '../schema/review-pair';
import { PAIR_CLASSES, type PairClass, type ReviewPair, type ReviewSide } from '../schema/review-pair';

/**
 * Every pair (baseline vs. each treatment condition of its study, joined on pairKey) with a failed trial on
 * either side — what a reviewer should look at (docs/review.md) — regressed first, then both failed,
 * improved, and failures whose partner has no decided result. Same join and statuses as Table 1.
 */
export function reviewPairs(spec: SummarySpec, trials: Iterable<TrialOutcome>): ReviewPair[] {
  const byPair = new Map<string, Map<string, TrialOutcome>>();
  for (const t of trials) {
    let p = byPair.get(t.pairKey);
    if (!p) byPair.set(t.pairKey, (p = new Map()));
    p.set(t.condition, t);
  }
  const out: ReviewPair[] = [];
  for (const [pairKey, byCondition] of byPair) {
    const { study, scenario, locale, caseId, orderIndex, replicate } = byCondition.values().next().value!;
    const s = spec.studies.find((x) => x.id === study);
    const baseline = s?.conditions.find((c) => c.baseline);
    if (!s || !baseline) continue;
    for (const c of s.conditions.filter((x) => !x.baseline)) {
      const b = byCondition.get(baseline.id);
      const t = byCondition.get(c.id);
      const cls = classify(b?.status, t?.status);
      if (!cls) continue;
      out.push({
        pairKey,
        study,
        scenario,
        locale,
        caseId,
        order: orderIndex,
        replicate,
        baseline: side(baseline.id, b),
        treatment: side(c.id, t),
        class: cls,
      });
    }
  }
  const rank = (c: PairClass) => PAIR_CLASSES.indexOf(c);
  return out.sort(
    (x, y) =>
      rank(x.class) - rank(y.class) ||
      x.study.localeCompare(y.study) ||
      x.scenario.localeCompare(y.scenario) ||
      x.locale.localeCompare(y.locale) ||
      x.caseId.localeCompare(y.caseId) ||
      x.order - y.order ||
      x.replicate - y.replicate ||
      x.treatment.condition.localeCompare(y.treatment.condition),
  );
}

function classify(b: string | undefined, t: string | undefined): PairClass | null {
  if (b !== 'failed' && t !== 'failed') return null;
  if (b === 'failed' && t === 'failed') return 'both-failed';
  if (b === 'passed') return 'regressed';
  if (t === 'passed') return 'improved';
  return 'unpaired';
}

function side(condition: string, t: TrialOutcome | undefined): ReviewSide {
  return { condition, trialId: t?.id ?? null, status: t?.status ?? null, categories: t?.categories ?? [] };
}
