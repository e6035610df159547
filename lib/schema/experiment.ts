import { z } from 'zod';
import { Id, JsonObject, LIST_MAX, Locale, TEXT_MAX, dict, list, strict, text } from './common';
import { EVIDENCE_GATE_SHAPE, TCC_CHECK_SHAPE, TCC_EXPECTED_SHAPE, TccCard } from './tcc';
import { StudyKind } from './study-kind';
import { kindCaseFields, kindScenarioFields } from './kind-fields';
import { StudyCatalog } from './catalog';

// The experiment spec (`tclab.experiment/v1`). Every object is strict (an unknown key is an error naming
// its path), every text and list has a stated maximum (lib/schema/common.ts), every object keyed by ids is
// a null-prototype object. This file is its shape; the validated spec, `ExperimentSpec` in
// lib/design/experiment-spec.ts, adds the semantic checks (lib/design/spec-semantics.ts), which need the study
// kinds' modules. Read specs from bytes with `parseSpecBytes` (lib/experiments/parse.ts), the one parse
// every door calls.

/** A tool as the model sees it. `tool` is hidden metadata linking it to the scenario's tool; never sent. */
export const ToolDefinition = strict({
  tool: Id,
  name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'a function name: letters, digits, "_", ".", "-", at most 64'),
  description: text(TEXT_MAX.description),
  /** JSON Schema of the arguments (type object); must compile (Ajv, see lib/design/spec-semantics.ts). */
  parameters: JsonObject.refine((s) => s.type === 'object', 'parameters must be a JSON Schema with type "object"'),
});
export type ToolDefinition = z.infer<typeof ToolDefinition>;

/**
 * What a server enforces for a tool that no protocol field carries (docs/linter.md "Facts"): whose session it
 * acts on, that it caches, what protects a write. Recorded by the author; the linter asks the description to
 * say each one, and a rule-driven rewrite says it (lib/design/tool-facts.ts).
 */
export const TOOL_FACTS = ['owner-session', 'cached', 'audited', 'dry-run', 'idempotent'] as const;
export const ToolFact = z.enum(TOOL_FACTS);
export type ToolFact = z.infer<typeof ToolFact>;

/** Hidden metadata about a scenario's tool: never sent to the model (docs/design.md#vocabulary). */
export const ScenarioTool = strict({
  id: Id,
  effect: z.enum(['read', 'write']),
  facts: z
    .array(ToolFact)
    .max(TOOL_FACTS.length)
    .refine((a) => new Set(a).size === a.length, 'each fact at most once')
    .optional(),
});
export type ScenarioTool = z.infer<typeof ScenarioTool>;

/** Where a scenario's tools came from: a stored tool snapshot (lib/mcp), by id and content hash. */
export const ScenarioSource = strict({ snapshot: text(TEXT_MAX.short, 1), sha256: text(TEXT_MAX.short, 1), server: text(TEXT_MAX.long).nullable().default(null) });

export const Scenario = strict({
  id: Id,
  title: text(TEXT_MAX.short, 1),
  tools: list(ScenarioTool, LIST_MAX.tools, 1),
  source: ScenarioSource.optional(),
  /** The fields study kinds add (kind-fields.ts; checked by lib/studies/<kind>/spec.ts), e.g. task's fixture back-end. */
  ...kindScenarioFields,
});
export type Scenario = z.infer<typeof Scenario>;

/**
 * What a generated condition isolates (docs/designer.md#variants-that-isolate-the-cause, lib/design/variants.ts): `placebo` (the baseline padded with neutral
 * text to a treatment's length), `mutant:<lint rule>` (a good condition with one linter-detectable defect),
 * `ablation` (one field group of a treatment); or where a candidate rewrite came from (docs/optimise.md):
 * `rule:<lint rule>` (the deterministic fix of one finding, lib/design/rewrites.ts), `model:<provider>:<model>`
 * (a rewriter's proposal), `hand` (written in the designer). `of` is the condition it was made from.
 */
