import type { Markers } from '../schema/experiment';
import type { Observation } from '../schema/observation';
import type { Decision, TccCheck } from '../schema/tcc';
import type { FailureCategory, Verdict } from '../schema/verdict';
import type { CheckResult, FieldResult } from './compare';
import type { DerivedDecision, ScoringTool } from './observe';
import { isPlainObject } from './pyvalue';

/**
 * Which failure category a failed check carries (DESIGN §3): one per failed check, chosen from the first
 * field that failed and what the model actually did.
 */
export interface CategoryContext {
  observation: Observation;
  derived: DerivedDecision;
  tools: readonly ScoringTool[];
  task: string;
  /** The decision the card expects (the first check that states one). */
  cardDecision: Decision | null;
  /** The scenario tool the card expects the call to name (stated, or the only sent tool with the expected effect). */
  cardTool: ScoringTool | null;
  markers: Markers;
  /** Labels the protocol allows. */
  labels: readonly string[];
}

export interface Categorized {
  category: FailureCategory;
  /** The rule that chose the category (evidence). */
  rule: string;
}

export const CANNOT_DETERMINE = 'CANNOT_DETERMINE';

/** "Asked" heuristic: a question mark (ASCII or full-width), 請 or "please", with no call. */
export function asks(text: string | null): boolean {
  return !!text && /[?？]|請|please/i.test(text);
}

