import { mergeArgTypes, parameterTypes, wantedDefs, type ArgType } from '@/lib/design/argument-types';

export { defaultValue, pickedTypeOf, textOfValue, valueFromText, type ArgType, type PickedType } from '@/lib/design/argument-types';

// The designer's view of a draft: the experiment spec's shape with everything optional-tolerant, so a
// half-written draft can be edited. The server checks it with the one parse; nothing here validates.

export type Effect = 'read' | 'write';
export interface DTool {
  tool: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
export interface DExpected {
  decision?: string;
  tool?: string;
  call_count?: number;
  arguments?: Record<string, unknown>;
  label?: string;
  write_count?: number;
}
export interface DCheck {
  id: string;
  axis: string;
  condition?: string;
  expected: DExpected;
}
export interface DEvidence {
  claim: string;
  evidence_ref: string | null;
  status: string;
}
export interface DCase {
  id: string;
  scenario: string;
  locale: string;
  task: string;
  checks: DCheck[];
  evidenceGate?: DEvidence[];
  expectByCondition?: Record<string, Record<string, DExpected>>;
  fixedCall?: { tool: string; arguments: Record<string, unknown> };
  toolResult?: unknown;
  [k: string]: unknown;
}
export interface DCondition {
  id: string;
  label: string;
  baseline?: boolean;
  tools: Record<string, Record<string, DTool[]>>;
  /** A generated variant's kind and source (lib/schema/experiment.ts ConditionVariant). */
  variant?: { kind: string; of: string };
}
export interface DProtocol {
  system: Record<string, string>;
  markers?: { clarify: string; stop: string; status: string };
  labels?: string[];
}
export interface DStudy {
  id: string;
  kind: string;
  title: string;
  orderPolicy?: string;
  protocol: DProtocol;
  conditions: DCondition[];
  cases: DCase[];
  [k: string]: unknown;
}
export interface DScenario {
  id: string;
  title: string;
  tools: { id: string; effect: Effect; facts?: string[] }[];
  [k: string]: unknown;
}
export interface DSpec {
  format: string;
  id: string;
  name: string;
  description?: string;
  locales: string[];
  scenarios: DScenario[];
  studies: DStudy[];
  replicates?: number;
  prechecks: { study: string; condition: string; caseId: string }[];
  [k: string]: unknown;
}

const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const obj = <T>(v: unknown): T => (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as T;

/** Fill the arrays and objects a half-written draft may lack, so every section can render it. */
export function normalize(content: Record<string, unknown>): DSpec {
  const c = content as Partial<DSpec>;
  return {
    ...c,
    format: c.format ?? 'tclab.experiment/v1',
    id: String(c.id ?? ''),
    name: c.name ?? '',
    locales: arr<string>(c.locales),
    scenarios: arr<DScenario>(c.scenarios).map((s) => ({ ...s, tools: arr(s.tools) })),
    studies: arr<DStudy>(c.studies).map((s) => ({
      ...s,
      protocol: { ...obj<DProtocol>(s.protocol), system: obj(obj<DProtocol>(s.protocol).system) },
      conditions: arr<DCondition>(s.conditions).map((k) => ({ ...k, tools: obj(k.tools) })),
      cases: arr<DCase>(s.cases).map((k) => ({ ...k, checks: arr(k.checks) })),
    })),
    prechecks: arr(c.prechecks),
  };
}

export const ORDER_POLICIES = ['fixed', 'reverse-swap', 'rotations', 'all-permutations'] as const;

/**
 * The types of the arguments an expectation's call may pass (lib/design/argument-types.ts): from the tool
 * definitions this case's conditions send for its scenario and locale — the expected tool's, else those of
 * the decided effect, else every tool's — merged across conditions (they differ: the user picks), or from
 * one condition's only (`conditionId`: a per-condition expectation).
 */
export function argumentTypesFor(draft: DSpec, study: DStudy, kase: DCase, expected: DExpected, conditionId?: string): Map<string, ArgType> {
  const effects = new Map(draft.scenarios.find((s) => s.id === kase.scenario)?.tools.map((t) => [t.id, t.effect]) ?? []);
  const conditions = study.conditions.filter((c) => conditionId === undefined || c.id === conditionId);
  const perCondition = conditions.map((c) =>
    parameterTypes(wantedDefs(arr<DTool>(obj<Record<string, unknown>>(obj<Record<string, unknown>>(c.tools)[kase.scenario])[kase.locale]), expected, effects)),
  );
  const names = new Set(perCondition.flatMap((m) => [...m.keys()]));
  return new Map([...names].map((n) => [n, mergeArgTypes(perCondition.flatMap((m) => (m.has(n) ? [m.get(n)!] : [])))]));
}

/** The types of a fixed call's arguments: its tool's parameters, across the conditions. */
export const fixedCallTypesFor = (draft: DSpec, study: DStudy, kase: DCase): Map<string, ArgType> =>
  argumentTypesFor(draft, study, kase, { tool: kase.fixedCall?.tool ?? '' });
