import { unpassableAcrossRuns } from '../analysis/outcomes';
import { comparableCases, type CaseRef } from '../analysis/case-changes';
import { modelDifferencesFromCells } from '../analysis/compare-runs';
import { diffSpecs } from '../design/spec-diff';
import { COMPARE_FORMAT, type ComparedRun, type ConditionComparison, type RunComparison, type RunCondition, type VersionComparison } from '../schema/compare';
import { SpecError } from '../schema/common';
import type { ExperimentSpec } from '../schema/experiment';
import type { ClusterBy } from '../schema/table1';
import { comparedTrialPairs, conditionPairCellsSql, storedModelPairCells, type ComparedTrialPair, type PairChange } from '../db/compare';
import { getExperiment } from '../db/experiments';
import { loadRunSummary } from './summary';
import { getRun, type RunRow } from '../db/runs';
import { isSimulatedProvider } from '../providers/vendor-descriptors';
import { ComparabilityError, guardComparison, type GuardedRun } from '../analysis/comparability';
import { auditEvent, recordAudit, recordAuditWithId } from '../db/audit';
import type { Actor } from '../schema/actor';

// Use case: compare runs of one experiment — of one version or of several (docs/compare.md). The first run is the
// reference; every other run is compared with it on identical trials (same study, scenario, locale, case,
// condition, candidate order and replicate). Across versions only the cases unchanged between the two
// versions pair (lib/analysis/case-changes.ts); the others are listed apart with the reason, and the spec
// diff by JSON path says what changed. The compare page, its trial-pairs page and `tclab runs compare` call
// this; each run and each experiment version is loaded once.

/** At most this many runs side by side. */
export const MAX_COMPARED_RUNS = 8;

interface Loaded {
  run: RunRow;
  experiment: { id: string; slug: string; version: number; spec: ExperimentSpec };
}

const refuse = (path: string, message: string) => new SpecError(`${path}: ${message}`, [{ path, message }]);

/** The runs and their experiment versions; refuses unknown runs and runs of different experiments, naming `runs.N`. */
async function loadRuns(runIds: readonly string[]): Promise<Loaded[]> {
  const ids = [...new Set(runIds)];
  if (ids.length < 2) throw refuse('runs', 'at least two different run ids');
  if (ids.length > MAX_COMPARED_RUNS) throw refuse('runs', `at most ${MAX_COMPARED_RUNS} runs side by side`);
  return loadRunList(ids);
}

/** The runs (the same run may come twice) and their versions, all of one experiment. */
async function loadRunList(ids: readonly string[]): Promise<Loaded[]> {
  const runs: RunRow[] = [];
  for (const [i, id] of ids.entries()) {
    const run = await getRun(id);
    if (!run) throw refuse(`runs.${i}`, `no run "${id}"`);
    runs.push(run);
  }
  const experiments = new Map<string, Loaded['experiment']>();
  for (const id of new Set(runs.map((r) => r.experimentId))) {
    const exp = await getExperiment(id);
    if (!exp) throw refuse('runs', `experiment ${id} not found`);
    experiments.set(id, exp);
  }
  const loaded = runs.map((run) => ({ run, experiment: experiments.get(run.experimentId)! }));
  const slug = loaded[0].experiment.slug;
  const other = loaded.findIndex((l) => l.experiment.slug !== slug);
  if (other >= 0)
    throw refuse(
      `runs.${other}`,
      `run ${runs[other].id} is of experiment ${runs[other].experimentId}, not a version of ${slug} (${runs[0].experimentId}): only runs of one experiment compare trial by trial`,
    );
  return loaded;
}

/** The reference's version against another's: the diff and which cases pair (all of them for one version). */
function versionComparison(ref: Loaded, other: Loaded): VersionComparison & { cases: CaseRef[] | null } {
  const base = { referenceRunId: ref.run.id, otherRunId: other.run.id, from: ref.experiment.id, to: other.experiment.id };
  if (ref.experiment.id === other.experiment.id) {
    const pairedCases = ref.experiment.spec.studies.reduce((a, s) => a + s.cases.length, 0);
    return { ...base, changes: [], pairedCases, excludedCases: [], cases: null };
  }
  const labels = { from: `v${ref.experiment.version}`, to: `v${other.experiment.version}` };
  const { unchanged, excluded } = comparableCases(ref.experiment.spec, other.experiment.spec, labels);
  const changes = diffSpecs(ref.experiment.spec, other.experiment.spec);
  return { ...base, changes, pairedCases: unchanged.length, excludedCases: excluded, cases: unchanged };
}

