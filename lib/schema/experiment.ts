import { z } from 'zod';
import { Id, JsonObject, Locale } from './common';
import { EvidenceGateItem, TccCard, TccCheck, TccExpected } from './tcc';
import { StudyKind } from '../studies/kinds';
import { KIND_SPECS, kindCaseFields } from '../studies/specs';

/** A tool as the model sees it. `tool` is hidden metadata linking it to the scenario's tool; never sent. */
export const ToolDefinition = z.object({
  tool: Id,
  name: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/, 'a function name: letters, digits, "_", ".", "-", at most 64'),
  description: z.string().max(8000),
  /** JSON Schema of the arguments (type object). */
  parameters: JsonObject.refine((s) => s.type === 'object', 'parameters must be a JSON Schema with type "object"'),
});
export type ToolDefinition = z.infer<typeof ToolDefinition>;

/** Hidden metadata about a scenario's tool: never sent to the model (DESIGN §2). */
export const ScenarioTool = z.object({ id: Id, effect: z.enum(['read', 'write']) });
export type ScenarioTool = z.infer<typeof ScenarioTool>;

/** Where a scenario's tools came from: a stored tool snapshot (lib/mcp), by id and content hash. */
export const ScenarioSource = z.object({ snapshot: z.string().min(1), sha256: z.string().min(1), server: z.string().nullable().default(null) });

export const Scenario = z.object({
  id: Id,
  title: z.string().min(1),
  tools: z.array(ScenarioTool).min(1),
  source: ScenarioSource.optional(),
});
export type Scenario = z.infer<typeof Scenario>;

/** tools[scenarioId][locale] = the definitions this condition sends. */
export const Condition = z.object({
  id: Id,
  label: z.string().min(1),
  baseline: z.boolean().default(false),
  tools: z.record(z.string(), z.record(z.string(), z.array(ToolDefinition).min(1))),
});
export type Condition = z.infer<typeof Condition>;

export const Markers = z.object({
  clarify: z.string().min(1).default('CLARIFY:'),
  stop: z.string().min(1).default('STOP:'),
  status: z.string().min(1).default('STATUS:'),
});
export type Markers = z.infer<typeof Markers>;

/** The response protocol of a study: system instruction per locale and the markers it defines. */
export const Protocol = z.object({
  system: z.record(z.string(), z.string().min(1)),
  markers: Markers.default({ clarify: 'CLARIFY:', stop: 'STOP:', status: 'STATUS:' }),
  /** Labels an interpretation answer may report after the status marker. */
  labels: z.array(z.string().min(1)).default([]),
});
export type Protocol = z.infer<typeof Protocol>;

export const CaseFields = z.object({
  id: Id,
  scenario: Id,
  locale: Locale,
  task: z.string().min(1),
  /** The fields study kinds add (lib/studies/<kind>/spec.ts), e.g. interpretation's fixedCall and toolResult. */
  ...kindCaseFields,
  evidenceGate: z.array(EvidenceGateItem).default([]),
  /** The case card's checks (TCC v0.1), fixed before any run. */
  checks: z.array(TccCheck).min(1),
  /**
   * Where the right answer depends on the definitions sent (e.g. without code meanings only
   * CANNOT_DETERMINE is justified): condition id → check id → expected fields that replace the card's.
   * Fixed before any run like the card itself; `checksFor` resolves the card a condition's trials use.
   */
  expectByCondition: z.record(z.string(), z.record(z.string(), TccExpected)).default({}),
});

/**
 * A case, written inline or as an attached TCC v0.1 card (`{"scenario": …, "card": {…}}`): the card's
 * case_id, locale, task, checks and evidence_gate become the case's; fields given beside it win.
 */
export const Case = z.preprocess((input) => {
  if (!input || typeof input !== 'object' || !('card' in input)) return input;
  const { card, ...rest } = input as { card: unknown } & Record<string, unknown>;
  const parsed = TccCard.safeParse(card);
  if (!parsed.success) return input; // CaseFields then reports the missing fields; the card's own errors follow
  const c = parsed.data;
  return { id: c.case_id, locale: c.locale, task: c.task, checks: c.checks, evidenceGate: c.evidence_gate, ...rest };
}, CaseFields);
export type Case = z.infer<typeof Case>;
/** A case as written inline (the typed input; a case may instead attach a TCC card, see `Case`). */
export type CaseInput = z.input<typeof CaseFields>;

/** The case card's checks as they apply to one condition's trials. */
export function checksFor(kase: Case, conditionId: string): TccCheck[] {
  const overrides = kase.expectByCondition[conditionId];
  if (!overrides) return kase.checks;
  return kase.checks.map((c) => (overrides[c.id] ? { ...c, expected: { ...c.expected, ...overrides[c.id] } } : c));
}

/**
 * Candidate orders: `fixed` (as declared), `reverse-swap` (declared and reversed), `rotations` (n orders,
 * a cyclic Latin square: each tool in each position exactly once), `all-permutations` (n!, refused past 6 tools).
 */
export const OrderPolicy = z.enum(['fixed', 'reverse-swap', 'rotations', 'all-permutations']);
export type OrderPolicy = z.infer<typeof OrderPolicy>;