export const VariantKind = z
  .string()
  .max(200)
  .regex(
    /^(placebo|ablation|hand|mutant:[a-z][a-z-]{0,63}|rule:[a-z][a-z-]{0,63}|model:[a-z][a-z0-9-]{0,63}:[A-Za-z0-9][A-Za-z0-9._/:@-]{0,127})$/,
    'placebo, ablation, hand, mutant:<lint rule>, rule:<lint rule> or model:<provider>:<model>',
  );
export const ConditionVariant = strict({ kind: VariantKind, of: Id });
export type ConditionVariant = z.infer<typeof ConditionVariant>;

/** tools[scenarioId][locale] = the definitions this condition sends. */
export const Condition = strict({
  id: Id,
  label: text(TEXT_MAX.short, 1),
  baseline: z.boolean().default(false),
  tools: dict(Id, dict(Locale, list(ToolDefinition, LIST_MAX.tools, 1), LIST_MAX.locales), LIST_MAX.scenarios),
  /** Set on a generated variant: its kind, and the condition it was made from. */
  variant: ConditionVariant.optional(),
});
export type Condition = z.infer<typeof Condition>;

const Marker = text(40, 1);
export const Markers = strict({
  clarify: Marker.default('CLARIFY:'),
  stop: Marker.default('STOP:'),
  status: Marker.default('STATUS:'),
});
export type Markers = z.infer<typeof Markers>;

