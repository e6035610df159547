import { checksFor, type ExperimentSpec } from '../schema/experiment';
import { findStudyCase, naturalDefinitions } from '../design/matrix';
import type { ChoiceMatrix, ChoicePositions, ChoiceRow, ExportChoices } from '../schema/choices';
import type { TrialPlace } from '../schema/trial-place';

export type { ChoiceMatrix, ChoicePositions, ChoiceRow };

// What the model did (docs/results.md#what-the-model-did): per trial its decision — the tool it called first, by the name it was sent
// in that condition, or CLARIFY / STOP, a reported label, text, or nothing (no answer) — the position the
// chosen tool held in the order sent, and what the case card expected; then the grid of cases × conditions,
// the expected × chosen matrix and the positions, each counted from these rows alone.

/** The decision shown: a tool's name as sent, `CLARIFY`, `STOP`, `label <L>`, `text`, or `no answer`. */
export function decisionOf(r: Pick<ChoiceRow, 'tool' | 'marker' | 'label' | 'answered'>): string {
  if (!r.answered) return NO_ANSWER;
  if (r.tool !== null) return r.tool;
  if (r.marker !== null) return r.marker;
  if (r.label !== null) return `label ${r.label}`;
  return 'text';
}
export const NO_ANSWER = 'no answer';

/** 1-based position of the chosen tool in the order sent; null when no tool was called or the name was not sent. */
export function positionOf(r: Pick<ChoiceRow, 'tool' | 'order'>): number | null {
  if (r.tool === null) return null;
  const i = r.order.indexOf(r.tool);
  return i < 0 ? null : i + 1;
}

/**
 * What the case card expects of the decision, in the same terms as decisionOf: the expected tool by the name
 * this condition sends it under (its scenario id beside, for the grey note), CLARIFY / STOP, or the label;
 * null when the card says nothing about the decision.
 */
export function expectedOf(
  spec: ExperimentSpec,
  r: Pick<ChoiceRow, 'study' | 'caseId' | 'condition' | 'scenario' | 'locale'>,
): { decision: string; toolId?: string } | null {
  const { study, kase } = findStudyCase(spec, r.study, r.caseId);
  for (const check of checksFor(kase, r.condition)) {
    const e = check.expected;
    if (e.tool !== undefined) {
      const condition = study.conditions.find((c) => c.id === r.condition);
      const sent = condition ? naturalDefinitions(spec, condition, r.scenario, r.locale).find((d) => d.tool === e.tool) : undefined;
      return { decision: sent?.name ?? e.tool, toolId: e.tool };
    }
    if (e.decision === 'clarify') return { decision: 'CLARIFY' };
    if (e.decision === 'stop') return { decision: 'STOP' };
    if (e.label !== undefined) return { decision: `label ${e.label}` };
  }
  return null;
}

/** A row with its decision, position and expectation resolved: one line of the choices CSV and export. */
export interface Choice extends Omit<TrialPlace, 'id'> {
  trialId: string;
  status: string;
  expected: string | null;
  /** The expected tool's scenario id, where a tool is expected. */
  expectedToolId: string | null;
  chosen: string;
  /** The called tool's scenario id, where the name called is one the condition sent (conditions may rename tools). */
  chosenToolId?: string | null;
  position: number | null;
  /** How many tools were sent. */
  toolsSent: number;
  /** How many trials this choice stands for (1 but for grouped reads). */
  count: number;
}

