import type { ExperimentSpec } from '../schema/experiment';
import type { RunSettings } from '../schema/run';
import { canonicalJson } from '../hash';
import { caseSetHash } from '../design/splits';

// The comparability guard (docs/optimise.md "The comparability guard"): a comparison that credits a
// difference to the descriptions must hold everything else fixed. This names every difference between two
// runs other than the descriptions — provider, model, base URL, temperature, seed, max tokens, candidate
// order policy, discovery, the case set, simulated or real — so a comparison can refuse until the user
// overrides it, and show the override beside its result.

export const GUARDED_FIELDS = ['provider', 'model', 'baseUrl', 'temperature', 'seed', 'maxOutputTokens', 'orderPolicy', 'discovery', 'caseSet', 'simulated'] as const;
export type GuardedField = (typeof GUARDED_FIELDS)[number];

export const GUARDED_LABELS: Record<GuardedField, string> = {
  provider: 'provider',
  model: 'model',
  baseUrl: 'provider base URL',
  temperature: 'temperature',
  seed: 'seed',
  maxOutputTokens: 'max output tokens',
  orderPolicy: 'candidate order policy',
  discovery: 'discovery (catalog and tool search)',
  caseSet: 'case set',
  simulated: 'simulated or real',
};

/** What the guard reads of a run: its settings, its experiment version's spec, and whether its provider is simulated. */
export interface GuardedRun {
  runId: string;
  settings: Pick<RunSettings, 'provider' | 'model' | 'baseUrl' | 'temperature' | 'seed' | 'maxOutputTokens'>;
  spec: ExperimentSpec;
  simulated: boolean;
}

export interface RunDifference {
  field: GuardedField;
  /** The study it concerns, for the per-study fields (order policy, discovery, case set). */
  study?: string;
  a: string;
  b: string;
}

const show = (v: unknown) => (v === null || v === undefined ? 'none' : typeof v === 'string' ? v : JSON.stringify(v));

/** Every difference between two runs beyond their descriptions (an empty list: they may be compared). */
export function runDifferences(a: GuardedRun, b: GuardedRun): RunDifference[] {
  const out: RunDifference[] = [];
  for (const field of ['provider', 'model', 'baseUrl', 'temperature', 'seed', 'maxOutputTokens'] as const) {
    const x = a.settings[field] ?? null;
    const y = b.settings[field] ?? null;
    if (x !== y) out.push({ field, a: show(x), b: show(y) });
  }
  if (a.simulated !== b.simulated) out.push({ field: 'simulated', a: a.simulated ? 'simulated' : 'real', b: b.simulated ? 'simulated' : 'real' });
  const studiesB = new Map(b.spec.studies.map((s) => [s.id, s]));
  for (const sa of a.spec.studies) {
    const sb = studiesB.get(sa.id);
    if (!sb) continue; // a study only one run has pairs with nothing
    if (sa.orderPolicy !== sb.orderPolicy) out.push({ field: 'orderPolicy', study: sa.id, a: sa.orderPolicy, b: sb.orderPolicy });
    if (canonicalJson(sa.catalog ?? null) !== canonicalJson(sb.catalog ?? null))
      out.push({
        field: 'discovery',
        study: sa.id,
        a: sa.catalog ? 'catalog ' + canonicalJson(sa.catalog).slice(0, 120) : 'none',
        b: sb.catalog ? 'catalog ' + canonicalJson(sb.catalog).slice(0, 120) : 'none',
      });
    const ca = caseSetHash(sa.cases.map((c) => c.id));
    const cb = caseSetHash(sb.cases.map((c) => c.id));
    if (ca !== cb) out.push({ field: 'caseSet', study: sa.id, a: `${sa.cases.length} cases, ${ca.slice(0, 19)}…`, b: `${sb.cases.length} cases, ${cb.slice(0, 19)}…` });
  }
  return out;
}

/** A difference in words: "temperature: 0 vs 0.7", "case set (selection): … vs …". */
export function differenceText(d: RunDifference): string {
  return `${GUARDED_LABELS[d.field]}${d.study ? ` (${d.study})` : ''}: ${d.a} vs ${d.b}`;
}

/** The user's override of the guard: who, why, what it let through. Stored with the comparison's audit entry. */
export interface GuardOverride {
  reason: string;
  differences: RunDifference[];
}

export class ComparabilityError extends Error {
  constructor(
    readonly differences: RunDifference[],
    readonly runs: [string, string],
  ) {
    super(
      `runs ${runs[0]} and ${runs[1]} differ beyond their descriptions — ${differences.map(differenceText).join('; ')}. ` +
        'A difference between them is not the descriptions’ alone; compare anyway only with an override and its reason (override).',
    );
    this.name = 'ComparabilityError';
  }
}

/**
 * The guard: throws a ComparabilityError naming every difference unless there is none, or an override
 * with a reason is given; returns the override as it is to be stored and shown (null when none was needed).
 */
export function guardComparison(a: GuardedRun, b: GuardedRun, override: { reason: string } | null | undefined): GuardOverride | null {
  const differences = runDifferences(a, b);
  if (differences.length === 0) return null;
  const reason = override?.reason.trim() ?? '';
  if (!reason) throw new ComparabilityError(differences, [a.runId, b.runId]);
  return { reason, differences };
}
