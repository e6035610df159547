import type { LogEntry } from '../../fixture/backend';
import type { FixtureSpec, FixtureState } from '../../schema/fixture';
import type { Markers } from '../../schema/experiment';
import type { Observation, ToolCall } from '../../schema/observation';
import type { Decision, ExpectedField, TccCheck, TccObservedEntry } from '../../schema/tcc';
import type { Checkpoint, CheckStatus, FailureCategory } from '../../schema/verdict';
import type { ArgumentMatch } from '../arguments';

// The shape of a check field's module (lib/scoring/fields/<field>.ts) and the values its functions see.
// Types only: every module and the registry import this file, and it imports no module.

/** A tool as sent in a trial, with its hidden metadata (never sent to the model). */
export interface ScoringTool {
  /** Scenario tool id (the `tool` of a case card's expectation). */
  id: string;
  /** The function name the model saw. */
  name: string;
  effect: 'read' | 'write';
  parameters: Record<string, unknown>;
  /** A catalog distractor (docs/discovery.md): never a card's expected tool; its effect is read from its MCP annotations. */
  distractor?: boolean;
}

/** What the model decided: a TCC decision, or no decision (`none`), an unusable call, or a refusal. */
export type ObservedDecision = 'read' | 'write' | 'clarify' | 'stop' | 'none' | 'malformed' | 'refusal';

export interface DerivedDecision {
  decision: ObservedDecision;
  /** Where the decision was read: `toolCalls[0].name`, `toolCalls[0].arguments` or `text`. */
  part: string | null;
  /** Why the first call is unusable: `unknown_tool:<name>`, `unparseable_arguments`, or the provider's reason. */
  malformed: string | null;
  firstCall: ToolCall | null;
  /** The sent tool the first call names, if any. */
  firstTool: ScoringTool | null;
}

export interface FieldResult {
  field: string;
  ok: boolean;
  reason: string;
  expected: unknown;
  observed: unknown;
  /** For `arguments`. */
  match?: ArgumentMatch;
}

export interface CheckResult {
  status: CheckStatus;
  reason: string;
  /** Per expected field, in the registry's order (unknown fields after, sorted). */
  fields: FieldResult[];
  /** The first field that failed, if any. */
  failed: FieldResult | null;
}

/** What a field's `compare` gives; the registry adds `field`, `expected` and (unless given) `observed`. */
export interface Compared {
  ok: boolean;
  reason: string;
  /** Replaces the entry's value as the evidence (e.g. state: the differences rather than both states). */
  observed?: unknown;
  match?: ArgumentMatch;
}

export interface Categorized {
  category: FailureCategory;
  /** The rule that chose the category (evidence). */
  rule: string;
}

/** What the categorisation of a failed check observed from a model answer sees. */
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

/** What a field observed from a model answer is read from. */
export interface AnswerContext {
  observation: Observation;
  derived: DerivedDecision;
}

/** What a field the fixture back-end observes is read from: its call log, handlers and the states around the run. */
export interface FixtureRun {
  log: readonly LogEntry[];
  handlers: FixtureSpec['handlers'];
  before: FixtureState;
  after: FixtureState;
}

/** What the categorisation of a failed fixture field sees. */
export interface FixtureCategoryContext {
  /** Everything the fixture observed (all fixture fields). */
  observed: TccObservedEntry;
  log: readonly LogEntry[];
  /** The conversation's final answer. */
  final: Observation;
}

/** How the experiment designer edits the field (absent: not editable there, only in the JSON editor). */
export interface DesignerField {
  /** Shown after the check's label, e.g. "Expected (c1): call count". */
  label: string;
  /** select: one of `options`; tool: a select of the case scenario's tools; arguments: the arguments form. */
  input: 'select' | 'tool' | 'number' | 'text' | 'arguments';
  /** For `select`: the values offered (an empty choice is added: the field left out). */
  options?: readonly string[];
}

/** A field as the designer receives it (plain data: the page hands it to the client components). */
export interface DesignerFieldSpec {
  name: ExpectedField;
  designer: DesignerField;
}

interface FieldCommon<K extends ExpectedField> {
  name: K;
  /** The checkpoint (docs/design.md#the-five-checkpoints) a check whose first failing (or first expected) field this is counts for. */
  checkpoint: Checkpoint;
  /** How the field is judged, as the verdict's evidence states it. */
  rule: string;
  /** The failure categories its `categorize` can give (refusal, for any answer field, is the registry's). */
  categories: readonly FailureCategory[];
  /** Compare the expected value with the observed one (present in the entry). */
  compare(expected: unknown, observed: unknown, entry: TccObservedEntry): Compared;
  designer?: DesignerField;
}

/** A field observed from the model's answer (its calls, markers and label). */
export interface AnswerField<K extends ExpectedField = ExpectedField> extends FieldCommon<K> {
  source: 'answer';
  /** The observed value; undefined when there is none to report (the key is left out). */
  observe(a: AnswerContext): unknown;
  /** Whether an unusable first call is reported beside this field (`malformed` in the observation entry). */
  reportsMalformed: boolean;
  /** Where in the answer the evidence sits, e.g. `toolCalls[0].name`. */
  part(derived: DerivedDecision | null, failed: FieldResult | null): string | null;
  categorize(failed: FieldResult, check: TccCheck, ctx: CategoryContext): Categorized;
  /**
   * Visibility (docs/design.md#the-five-checkpoints): whether the tools the model saw let this expectation be met at all. Given the
   * tools sent today; given the tools a trial records as visible once it records them.
   */
  visibleIn?(expected: unknown, tools: readonly ScoringTool[]): boolean;
}

/** A field the fixture back-end observes (its log and states). */
export interface FixtureField<K extends ExpectedField = ExpectedField> extends FieldCommon<K> {
  source: 'fixture';
  observe(run: FixtureRun): unknown;
  /** Where the evidence sits, e.g. `fixture.log`. */
  part: string;
  /** When several fixture fields of a check fail, the category comes from the lowest rank (the most specific failure). */
  categoryRank: number;
  categorize(failed: FieldResult, ctx: FixtureCategoryContext): Categorized;
}

export type CheckField<K extends ExpectedField = ExpectedField> = AnswerField<K> | FixtureField<K>;
