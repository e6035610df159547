import type { Case, ExperimentSpec, Scenario } from '../schema/experiment';

// Which cases of two versions of one experiment may be paired trial by trial (docs/compare.md): a case pairs only
// where what the model is asked and how its answer is scored are the same in both versions — the task text,
// the card (checks, evidence gate, per-condition expectations), the case's study-kind input (a fixed call,
// a tool result, …), its scenario's fixture and tools, and the study's kind and candidate orders. What the
// conditions send (the tool definitions under test) may differ: that is the comparison.

export interface CaseRef {
  study: string;
  caseId: string;
}

export interface ExcludedCase extends CaseRef {
  scenario: string;
  locale: string;
  /** e.g. "task text changed", "card changed", "only in v2"; several joined by ", ". */
  reason: string;
}

const CARD_FIELDS = new Set(['checks', 'evidenceGate', 'expectByCondition']);
const PLACE_FIELDS = new Set(['id', 'scenario', 'locale', 'task']);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The scenario's fields other than its title and source: tools (ids, effects) and the study kinds' (task: the fixture). */
function scenarioReasons(a: Scenario | undefined, b: Scenario | undefined): string[] {
  if (!a || !b) return ['scenario missing'];
  const out: string[] = [];
  if (!same(a.tools, b.tools)) out.push('scenario tools changed');
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => !['id', 'title', 'source', 'tools'].includes(k)));
  if ([...keys].some((k) => !same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))) out.push('fixture changed');
  return out;
}

function caseReasons(a: Case, b: Case): string[] {
  const out: string[] = [];
  if (a.scenario !== b.scenario) out.push('scenario changed');
  if (a.locale !== b.locale) out.push('locale changed');
  if (a.task !== b.task) out.push('task text changed');
  if ([...CARD_FIELDS].some((k) => !same(a[k as keyof Case], b[k as keyof Case]))) out.push('card changed');
  const rest = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => !CARD_FIELDS.has(k) && !PLACE_FIELDS.has(k));
  const changed = rest.filter((k) => !same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  if (changed.length) out.push(`case input changed (${changed.sort().join(', ')})`);
  return out;
}

/**
 * The cases of `from` and `to` split into those that pair (unchanged) and those listed apart with the reason.
 * `labels` name the versions in the reasons ("only in v2").
 */
export function comparableCases(from: ExperimentSpec, to: ExperimentSpec, labels: { from: string; to: string }): { unchanged: CaseRef[]; excluded: ExcludedCase[] } {
  const unchanged: CaseRef[] = [];
  const excluded: ExcludedCase[] = [];
  const scenarios = (s: ExperimentSpec) => new Map(s.scenarios.map((x) => [x.id, x]));
  const [sa, sb] = [scenarios(from), scenarios(to)];
  for (const studyA of from.studies) {
    const studyB = to.studies.find((s) => s.id === studyA.id);
    const studyReasons: string[] = [];
    if (studyB && studyB.kind !== studyA.kind) studyReasons.push('study kind changed');
    if (studyB && studyB.orderPolicy !== studyA.orderPolicy) studyReasons.push('candidate orders changed');
    for (const a of studyA.cases) {
      const b = studyB?.cases.find((c) => c.id === a.id);
      const place = { study: studyA.id, caseId: a.id, scenario: a.scenario, locale: a.locale };
      if (!b) {
        excluded.push({ ...place, reason: `only in ${labels.from}` });
        continue;
      }
      const reasons = [...studyReasons, ...caseReasons(a, b), ...scenarioReasons(sa.get(a.scenario), sb.get(b.scenario))];
      if (reasons.length) excluded.push({ ...place, reason: [...new Set(reasons)].join(', ') });
      else unchanged.push({ study: studyA.id, caseId: a.id });
    }
  }
  for (const studyB of to.studies) {
    const studyA = from.studies.find((s) => s.id === studyB.id);
    for (const b of studyB.cases)
      if (!studyA?.cases.some((c) => c.id === b.id))
        excluded.push({ study: studyB.id, caseId: b.id, scenario: b.scenario, locale: b.locale, reason: `only in ${labels.to}` });
  }
  return { unchanged, excluded };
}
