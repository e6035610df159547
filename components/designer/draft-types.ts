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
  tools: { id: string; effect: Effect }[];
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

export const DECISIONS = ['read', 'write', 'clarify', 'stop'] as const;
export const ORDER_POLICIES = ['fixed', 'reverse-swap', 'rotations', 'all-permutations'] as const;

/** A value typed in a form field: a number when it reads as one, true/false, otherwise the text. */
export function scalarOf(text: string): unknown {
  const t = text.trim();
  if (t === 'true') return true;
  if (t === 'false') return false;
  if (t !== '' && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return text;
}
export const scalarText = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
