import type { Case, ExperimentSpec, Study, StudySplits } from '../schema/experiment';
import { baselineOf, checksFor } from '../schema/experiment';
import { sha256 } from '../hash';

// The tune / select / confirm split of a study's cases (docs/optimise.md). Candidates are written from the tune
// cases, the winner is chosen on the select cases, and the confirm cases are sealed until a winner is frozen.
// The split is at case level (a case's orders and replicates stay together, they are one cluster), drawn by a
// seeded hash of the case id, and stratified by what the case card expects of the baseline (the expected
// tool, label or decision), so that each split sees every kind of case in about its share.

export type SplitName = 'tune' | 'select' | 'confirm';
export const SPLIT_NAMES: readonly SplitName[] = ['tune', 'select', 'confirm'];

/** The default shares: about 40 / 30 / 30 percent. */
export const DEFAULT_SHARES = { tune: 40, select: 30, confirm: 30 } as const;

export function defaultSplits(seed: number): StudySplits {
  return { seed, ...DEFAULT_SHARES };
}

export interface StudySplit {
  study: string;
  seed: number;
  shares: { tune: number; select: number; confirm: number };
  /** Case ids of each split, in the study's case order. */
  tune: string[];
  select: string[];
  confirm: string[];
  /** The sealed confirm split as it is shown: its size and `sha256:` of its sorted case ids, one per line. */
  sealed: { count: number; sha256: string };
}

export class SplitError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = 'SplitError';
  }
}

/** `sha256:` of the sorted case ids joined by newlines: the seal of a confirm split. */
export function caseSetHash(caseIds: readonly string[]): string {
  return `sha256:${sha256([...caseIds].sort().join('\n'))}`;
}

/** What the case's card expects of the baseline, as a stratum: scenario, then the expected tool, label or decision. */
export function stratumOf(kase: Case, baselineId: string): string {
  const checks = checksFor(kase, baselineId);
  const e = checks.find((c) => c.expected.tool)?.expected ?? checks.find((c) => c.expected.label)?.expected ?? checks[0]?.expected;
  const what = e?.tool ? `tool:${e.tool}` : e?.label ? `label:${e.label}` : e?.decision ? `decision:${e.decision}` : 'none';
  return `${kase.scenario}\n${what}`;
}

/** The seeded hash that orders cases inside a stratum (hex, compared as text). */
const drawKey = (seed: number, caseId: string) => sha256(`${seed}\n${caseId}`);

/**
 * The split of a study's cases. Within each stratum the cases are ordered by the seeded hash; case r of a
 * stratum of n sits at (r + ½)/n, so every stratum is spread evenly over [0, 1]; all cases sorted by that
 * place are dealt confirm first, then select, then tune. Sizes: round(N·share), at least one confirm and one
 * select case; tune takes the rest. Throws a SplitError naming the field when the study cannot be split.
 */
export function splitStudy(study: Study, splits: StudySplits | undefined = study.splits): StudySplit {
  if (!splits) throw new SplitError(`studies.${study.id}.splits`, 'the study declares no split');
  if (splits.tune + splits.select + splits.confirm !== 100) throw new SplitError(`studies.${study.id}.splits`, 'tune + select + confirm must add up to 100 (percent)');
  const n = study.cases.length;
  if (n < 2) throw new SplitError(`studies.${study.id}.cases`, `a split needs at least 2 cases (a select and a confirm case); the study has ${n}`);
  const baseline = baselineOf(study).id;
  const strata = new Map<string, Case[]>();
  for (const c of study.cases) {
    const key = stratumOf(c, baseline);
    (strata.get(key) ?? strata.set(key, []).get(key)!).push(c);
  }
  const placed: { id: string; at: number; key: string }[] = [];
  for (const cases of strata.values()) {
    const ordered = cases.map((c) => ({ id: c.id, key: drawKey(splits.seed, c.id) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    ordered.forEach((c, r) => placed.push({ id: c.id, at: (r + 0.5) / ordered.length, key: c.key }));
  }
  placed.sort((a, b) => a.at - b.at || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  let confirmN = Math.max(1, Math.round((n * splits.confirm) / 100));
  let selectN = Math.max(1, Math.round((n * splits.select) / 100));
  while (confirmN + selectN > n) {
    if (selectN >= confirmN && selectN > 1) selectN--;
    else confirmN--;
  }
  const which = new Map<string, SplitName>();
  placed.forEach((c, i) => which.set(c.id, i < confirmN ? 'confirm' : i < confirmN + selectN ? 'select' : 'tune'));
  const of = (name: SplitName) => study.cases.filter((c) => which.get(c.id) === name).map((c) => c.id);
  const confirm = of('confirm');
  return {
    study: study.id,
    seed: splits.seed,
    shares: { tune: splits.tune, select: splits.select, confirm: splits.confirm },
    tune: of('tune'),
    select: of('select'),
    confirm,
    sealed: { count: confirm.length, sha256: caseSetHash(confirm) },
  };
}

/** The splits of every study of the spec that declares one. */
export function splitsOf(spec: ExperimentSpec): StudySplit[] {
  return spec.studies.filter((s) => s.splits).map((s) => splitStudy(s));
}

/** The spec with `splits` set on one study (a new version when stored: the split is part of the version). */
export function withSplits(spec: ExperimentSpec, studyId: string, splits: StudySplits): ExperimentSpec {
  if (!spec.studies.some((s) => s.id === studyId)) throw new SplitError('study', `no study "${studyId}" in the experiment`);
  return { ...spec, studies: spec.studies.map((s) => (s.id === studyId ? { ...s, splits } : s)) };
}

/**
 * The spec restricted to some of one study's cases (the others dropped with their pre-checks; other studies
 * dropped): what a select or confirm run plans. Only the cases given can ever become trials of that run.
 */
export function restrictToCases(spec: ExperimentSpec, studyId: string, caseIds: readonly string[]): ExperimentSpec {
  const keep = new Set(caseIds);
  const study = spec.studies.find((s) => s.id === studyId);
  if (!study) throw new SplitError('study', `no study "${studyId}" in the experiment`);
  const cases = study.cases.filter((c) => keep.has(c.id));
  if (cases.length === 0) throw new SplitError('caseIds', 'no case of the study is in the list');
  return {
    ...spec,
    studies: [{ ...study, cases }],
    prechecks: spec.prechecks.filter((p) => p.study === studyId && keep.has(p.caseId)),
  };
}