const guarded = (l: Loaded): GuardedRun => ({ runId: l.run.id, settings: l.run.settings, spec: l.experiment.spec, simulated: isSimulatedProvider(l.run.provider) });

/** How a comparison may pass the comparability guard: a reason, and who gave it (recorded in the audit log). */
export interface CompareOverride {
  reason: string;
  actor: Actor;
}

/** An override as recorded in the audit log (overrideComparison), read back by its id. */
export interface RecordedOverride {
  id: string;
  reason: string;
  by: string;
  at: Date;
}

/**
 * Runs of one experiment side by side: Table 1 of each, every other run against the first on identical
 * trials of the cases that pair, and per other run its version against the reference's. Fewer than two runs,
 * unknown ids or runs of different experiments are refused naming `runs`.
 */
export async function compareRuns(runIds: readonly string[], clusterBy: ClusterBy = 'case', override?: CompareOverride): Promise<RunComparison> {
  const loaded = await loadRuns(runIds);
  const guardOverrides = passGuard(loaded, override ?? null);
  if (override && guardOverrides.length > 0) await recordAudit(override.actor, 'comparison.overridden', overrideTarget(loaded), overrideDetail(loaded, guardOverrides));
  return compareLoaded(loaded, clusterBy, guardOverrides);
}

/**
 * The compare page's override: the guard passed with a reason, recorded once in the audit log; returns the
 * entry's id, which the page's address then carries (compareRunsUnderOverride reads it back, recording
 * nothing more). Refused naming `override` when the reason is empty or the runs need no override.
 */
export async function overrideComparison(runIds: readonly string[], override: CompareOverride): Promise<string> {
  const loaded = await loadRuns(runIds);
  const guardOverrides = passGuard(loaded, override);
  if (guardOverrides.length === 0) throw refuse('override', 'these runs differ in nothing the guard checks: there is nothing to override');
  return recordAuditWithId(override.actor, 'comparison.overridden', overrideTarget(loaded), overrideDetail(loaded, guardOverrides));
}

/** compareRuns under an override recorded before (overrideComparison) for exactly these runs, with who gave it and when. */
export async function compareRunsUnderOverride(
  runIds: readonly string[],
  clusterBy: ClusterBy,
  overrideId: string,
): Promise<{ comparison: RunComparison; override: RecordedOverride }> {
  const loaded = await loadRuns(runIds);
  const entry = await auditEvent(overrideId);
  const detail = entry?.detail as { runs?: unknown; overrides?: { reason?: unknown }[] } | undefined;
  const reason = detail?.overrides?.[0]?.reason;
  if (!entry || entry.action !== 'comparison.overridden' || JSON.stringify(detail?.runs) !== JSON.stringify(loaded.map((l) => l.run.id)) || typeof reason !== 'string')
    throw refuse('override', `no override ${overrideId.slice(0, 40)} is recorded for runs ${loaded.map((l) => l.run.id).join(', ')}`);
  const guardOverrides = passGuard(loaded, { reason });
  return { comparison: await compareLoaded(loaded, clusterBy, guardOverrides), override: { id: overrideId, reason, by: entry.actor, at: entry.at } };
}

/**
 * Across versions the paired difference is credited to the edit: nothing else may differ unless overridden
 * (docs/optimise.md#the-comparability-guard). Runs of one version differ in their settings on purpose.
 * Refuses naming `override`; returns what each other run's override lets through.
 */
function passGuard(loaded: Loaded[], override: { reason: string } | null): NonNullable<RunComparison['guardOverrides']> {
  const [ref, ...others] = loaded;
  const guardOverrides: NonNullable<RunComparison['guardOverrides']> = [];
  for (const other of others) {
    if (other.experiment.id === ref.experiment.id) continue;
    let passed;
    try {
      passed = guardComparison(guarded(ref), guarded(other), override);
    } catch (e) {
      if (e instanceof ComparabilityError) throw refuse('override', e.message);
      throw e;
    }
    if (passed) guardOverrides.push({ runId: other.run.id, ...passed });
  }
  return guardOverrides;
}

const overrideTarget = (loaded: Loaded[]) => ({ experimentId: loaded[0].experiment.id, runId: loaded[0].run.id });
const overrideDetail = (loaded: Loaded[], overrides: NonNullable<RunComparison['guardOverrides']>) => ({ runs: loaded.map((l) => l.run.id), overrides });