/** A function that resolves one row into its choice; expectations are looked up once per study × case × condition × scenario × locale. */
export function choiceResolver(spec: ExperimentSpec): (r: ChoiceRow) => Choice {
  const expected = new Map<string, ReturnType<typeof expectedOf>>();
  const toolIds = new Map<string, Map<string, string>>();
  /** name sent → scenario tool id, per study × condition × scenario × locale */
  const idsOf = (r: ChoiceRow) => {
    const key = `${r.study}\u0000${r.condition}\u0000${r.scenario}\u0000${r.locale}`;
    let ids = toolIds.get(key);
    if (!ids) {
      const condition = spec.studies.find((s) => s.id === r.study)?.conditions.find((c) => c.id === r.condition);
      ids = new Map(condition ? naturalDefinitions(spec, condition, r.scenario, r.locale).map((d) => [d.name, d.tool] as const) : []);
      toolIds.set(key, ids);
    }
    return ids;
  };
  return (r) => {
    const key = `${r.study}\u0000${r.caseId}\u0000${r.condition}\u0000${r.scenario}\u0000${r.locale}`;
    if (!expected.has(key)) expected.set(key, expectedOf(spec, r));
    const e = expected.get(key)!;
    return {
      trialId: r.trialId,
      study: r.study,
      scenario: r.scenario,
      locale: r.locale,
      caseId: r.caseId,
      condition: r.condition,
      orderIndex: r.orderIndex,
      replicate: r.replicate,
      status: r.status,
      expected: e?.decision ?? null,
      expectedToolId: e?.toolId ?? null,
      chosen: decisionOf(r),
      chosenToolId: r.tool === null ? null : (idsOf(r).get(r.tool) ?? null),
      position: positionOf(r),
      toolsSent: r.order.length,
      count: r.count ?? 1,
    };
  };
}

export function choicesOf(spec: ExperimentSpec, rows: Iterable<ChoiceRow>): Choice[] {
  const resolve = choiceResolver(spec);
  return [...rows].map(resolve);
}

/** The JSON export's `choices`: expected × chosen per study × condition (rows: what the card expected; columns: what the model did), and positions. */
export function choiceSummary(spec: ExperimentSpec, choices: readonly Choice[]): ExportChoices {
  return { matrix: choiceMatrices(spec, choices), positions: choicePositions(spec, choices) };
}

/** One section of the grid: a study × scenario × locale, its cases as rows and conditions as columns. */
export interface ChoiceGridSection {
  study: string;
  scenario: string;
  locale: string;
  conditions: string[];
  cases: { caseId: string; expected: string | null; cells: Choice[][] }[];
}

/** The grid: per section, each case × condition cell holds its trials' choices by order, then replicate. */
export function choiceGrid(spec: ExperimentSpec, choices: readonly Choice[]): ChoiceGridSection[] {
  const sections = new Map<string, ChoiceGridSection & { index: Map<string, number> }>();
  const conditionsOf = new Map(spec.studies.map((s) => [s.id, s.conditions.map((c) => c.id)]));
  const caseRank = new Map(spec.studies.flatMap((s) => s.cases.map((c, i) => [`${s.id}\u0000${c.id}`, i] as const)));
  for (const c of choices) {
    const key = `${c.study}\u0000${c.scenario}\u0000${c.locale}`;
    let section = sections.get(key);
    if (!section) {
      section = { study: c.study, scenario: c.scenario, locale: c.locale, conditions: conditionsOf.get(c.study) ?? [], cases: [], index: new Map() };
      sections.set(key, section);
    }
    let row = section.index.get(c.caseId);
    if (row === undefined) {
      row = section.cases.push({ caseId: c.caseId, expected: null, cells: section.conditions.map(() => []) }) - 1;
      section.index.set(c.caseId, row);
    }
    const col = section.conditions.indexOf(c.condition);
    if (col < 0) continue;
    const line = section.cases[row];
    if (line.expected === null && c.condition === section.conditions[0]) line.expected = c.expected;
    line.cells[col].push(c);
  }
  const byPlace = (a: Choice, b: Choice) => a.orderIndex - b.orderIndex || a.replicate - b.replicate;
  return [...sections.values()].map(({ index: _index, ...s }) => ({
    ...s,
    cases: s.cases
      .sort((a, b) => (caseRank.get(`${s.study}\u0000${a.caseId}`) ?? 0) - (caseRank.get(`${s.study}\u0000${b.caseId}`) ?? 0))
      .map((line) => ({ ...line, cells: line.cells.map((cell) => cell.sort(byPlace)) })),
  }));
}

/**
 * Whether a case's conditions did different things: in some order and replicate, not every condition made the
 * same decision (a tool by its scenario id, whatever name it was sent under) with the same verdict, or a
 * condition has no trial there (the grid's "changed rows only").
 */