export const Study = z.object({
  id: Id,
  kind: StudyKind,
  title: z.string().min(1),
  orderPolicy: OrderPolicy.default('fixed'),
  protocol: Protocol,
  conditions: z.array(Condition).min(2),
  cases: z.array(Case).min(1),
});
export type Study = z.infer<typeof Study>;

/** A pre-check request: one case of one condition, sent before the run and kept out of every denominator. */
export const PrecheckRef = z.object({ study: Id, condition: Id, caseId: Id });

export const ExperimentSpec = z
  .object({
    format: z.literal('tclab.experiment/v1'),
    id: Id,
    name: z.string().min(1),
    description: z.string().default(''),
    locales: z.array(Locale).min(1),
    scenarios: z.array(Scenario).min(1),
    studies: z.array(Study).min(1),
    replicates: z.number().int().min(1).max(100).default(1),
    prechecks: z.array(PrecheckRef).default([]),
  })
  .superRefine((spec, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const scenarios = new Map(spec.scenarios.map((s) => [s.id, s]));
    dupes(spec.scenarios.map((s) => s.id)).forEach((d) => issue(['scenarios'], `duplicate scenario id "${d}"`));
    dupes(spec.studies.map((s) => s.id)).forEach((d) => issue(['studies'], `duplicate study id "${d}"`));
    spec.studies.forEach((study, si) => {
      const base = ['studies', si];
      const baselines = study.conditions.filter((c) => c.baseline);
      if (baselines.length !== 1)
        issue([...base, 'conditions'], `exactly one condition must be the baseline (found ${baselines.length})`);
      dupes(study.conditions.map((c) => c.id)).forEach((d) => issue([...base, 'conditions'], `duplicate condition id "${d}"`));
      dupes(study.cases.map((c) => c.id)).forEach((d) => issue([...base, 'cases'], `duplicate case id "${d}"`));
      for (const locale of spec.locales)
        if (!study.protocol.system[locale]) issue([...base, 'protocol', 'system', locale], `no system instruction for locale "${locale}"`);
      study.conditions.forEach((cond, ci) => {
        for (const [scenarioId, byLocale] of Object.entries(cond.tools)) {
          const scenario = scenarios.get(scenarioId);
          if (!scenario) { issue([...base, 'conditions', ci, 'tools', scenarioId], `unknown scenario "${scenarioId}"`); continue; }
          for (const [locale, defs] of Object.entries(byLocale)) {
            const p = [...base, 'conditions', ci, 'tools', scenarioId, locale];
            if (!spec.locales.includes(locale)) issue(p, `locale "${locale}" is not in locales`);
            dupes(defs.map((d) => d.name)).forEach((d) => issue(p, `two tools are named "${d}"`));
            defs.forEach((d, di) => {
              if (!scenario.tools.some((t) => t.id === d.tool))
                issue([...p, di, 'tool'], `"${d.tool}" is not a tool of scenario "${scenarioId}"`);
            });
          }
        }
      });
      study.cases.forEach((c, ci) => {
        const p = [...base, 'cases', ci];
        if (!scenarios.has(c.scenario)) issue([...p, 'scenario'], `unknown scenario "${c.scenario}"`);
        if (!spec.locales.includes(c.locale)) issue([...p, 'locale'], `locale "${c.locale}" is not in locales`);
        study.conditions.forEach((cond, ki) => {
          if (!cond.tools[c.scenario]?.[c.locale])
            issue([...base, 'conditions', ki, 'tools'], `condition "${cond.id}" has no tools for ${c.scenario}/${c.locale} (case "${c.id}")`);
        });
        KIND_SPECS[study.kind].validateCase(c, p, issue, scenarios.get(c.scenario));
        dupes(c.checks.map((k) => k.id)).forEach((d) => issue([...p, 'checks'], `duplicate check id "${d}"`));
        for (const [condId, byCheck] of Object.entries(c.expectByCondition)) {
          if (!study.conditions.some((k) => k.id === condId)) issue([...p, 'expectByCondition', condId], `unknown condition "${condId}"`);
          for (const checkId of Object.keys(byCheck))
            if (!c.checks.some((k) => k.id === checkId)) issue([...p, 'expectByCondition', condId, checkId], `no check "${checkId}" in this case`);
        }
      });
    });
    spec.prechecks.forEach((pc, i) => {
      const study = spec.studies.find((s) => s.id === pc.study);
      if (!study) return issue(['prechecks', i, 'study'], `unknown study "${pc.study}"`);
      if (!study.conditions.some((c) => c.id === pc.condition)) issue(['prechecks', i, 'condition'], `unknown condition "${pc.condition}"`);
      if (!study.cases.some((c) => c.id === pc.caseId)) issue(['prechecks', i, 'caseId'], `unknown case "${pc.caseId}"`);
    });
  });
export type ExperimentSpec = z.infer<typeof ExperimentSpec>;
export type ExperimentSpecInput = z.input<typeof ExperimentSpec>;

function dupes(xs: string[]): string[] {
  const seen = new Set<string>();
  const out = new Set<string>();
  for (const x of xs) (seen.has(x) ? out : seen).add(x);
  return [...out];
}

export function baselineOf(study: Study): Condition {
  return study.conditions.find((c) => c.baseline) ?? study.conditions[0];
}