/** Letters only, lower-cased: so "Xinyi branch" is found in "…, Xinyi branch, on …". */
function squash(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Words (letters, digits) and single CJK characters, lower-cased; tokens without a letter are dropped. */
function tokens(s: string): string[] {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu, ' $& ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => /\p{L}/u.test(t));
}

/**
 * Argument keys whose string values contain a word (or CJK character) the task text never contained:
 * "Sea Breeze Eatery, main branch" when the user named no branch; "Xinyi Sea Breeze" is only reordered.
 */
export function inventedValues(args: Record<string, unknown> | null, task: string, only?: readonly string[]): string[] {
  if (!args) return [];
  const known = new Set(tokens(task));
  const out = new Set<string>();
  const visit = (key: string, v: unknown) => {
    if (typeof v === 'string') {
      if (tokens(v).some((t) => !known.has(t))) out.add(key);
    } else if (Array.isArray(v)) v.forEach((x) => visit(key, x));
    else if (isPlainObject(v)) Object.values(v).forEach((x) => visit(key, x));
  };
  for (const [k, v] of Object.entries(args)) if (!only || only.includes(k)) visit(k, v);
  return [...out];
}

function selection(expected: Decision | null, expectedTool: ScoringTool | null, ctx: CategoryContext): Categorized {
  const d = ctx.derived;
  const want = expected ?? expectedTool?.effect ?? null;
  const callMade = d.decision === 'read' || d.decision === 'write';
  if (d.decision === 'write' && want !== 'write')
    return { category: 'unwanted_write', rule: `unwanted_write: a write tool was proposed where the card expects ${want ?? 'no write'}` };
  if (d.decision === 'read' && want === 'write') return { category: 'missed_write', rule: 'missed_write: a read tool was proposed where a confirmed write was expected' };
  if (callMade && (want === 'clarify' || want === 'stop' || want === null)) {
    if (want === 'clarify' && inventedValues(d.firstCall?.arguments ?? null, ctx.task).length > 0)
      return { category: 'invented_argument', rule: 'invented_argument: called instead of asking, with a value the task never contained' };
    return { category: 'wrong_tool', rule: `wrong_tool: a tool was called where the card expects ${want ?? 'no call'}` };
  }
  if (callMade) return { category: 'wrong_tool', rule: `wrong_tool: the first call names "${d.firstTool?.id}", expected "${expectedTool?.id ?? want}"` };
  if (d.decision === 'none') {
    if (want === 'clarify' && asks(ctx.observation.text))
      return { category: 'missing_marker', rule: `missing_marker: the text asks, but without the ${ctx.markers.clarify} marker` };
    if (want === 'stop' && ctx.observation.text?.trim())
      return { category: 'missing_marker', rule: `missing_marker: no call and a text answer, but without the ${ctx.markers.stop} marker` };
    if (want === 'clarify') return { category: 'wrong_tool', rule: 'wrong_tool: no call, no marker, and the text does not ask' };
    return { category: 'no_call', rule: 'no_call: no tool call where one was expected' };
  }
  if (want === 'read' || want === 'write') return { category: 'no_call', rule: `no_call: answered ${d.decision} where a ${want} call was expected` };
  return { category: 'wrong_tool', rule: `wrong_tool: decided ${d.decision} where the card expects ${want}` };
}

function labelCategory(f: FieldResult, ctx: CategoryContext): Categorized {
  const expected = String(f.expected).toUpperCase();
  const observed = typeof f.observed === 'string' ? f.observed.toUpperCase() : null;
  if (observed === null) {
    const said = ctx.observation.text && squash(ctx.observation.text).includes(squash(expected.replaceAll('_', ' ')));
    if (said) return { category: 'missing_marker', rule: `missing_marker: the text states the expected label without the ${ctx.markers.status} marker` };
    return { category: 'wrong_label', rule: 'wrong_label: no label reported' };
  }
  if (expected === CANNOT_DETERMINE && observed !== CANNOT_DETERMINE)
    return { category: 'guessed_label', rule: `guessed_label: a definite label where only ${CANNOT_DETERMINE} is justified` };
  const known = ctx.labels.length === 0 || ctx.labels.some((l) => l.toUpperCase() === observed);
  return { category: 'wrong_label', rule: `wrong_label: the reported label differs from the expected one${known ? '' : ' (not a label of the protocol)'}` };
}

export function categorize(check: TccCheck, result: CheckResult, ctx: CategoryContext): Categorized | null {
  const f = result.failed;
  if (result.status !== 'fail' || !f) return null;
  const d = ctx.derived;
  const obs = ctx.observation;
  if (obs.refusal && obs.toolCalls.length === 0 && obs.marker === null && obs.label === null)
    return { category: 'refusal', rule: 'refusal: the model refused or was blocked' };
  if (f.field === 'label') return labelCategory(f, ctx);
  if (f.field === 'write_count') {
    const more = typeof f.observed === 'number' && typeof f.expected === 'number' && f.observed > f.expected;
    return more
      ? { category: 'unwanted_write', rule: 'unwanted_write: more writes than expected' }
      : { category: 'missed_write', rule: 'missed_write: fewer writes than expected' };
  }
  if (d.decision === 'malformed') return { category: 'malformed_call', rule: `malformed_call: ${d.malformed}` };
  const expectedDecision = check.expected.decision ?? ctx.cardDecision;
  const expectedTool = (check.expected.tool && ctx.tools.find((t) => t.id === check.expected.tool)) || ctx.cardTool;
  if (f.field === 'call_count') {
    const want = typeof f.expected === 'number' ? f.expected : 0;
    const got = obs.toolCalls.length;
    if (want === 0) return selection(expectedDecision, expectedTool, ctx);
    if (got > want) return { category: 'extra_call', rule: `extra_call: ${got} calls where ${want} expected` };
    return got === 0 ? selection(expectedDecision, expectedTool, ctx) : { category: 'no_call', rule: `no_call: ${got} calls where ${want} expected` };
  }
  if (f.field === 'arguments') {
    if (!d.firstCall) return { category: 'no_call', rule: 'no_call: no call whose arguments could be compared' };
    if (expectedTool && d.firstTool && d.firstTool.id !== expectedTool.id) return selection(expectedDecision, expectedTool, ctx);
    const fields = f.match?.fields ?? [];
    if (inventedValues(d.firstCall.arguments, ctx.task, fields).length > 0)
      return { category: 'invented_argument', rule: 'invented_argument: an argument value the task never contained' };
    return { category: 'wrong_arguments', rule: `wrong_arguments: ${fields.join(', ') || 'arguments'} differ` };
  }
  // decision, tool, or a field of an extension
  return selection(f.field === 'tool' ? null : expectedDecision, expectedTool, ctx);
}

/** The distinct failure categories of one trial's verdicts. */
export function trialCategories(verdicts: readonly Pick<Verdict, 'status' | 'category'>[]): FailureCategory[] {
  const out = new Set<FailureCategory>();
  for (const v of verdicts) if (v.status === 'fail' && v.category) out.add(v.category);
  return [...out];
}

/**
 * Failure categories counted per condition: `{category: {condition: trials}}` — each trial counts once per
 * category it shows (e.g. unwanted_write 12 → 0 across the selection study's conditions).
 */
export function countCategoriesByCondition(
  trials: readonly { condition: string; verdicts: readonly Pick<Verdict, 'status' | 'category'>[] }[],
): Partial<Record<FailureCategory, Record<string, number>>> {
  const out: Partial<Record<FailureCategory, Record<string, number>>> = {};
  for (const t of trials) {
    for (const c of trialCategories(t.verdicts)) {
      const row = (out[c] ??= {});
      row[t.condition] = (row[t.condition] ?? 0) + 1;
    }
  }
  return out;
}

/** The `{category: {baseline, treatment}}` shape of a study summary (lib/schema/table1.ts StudySummary.categories). */
export function categoriesBaselineTreatment(
  counts: Partial<Record<FailureCategory, Record<string, number>>>,
  baseline: string,
  treatment: string,
): Record<string, { baseline: number; treatment: number }> {
  const out: Record<string, { baseline: number; treatment: number }> = {};
  for (const [category, byCondition] of Object.entries(counts)) {
    out[category] = { baseline: byCondition?.[baseline] ?? 0, treatment: byCondition?.[treatment] ?? 0 };
  }
  return out;
}