export function caseDiffers(cells: readonly (readonly Pick<Choice, 'orderIndex' | 'replicate' | 'chosen' | 'chosenToolId' | 'status'>[])[]): boolean {
  if (cells.length < 2) return false;
  const seen = new Map<string, { outcomes: Set<string>; conditions: number }>();
  for (const cell of cells) {
    const places = new Set<string>();
    for (const c of cell) {
      const place = `${c.orderIndex}\u0000${c.replicate}`;
      const at = seen.get(place) ?? { outcomes: new Set<string>(), conditions: 0 };
      // a tool by its scenario id: the same tool under another name in another condition is the same decision
      at.outcomes.add(`${c.chosenToolId ? `tool ${c.chosenToolId}` : c.chosen}\u0000${c.status}`);
      if (!places.has(place)) at.conditions += 1;
      places.add(place);
      seen.set(place, at);
    }
  }
  for (const at of seen.values()) if (at.outcomes.size > 1 || at.conditions < cells.length) return true;
  return false;
}

/**
 * The cases that changed across several grids of one section side by side (the compare page's runs): every
 * run's conditions read as the columns of one row, so a case changes when any run or condition did something
 * different from another, or a run has no trial where another has one.
 */
export function changedAcross(grids: readonly (Pick<ChoiceGridSection, 'conditions' | 'cases'> | null)[]): Set<string> {
  const ids = new Set(grids.flatMap((g) => (g ? g.cases.map((c) => c.caseId) : [])));
  const out = new Set<string>();
  for (const id of ids) {
    const cells = grids.flatMap((g) => (g ? (g.cases.find((c) => c.caseId === id)?.cells ?? g.conditions.map(() => [])) : [[]]));
    if (caseDiffers(cells)) out.add(id);
  }
  return out;
}

const NOTHING_EXPECTED = '(no expectation)';

export function choiceMatrices(spec: ExperimentSpec, choices: readonly Choice[]): ChoiceMatrix[] {
  const cells = new Map<string, Map<string, Map<string, number>>>();
  for (const c of choices) {
    const key = `${c.study}\u0000${c.condition}`;
    const byExpected = cells.get(key) ?? new Map<string, Map<string, number>>();
    cells.set(key, byExpected);
    const e = c.expected ?? NOTHING_EXPECTED;
    const row = byExpected.get(e) ?? new Map<string, number>();
    byExpected.set(e, row);
    row.set(c.chosen, (row.get(c.chosen) ?? 0) + c.count);
  }
  const out: ChoiceMatrix[] = [];
  for (const study of spec.studies)
    for (const condition of study.conditions) {
      const byExpected = cells.get(`${study.id}\u0000${condition.id}`);
      if (!byExpected) continue;
      const expected = [...byExpected.keys()].sort();
      // columns: the expected decisions first (the diagonal), then every other decision seen
      const seen = new Set([...byExpected.values()].flatMap((r) => [...r.keys()]));
      const chosen = [...expected.filter((e) => seen.has(e)), ...[...seen].filter((c) => !expected.includes(c)).sort()];
      out.push({ study: study.id, condition: condition.id, expected, chosen, counts: expected.map((e) => chosen.map((c) => byExpected.get(e)!.get(c) ?? 0)) });
    }
  return out;
}

export function choicePositions(spec: ExperimentSpec, choices: readonly Choice[]): ChoicePositions[] {
  const acc = new Map<string, ChoicePositions>();
  for (const c of choices) {
    const key = `${c.study}\u0000${c.condition}`;
    const p = acc.get(key) ?? { study: c.study, condition: c.condition, byPosition: [], noListedTool: 0, trials: 0 };
    acc.set(key, p);
    p.trials += c.count;
    if (c.position === null) p.noListedTool += c.count;
    else {
      while (p.byPosition.length < c.position) p.byPosition.push(0);
      p.byPosition[c.position - 1] += c.count;
    }
  }
  const out: ChoicePositions[] = [];
  for (const study of spec.studies)
    for (const condition of study.conditions) {
      const p = acc.get(`${study.id}\u0000${condition.id}`);
      if (p) out.push(p);
    }
  return out;
}
