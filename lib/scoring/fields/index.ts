import { EXPECTED_FIELDS, type ExpectedField, type TccCheck, type TccObservedEntry } from '../../schema/tcc';
import type { Checkpoint, FailureCategory } from '../../schema/verdict';
import { cardExpects, malformedCall, selection } from '../categories';
import { args } from './arguments';
import { callCount } from './call-count';
import { decision } from './decision';
import { duplicateWritesField } from './duplicate-writes';
import { label } from './label';
import { exact } from './shared';
import { state } from './state';
import { tool } from './tool';
import type { AnswerField, Categorized, CategoryContext, CheckField, CheckResult, DesignerFieldSpec, FieldResult, FixtureField, FixtureRun } from './types';
import { unauthorizedCallsField } from './unauthorized-calls';
import { writeCount } from './write-count';

/**
 * The check fields of a case card's `expected`, one module each (lib/scoring/fields/<field>.ts): its
 * checkpoint, rule text, how it is observed (from the model's answer or by the fixture back-end), compared
 * and categorised, and how the designer edits it. The scorer, the TCC export, the task kind and the designer
 * read this registry; lib/schema/tcc.ts keeps the bare names (its zod shape), and the type below makes a
 * name without a module — or a module under another name — a compile error (fields.test.ts checks it again
 * at run time). The order is the canonical order of reasons and evidence.
 *
 * Adding a check field = its schema entry in TCC_EXPECTED_SHAPE + one new file here + one line below.
 */
export const CHECK_FIELDS = {
  decision,
  tool,
  call_count: callCount,
  arguments: args,
  label,
  write_count: writeCount,
  state,
  duplicate_writes: duplicateWritesField,
  unauthorized_calls: unauthorizedCallsField,
} as const satisfies { readonly [K in ExpectedField]: CheckField<K> };

export type { AnswerField, CheckField, CheckResult, DesignerFieldSpec, FieldResult, FixtureField, FixtureRun } from './types';
export { EXPECTED_FIELDS };

/** The registered fields, in canonical order. */
export const FIELDS: readonly CheckField[] = Object.values(CHECK_FIELDS);
export const ANSWER_FIELDS: readonly AnswerField[] = FIELDS.filter((f): f is AnswerField => f.source === 'answer');
export const FIXTURE_FIELDS: readonly FixtureField[] = FIELDS.filter((f): f is FixtureField => f.source === 'fixture');

/** Failure categories any field observed from an answer can carry, whatever failed: the model refused. */
export const ANSWER_CATEGORIES = ['refusal'] as const satisfies readonly FailureCategory[];

/** The module of a field name; undefined for a field this tool does not know (a card's extension). */
export function checkField(name: string | undefined): CheckField | undefined {
  return name !== undefined && Object.hasOwn(CHECK_FIELDS, name) ? CHECK_FIELDS[name as ExpectedField] : undefined;
}

export function answerField(name: string | undefined): AnswerField | undefined {
  const f = checkField(name);
  return f?.source === 'answer' ? f : undefined;
}

export const isFixtureField = (name: string): boolean => checkField(name)?.source === 'fixture';

/** The checkpoint a field counts for; unknown fields count for selection. */
export const checkpointOfField = (name: string | undefined): Checkpoint => checkField(name)?.checkpoint ?? 'selection';

/** The rule text of a field; an unknown field is compared exactly. */
export const ruleOfField = (name: string | undefined): string => checkField(name)?.rule ?? `${name}: exact match`;

const ORDER: readonly string[] = Object.keys(CHECK_FIELDS);

/** The expected fields of a check, in canonical order (so the reason text does not depend on key order). */
export function expectedFields(check: TccCheck): string[] {
  const keys = Object.keys(check.expected).filter((k) => check.expected[k] !== undefined);
  return [...ORDER.filter((k) => keys.includes(k)), ...keys.filter((k) => !ORDER.includes(k)).sort()];
}

/** Compare one expected field with an observation entry: its module's rule, or exact for an unknown field. */
export function compareField(field: string, expected: unknown, entry: TccObservedEntry): FieldResult {
  const base = { field, expected, observed: entry[field] };
  if (!Object.hasOwn(entry, field) || entry[field] === undefined) return { ...base, ok: false, reason: `${field}: not observed` };
  const compare = checkField(field)?.compare ?? exact(field);
  return { ...base, ...compare(expected, entry[field], entry) };
}

/**
 * The category of a failed check observed from an answer (docs/design.md#failure-categories): a refusal whatever failed, else the
 * first failed field's module decides (an unknown field: by the selection rule).
 */
export function categorizeAnswer(check: TccCheck, result: CheckResult, ctx: CategoryContext): Categorized | null {
  const f = result.failed;
  if (result.status !== 'fail' || !f) return null;
  const obs = ctx.observation;
  if (obs.refusal && obs.toolCalls.length === 0 && obs.marker === null && obs.label === null)
    return { category: 'refusal', rule: 'refusal: the model refused or was blocked' };
  const mod = answerField(f.field);
  if (mod) return mod.categorize(f, check, ctx);
  const want = cardExpects(check, ctx);
  return malformedCall(ctx) ?? selection(want.decision, want.tool, ctx);
}

/** What the fixture back-end observed of a run, as TCC observed fields (every fixture field). */
export function fixtureObserved(run: FixtureRun): TccObservedEntry {
  return Object.fromEntries(FIXTURE_FIELDS.map((f) => [f.name, f.observe(run)]));
}

/** The fields the designer edits, in the order it shows them: the single-value inputs, then the arguments form. */
export function designerFields(): DesignerFieldSpec[] {
  const all = FIELDS.flatMap((f) => (f.designer ? [{ name: f.name, designer: f.designer }] : []));
  return [...all.filter((f) => f.designer.input !== 'arguments'), ...all.filter((f) => f.designer.input === 'arguments')];
}