async function compareLoaded(loaded: Loaded[], clusterBy: ClusterBy, guardOverrides: NonNullable<RunComparison['guardOverrides']>): Promise<RunComparison> {
  const [ref, ...others] = loaded;
  const runs: ComparedRun[] = await Promise.all(
    loaded.map(async ({ run, experiment }) => ({
      runId: run.id,
      provider: run.provider,
      model: run.model,
      label: `${run.provider}/${run.model}`,
      simulated: isSimulatedProvider(run.provider),
      status: run.status,
      experimentId: experiment.id,
      version: experiment.version,
      conditions: [...new Set(experiment.spec.studies.flatMap((st) => st.conditions.map((x) => x.id)))],
      summary: await loadRunSummary(run, experiment.spec, clusterBy),
    })),
  );
  const differences: RunComparison['differences'] = [];
  const versions: VersionComparison[] = [];
  for (const other of others) {
    const { cases, ...version } = versionComparison(ref, other);
    versions.push(version);
    const cells = await storedModelPairCells(ref.run.id, other.run.id, clusterBy, cases);
    // the reference's studies and conditions: a condition or study only in the other version has no twin trials
    differences.push(...modelDifferencesFromCells(ref.experiment.spec.studies, ref.run.id, other.run.id, cells));
  }
  const unpassable = unpassableAcrossRuns(runs.map((r) => r.summary));
  return {
    format: COMPARE_FORMAT,
    experimentId: ref.experiment.id,
    clusterBy,
    runs,
    differences,
    versions,
    ...(unpassable.length > 0 && { unpassable }),
    ...(guardOverrides.length > 0 && { guardOverrides }),
  };
}

export const PAIR_CHANGES = ['improved', 'same', 'regressed'] as const satisfies readonly PairChange[];

/** One cell's trial pairs (improved, same or regressed) of `other` against `reference`, over the cases that pair. */
export async function compareTrialPairs(
  referenceRunId: string,
  otherRunId: string,
  where: { study: string; condition: string; change: PairChange },
): Promise<{ reference: Loaded; other: Loaded; version: VersionComparison; pairs: ComparedTrialPair[] }> {
  const [reference, other] = await loadRuns([referenceRunId, otherRunId]);
  const { cases, ...version } = versionComparison(reference, other);
  const study = reference.experiment.spec.studies.find((s) => s.id === where.study);
  if (!study) throw refuse('study', `no study "${where.study}" in ${reference.experiment.id}`);
  if (!study.conditions.some((c) => c.id === where.condition)) throw refuse('condition', `no condition "${where.condition}" in study ${study.id}`);
  const pairs = await comparedTrialPairs(referenceRunId, otherRunId, where, cases);
  return { reference, other, version, pairs };
}

/** `RUN:CONDITION` as the compare page's `a` / `b` carry it (the condition after the last colon). */
export function parseRunCondition(value: string, path: string): RunCondition {
  const i = value.lastIndexOf(':');
  if (i <= 0 || i === value.length - 1) throw refuse(path, `expected RUN:CONDITION, got "${value.slice(0, 100)}"`);
  return { runId: value.slice(0, i), condition: value.slice(i + 1) };
}

/**
 * Condition against condition across runs (docs/compare.md): run B's `b.condition` against run A's `a.condition`,
 * per study holding both, on trials paired by study, scenario, locale, case, order and replicate — of the
 * cases unchanged between the two versions. A and B may be one run (its own paired effect, any two conditions).
 */
export async function compareConditions(a: RunCondition, b: RunCondition, clusterBy: ClusterBy = 'case'): Promise<ConditionComparison> {
  const [ra, rb] = await loadRunList([a.runId, b.runId]);
  const { cases, ...version } = versionComparison(ra, rb);
  const studies = ra.experiment.spec.studies
    .filter((s) => s.conditions.some((c) => c.id === a.condition))
    .filter((s) => rb.experiment.spec.studies.find((x) => x.id === s.id)?.conditions.some((c) => c.id === b.condition))
    .map((s) => ({ id: s.id, conditions: [{ id: b.condition, baseline: false }] }));
  if (studies.length === 0) throw refuse('b', `no study holds both ${a.condition} (in ${ra.experiment.id}) and ${b.condition} (in ${rb.experiment.id})`);
  const cells = await conditionPairCellsSql(a, b, clusterBy, cases);
  return { a, b, version, differences: modelDifferencesFromCells(studies, a.runId, b.runId, cells) };
}
