import type { ModelDifference, ModelDifferenceCell } from '../schema/compare';
import type { ClusterBy, TrialOutcome } from '../schema/table1';
import { pairedDifference, type PairCluster } from '../stats/clustered';
import { mcnemar } from '../stats/mcnemar';
import { clusterOf } from './cells';

// Model-vs-model paired differences: two runs of one experiment version hold the same trials (same study,
// scenario, locale, case, condition, candidate order and replicate — the trial identity below), so the
// models' answers to identical requests can be paired, exactly as conditions are paired within a run.
// The statistics are lib/stats': the CR1 paired difference over case clusters and McNemar exact / mid-p.

const DECIDED = new Set(['passed', 'failed']);
const SEP = '\u0000';

/** The identity of a trial across runs of one experiment version (the pair key holds case, order, replicate). */
export function trialIdentity(t: Pick<TrialOutcome, 'study' | 'pairKey' | 'condition'>): string {
  return t.study + SEP + t.pairKey + SEP + t.condition;
}

export interface StudyConditions {
  id: string;
  conditions: readonly { id: string; baseline: boolean }[];
}

/**
 * `other` against `reference`, per study and condition, over the identical trials both runs decided.
 * Trials that either run left unresolved, untested or unfinished are outside, as in Table 1.
 */
export function modelDifferences(
  studies: readonly StudyConditions[],
  reference: { runId: string; trials: Iterable<TrialOutcome> },
  other: { runId: string; trials: Iterable<TrialOutcome> },
  clusterBy: ClusterBy = 'case',
): ModelDifference[] {
  const ref = new Map<string, TrialOutcome>();
  for (const t of reference.trials) if (DECIDED.has(t.status)) ref.set(trialIdentity(t), t);
  // study → condition → cluster → counts
  const cells = new Map<string, Map<string, Map<string, PairCluster & { refPass: number; otherPass: number }>>>();
  for (const t of other.trials) {
    if (!DECIDED.has(t.status)) continue;
    const r = ref.get(trialIdentity(t));
    if (!r) continue;
    const cluster = clusterOf(t, t.caseId, clusterBy);
    let byCondition = cells.get(t.study);
    if (!byCondition) cells.set(t.study, (byCondition = new Map()));
    let byCluster = byCondition.get(t.condition);
    if (!byCluster) byCondition.set(t.condition, (byCluster = new Map()));
    let c = byCluster.get(cluster);
    if (!c) byCluster.set(cluster, (c = { pairs: 0, improved: 0, regressed: 0, refPass: 0, otherPass: 0 }));
    const refPassed = r.status === 'passed';
    const otherPassed = t.status === 'passed';
    c.pairs += 1;
    if (refPassed) c.refPass += 1;
    if (otherPassed) c.otherPass += 1;
    if (otherPassed && !refPassed) c.improved += 1;
    if (refPassed && !otherPassed) c.regressed += 1;
  }
  return studies.map((s) => {
    const ordered = [...s.conditions].sort((a, b) => Number(b.baseline) - Number(a.baseline));
    return {
      study: s.id,
      referenceRunId: reference.runId,
      otherRunId: other.runId,
      conditions: ordered.map((cond): ModelDifferenceCell => {
        const clusters = [...(cells.get(s.id)?.get(cond.id)?.values() ?? [])];
        const sum = (f: (c: (typeof clusters)[number]) => number) => clusters.reduce((a, c) => a + f(c), 0);
        const b = sum((c) => c.improved);
        const cc = sum((c) => c.regressed);
        const m = b + cc > 0 || sum((c) => c.pairs) > 0 ? mcnemar(b, cc) : null;
        return {
          condition: cond.id,
          pairs: sum((c) => c.pairs),
          referencePass: sum((c) => c.refPass),
          otherPass: sum((c) => c.otherPass),
          otherBetter: b,
          referenceBetter: cc,
          difference: pairedDifference(clusters),
          mcnemar: m ? { b, c: cc, pExact: m.pExact, pMid: m.pMid } : null,
        };
      }),
    };
  });
}
