import type { ModelDifference, ModelDifferenceCell, ModelPairCell } from '../schema/compare';
export type { ModelPairCell } from '../schema/compare';
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

/** The model-vs-model cells from both runs' trial outcomes in memory (lib/db/compare.ts computes them in SQL). */
/** `cases`: only these (study, case) pair — the unchanged cases of two versions; null: every case (one version). */
export function modelPairCells(
  reference: Iterable<TrialOutcome>,
  other: Iterable<TrialOutcome>,
  clusterBy: ClusterBy = 'case',
  cases: readonly { study: string; caseId: string }[] | null = null,
): ModelPairCell[] {
  const allowed = cases ? new Set(cases.map((c) => c.study + SEP + c.caseId)) : null;
  const ref = new Map<string, TrialOutcome>();
  for (const t of reference) if (DECIDED.has(t.status) && (!allowed || allowed.has(t.study + SEP + t.caseId))) ref.set(trialIdentity(t), t);
  const cells = new Map<string, ModelPairCell>();
  for (const t of other) {
    if (!DECIDED.has(t.status)) continue;
    const r = ref.get(trialIdentity(t));
    if (!r) continue;
    const cluster = clusterOf(t, t.caseId, clusterBy);
    const k = t.study + SEP + t.condition + SEP + cluster;
    let c = cells.get(k);
    if (!c) cells.set(k, (c = { study: t.study, condition: t.condition, cluster, pairs: 0, improved: 0, regressed: 0, refPass: 0, otherPass: 0 }));
    const refPassed = r.status === 'passed';
    const otherPassed = t.status === 'passed';
    c.pairs += 1;
    if (refPassed) c.refPass += 1;
    if (otherPassed) c.otherPass += 1;
    if (otherPassed && !refPassed) c.improved += 1;
    if (refPassed && !otherPassed) c.regressed += 1;
  }
  return [...cells.values()];
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Per study and condition, the paired difference and McNemar from the cells (clusters taken in code-unit order). */
export function modelDifferencesFromCells(
  studies: readonly StudyConditions[],
  referenceRunId: string,
  otherRunId: string,
  cells: readonly ModelPairCell[],
): ModelDifference[] {
  const sorted = [...cells].sort((a, b) => byCode(a.cluster, b.cluster));
  return studies.map((s) => {
    const ordered = [...s.conditions].sort((a, b) => Number(b.baseline) - Number(a.baseline));
    return {
      study: s.id,
      referenceRunId,
      otherRunId,
      conditions: ordered.map((cond): ModelDifferenceCell => {
        const clusters: (PairCluster & { refPass: number; otherPass: number })[] = sorted
          .filter((c) => c.study === s.id && c.condition === cond.id)
          .map((c) => ({ pairs: c.pairs, improved: c.improved, regressed: c.regressed, refPass: c.refPass, otherPass: c.otherPass }));
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
          same: sum((c) => c.pairs) - b - cc,
          referenceBetter: cc,
          difference: exportedDifference(pairedDifference(clusters)),
          mcnemar: m ? { b, c: cc, pExact: m.pExact, pMid: m.pMid } : null,
        };
      }),
    };
  });
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
  cases: readonly { study: string; caseId: string }[] | null = null,
): ModelDifference[] {
  return modelDifferencesFromCells(studies, reference.runId, other.runId, modelPairCells(reference.trials, other.trials, clusterBy, cases));
}

/** The difference's exported fields (the reason for a missing interval is derived from them where it is shown). */
function exportedDifference({ ciReason: _reason, ...d }: ReturnType<typeof pairedDifference>) {
  return d;
}
