import type { Decision, TccCheck } from '../schema/tcc';
import type { FailureCategory, Verdict } from '../schema/verdict';
import type { Categorized, CategoryContext, ScoringTool } from './fields/types';
import { isPlainObject } from './pyvalue';

/**
 * Failure categories (docs/design.md#failure-categories): one per failed check, chosen by the module of the first field that failed
 * (lib/scoring/fields/<field>.ts, through the registry's `categorize`) from what the model actually did.
 * Here: what those modules share (the selection rule, invented values, the "asked" heuristic) and the counts.
 */
export type { Categorized, CategoryContext } from './fields/types';

export const CANNOT_DETERMINE = 'CANNOT_DETERMINE';

/** "Asked" heuristic: a question mark (ASCII or full-width), 請 or "please", with no call. */
export function asks(text: string | null): boolean {
  return !!text && /[?？]|請|please/i.test(text);
}

/** Letters only, lower-cased: so "Xinyi branch" is found in "…, Xinyi branch, on …". */
export function squash(s: string): string {
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

export function selection(expected: Decision | null, expectedTool: ScoringTool | null, ctx: CategoryContext): Categorized {
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

/** The first call is unusable (names no sent tool, or its arguments do not parse): malformed_call. */
export function malformedCall(ctx: CategoryContext): Categorized | null {
  return ctx.derived.decision === 'malformed' ? { category: 'malformed_call', rule: `malformed_call: ${ctx.derived.malformed}` } : null;
}

/** The decision and scenario tool a failed check is judged against: its own, else the card's. */
export function cardExpects(check: TccCheck, ctx: CategoryContext): { decision: Decision | null; tool: ScoringTool | null } {
  return {
    decision: check.expected.decision ?? ctx.cardDecision,
    tool: (check.expected.tool && ctx.tools.find((t) => t.id === check.expected.tool)) || ctx.cardTool,
  };
}

/** The categories `selection` can give. */
export const SELECTION_CATEGORIES = [
  'unwanted_write',
  'missed_write',
  'invented_argument',
  'wrong_tool',
  'missing_marker',
  'no_call',
] as const satisfies readonly FailureCategory[];

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