/** The response protocol of a study: system instruction per locale and the markers it defines. */
export const Protocol = strict({
  system: dict(Locale, text(TEXT_MAX.long, 1), LIST_MAX.locales),
  markers: Markers.default({ clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' }),
  /** Labels an interpretation answer may report after the status marker. */
  labels: list(text(TEXT_MAX.short, 1), LIST_MAX.labels).default([]),
});
export type Protocol = z.infer<typeof Protocol>;

/** A check's expectation inside a spec: only the fields this tool scores (an attached card's extras are refused too). */
export const SpecExpected = strict(TCC_EXPECTED_SHAPE);
export const SpecCheck = strict({ ...TCC_CHECK_SHAPE, expected: SpecExpected });
export const SpecEvidenceGateItem = strict(EVIDENCE_GATE_SHAPE);

export const CaseFields = strict({
  id: Id,
  scenario: Id,
  locale: Locale,
  task: text(TEXT_MAX.long, 1),
  /** The fields study kinds add (kind-fields.ts, strict like these; checked by lib/studies/<kind>/spec.ts), e.g. interpretation's fixedCall and toolResult. */
  ...kindCaseFields,
  evidenceGate: list(SpecEvidenceGateItem, LIST_MAX.evidence).default([]),
  /** The case card's checks (TCC v0.1), fixed before any run. */
  checks: list(SpecCheck, LIST_MAX.checks, 1),
  /**
   * Where the right answer depends on the definitions sent (e.g. without code meanings only
   * CANNOT_DETERMINE is justified): condition id → check id → expected fields that replace the card's.
   * Fixed before any run like the card itself; `checksFor` resolves the card a condition's trials use.
   */
  expectByCondition: dict(Id, dict(text(TEXT_MAX.short, 1), SpecExpected, LIST_MAX.checks), LIST_MAX.conditions).prefault({}),
});

const pick = (o: Record<string, unknown>, keys: readonly string[]) => Object.fromEntries(keys.filter((k) => Object.hasOwn(o, k)).map((k) => [k, o[k]]));

/**
 * A case, written inline or as an attached TCC v0.1 card (`{"scenario": …, "card": {…}}`): the card's
 * case_id, locale, task, checks and evidence_gate become the case's; fields given beside it win. The card's
 * own annotations (keys the format keeps) are left behind; an `expected` field this tool cannot score is an error.
 */
export const Case = z.preprocess((input) => {
  if (!input || typeof input !== 'object' || !('card' in input)) return input;
  const { card, ...rest } = input as { card: unknown } & Record<string, unknown>;
  const parsed = TccCard.safeParse(card);
  if (!parsed.success) return input; // CaseFields then reports the card key and the missing fields
  const c = parsed.data;
  const checks = c.checks.map((k) => pick(k, ['id', 'axis', 'condition', 'expected']));
  const gate = c.evidence_gate.map((g) => pick(g, ['claim', 'evidence_ref', 'status']));
  return { id: c.case_id, locale: c.locale, task: c.task, checks, evidenceGate: gate, ...rest };
}, CaseFields);
export type Case = z.infer<typeof Case>;
/** A case as written inline (the typed input; a case may instead attach a TCC card, see `Case`). */
export type CaseInput = z.input<typeof CaseFields>;
export type SpecCheck = z.infer<typeof SpecCheck>;

/** The case card's checks as they apply to one condition's trials. */
export function checksFor(kase: Case, conditionId: string): Case['checks'] {
  const overrides = Object.hasOwn(kase.expectByCondition, conditionId) ? kase.expectByCondition[conditionId] : undefined;
  if (!overrides) return kase.checks;
  return kase.checks.map((c) => (Object.hasOwn(overrides, c.id) ? { ...c, expected: { ...c.expected, ...overrides[c.id] } } : c));
}

/**
 * Candidate orders: `fixed` (as declared), `reverse-swap` (declared and reversed), `rotations` (n orders,
 * a cyclic Latin square: each tool in each position exactly once), `all-permutations` (n!, refused past 6 tools).
 */
export const OrderPolicy = z.enum(['fixed', 'reverse-swap', 'rotations', 'all-permutations']);
export type OrderPolicy = z.infer<typeof OrderPolicy>;

/**
 * A study's split of its cases into tune, select and confirm (docs/optimise.md): whole percentages that add up
 * to 100 and the seed of the draw. The assignment itself is computed (lib/design/splits.ts), never stored
 * beside it, so it cannot drift from the seed. Optional: a version without it hashes as it always did.
 */
export const StudySplits = strict({
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1),
  tune: z.number().int().min(0).max(100),
  select: z.number().int().min(1).max(100),
  confirm: z.number().int().min(1).max(100),
}).refine((s) => s.tune + s.select + s.confirm === 100, { message: 'tune + select + confirm must add up to 100 (percent)' });
export type StudySplits = z.infer<typeof StudySplits>;

export const Study = strict({
  id: Id,
  kind: StudyKind,
  title: text(TEXT_MAX.short, 1),
  orderPolicy: OrderPolicy.default('fixed'),
  protocol: Protocol,
  conditions: list(Condition, LIST_MAX.conditions, 2),
  cases: list(Case, LIST_MAX.cases, 1),
  /** Distractor tools from a real catalog, N and the discovery mechanism crossed as factors (lib/schema/catalog.ts). */
  catalog: StudyCatalog.optional(),
  /** The tune / select / confirm split of its cases, for improving descriptions (docs/optimise.md). */
  splits: StudySplits.optional(),
});
export type Study = z.infer<typeof Study>;

/** A pre-check request: one case of one condition, sent before the run and kept out of every denominator. */
export const PrecheckRef = strict({ study: Id, condition: Id, caseId: Id });

export const MAX_REPLICATES = 100;

/** The spec's shape only (no cross-references checked): for reading rows that were validated when stored. */
export const ExperimentSpecShape = strict({
  format: z.literal('tclab.experiment/v1'),
  id: Id,
  name: text(TEXT_MAX.short, 1),
  description: text(TEXT_MAX.long).default(''),
  locales: list(Locale, LIST_MAX.locales, 1),
  scenarios: list(Scenario, LIST_MAX.scenarios, 1),
  studies: list(Study, LIST_MAX.studies, 1),
  replicates: z.number().int().min(1).max(MAX_REPLICATES, `at most ${MAX_REPLICATES}`).default(1),
  prechecks: list(PrecheckRef, LIST_MAX.prechecks).default([]),
});

/**
 * The experiment spec's type (the validated spec has this shape too: its semantic checks add issues, no
 * fields). To validate, parse with `ExperimentSpec` from lib/design/experiment-spec.ts.
 */
export type ExperimentSpec = z.infer<typeof ExperimentSpecShape>;
export type ExperimentSpecInput = z.input<typeof ExperimentSpecShape>;

export function baselineOf(study: Study): Condition {
  return study.conditions.find((c) => c.baseline) ?? study.conditions[0];
}
