import type { Actor } from '../schema/actor';
import { TEXT_MAX } from '../schema/common';
import type { Condition, ExperimentSpec, Study } from '../schema/experiment';
import { baselineOf } from '../schema/experiment';
import { RunSettings, type RunBudgetInput, type RunSettingsInput, type RunTarget } from '../schema/run';
import type { RunRow } from '../db/runs';
import { getRun } from '../db/runs';
import { getExperiment } from '../db/experiments';
import { storedTrialUsage } from '../db/usage';
import {
  earlierLooks,
  failOptimisation,
  freezeWinners,
  getOptimisation,
  getOptimisationRequest,
  holdOptimisation,
  insertOptimisation,
  setConfirmRuns,
  setSelectRun,
  storeConfirmation,
  takeLook,
} from '../db/optimisations';
import type { OptimisationCandidate, OptimisationRequest, OptimisationResult, OptimisationRow, SplitShares, StoredConfirm } from '../schema/optimisation';
import { parseRunTarget } from '../schema/run';
import { enqueueOptimisation } from '../queue/enqueue';
import { DEFAULT_SHARES, restrictToCases, splitStudy, SplitError, type StudySplit } from '../design/splits';
import { proposeRuleFixes } from '../design/rewrites';
import { proposePlacebo } from '../design/variants';
import { pairClusters } from '../analysis/outcomes';
import { confirmReadings, confirmSentence, rankCandidates, selectWinners, type SelectionRule } from '../analysis/optimise';
import { candidateFunnel, newConfusions, perRequest } from '../analysis/side-effects';
import { runFunnel } from '../runs/funnel';
import { choiceResolver, type Choice } from '../analysis/choices';
import { iterateChoiceRows } from '../db/choices';
import { getPriceTable } from '../runner/price-table';
import { cochranQ, type PairCluster } from '../stats';
import type { TrialUsage } from '../schema/outcomes';
import { isFinalRunStatus } from '../schema/run-status';
import { saveExperiment } from '../experiments/versions';
import { startRuns } from '../runs/start';
import { startRun } from '../runner/start';
import { newRunGroupId, newRunId } from '../db/runs';
import { templateOf } from '../templates';
import { SIMULATED_ENGINE } from '../simulator';
import { ensureDatabase, migrate } from '../db/migrate';
import { env } from '../env';
import { checkSpendConfirmation, estimateSpend, priceOf, type SpendConfirmation, type SpendEstimate } from '../runner/spend';
import { costAt, type PriceTable } from '../design/cost';
import { isSimulatedProvider } from '../providers/vendor-descriptors';
import { MAX_CANDIDATES } from './limits';
import { budgetLeft, loopBudgetOf } from './budget';
import { budgetSpent } from '../db/budget';
import { OptimiseInputError } from './errors';
import { proposeModelRewrite, rewriteCondition, rewriteRequest, type RewriteSpend } from './rewriter';

export { OptimiseInputError };

// Use case: the improve-descriptions loop (docs/optimise.md). From a stored version and one of its studies:
// deal the split, gather the candidates (rule-driven fixes, the study's hand-written conditions, the
// length-matched placebo), store the record with the rule, run the select version, rank and freeze the
// winner(s) in the record, and only then derive and run the confirm version on each target — so no trial of
// a confirm case exists before the freeze. Holm counts every earlier look at the same sealed split.
//
// Two halves (docs/optimise.md "The loop, stored"): storeOptimisation checks the input and stores the record;
// advanceOptimisation continues a stored record from its stage — in the worker (the advance-optimisation job,
// startOptimisation) or in-process (optimise, the CLI). PostgreSQL is the source of truth: a run id already
// stored on the record is reused, never started again, and stages only move forward, so a job delivered twice
// yields one select run and one confirm run per target.

export { MAX_CANDIDATES };

/** Used when the study declares no split and none is given (stored with the record either way). */
export const DEFAULT_SEED = 0;

/** The loop stopped after its record was stored: the record (stage `failed`, with the reason) and the cause. */
export class OptimiseFailed extends Error {
  constructor(
    readonly record: OptimisationRow,
    readonly cause: unknown,
  ) {
    super(`optimisation ${record.id} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'OptimiseFailed';
  }
}

export type OptimiseEvent =
  | { kind: 'rewritten'; experimentId: string; condition: string; rewriter: string; spent: RewriteSpend }
  | { kind: 'sealed'; split: StudySplit }
  | { kind: 'run'; stage: 'select' | 'confirm'; runId: string; target: string; experimentId: string }
  | { kind: 'frozen'; record: OptimisationRow };

export interface OptimiseInput {
  experimentId: string;
  study: string;
  /** Percent shares (default 40 / 30 / 30, or the study's declared split). */
  shares?: SplitShares;
  seed?: number;
  rule?: SelectionRule;
  /** Bound on the candidates besides the placebo (default and at most MAX_CANDIDATES). */
  maxCandidates?: number;
  /** provider:model targets: the first runs the select stage, every one the confirmation. */
  targets: RunTarget[];
  /**
   * A rewriter model: asked first, with the tune split only, for a rewrite that joins the candidates — as a new
   * version of the experiment, which the loop then improves (lib/optimise/rewriter.ts).
   */
  rewriter?: RunTarget;
  /** Settings of every run besides provider and model (concurrency, base URL, temperature…). */
  settings?: Omit<RunSettingsInput, 'provider' | 'model'>;
  confirm?: SpendConfirmation;
  /** What the whole loop may spend, the rewriter's request included (lib/optimise/budget.ts); none by default. */
  budget?: RunBudgetInput | null;
  actor: Actor;
  onEvent?: (e: OptimiseEvent) => void;
  /** Waits until a run is final (default: read PostgreSQL until it is). A worker must be running. */
  waitForRun?: (runId: string) => Promise<RunRow>;
}

const targetKey = (t: RunTarget) => `${t.provider}:${t.model}`;

/** The database created and migrated, as a door needs it before the loop (what `tclab run` does first). */
export async function prepareDatabase(): Promise<void> {
  const url = env().DATABASE_URL;
  await ensureDatabase(url);
  await migrate(url);
}

/** The target when none is given: the simulated model of the version's template (lib/templates), else the lexical one. */
export async function defaultTarget(experimentId: string): Promise<RunTarget> {
  const exp = await getExperiment(experimentId);
  if (!exp) throw new OptimiseInputError('experimentId', `no experiment "${experimentId}"`);
  return { provider: 'simulated', model: templateOf(exp.template)?.simulated.model ?? SIMULATED_ENGINE };
}

/** Reads the run from PostgreSQL until its status is final. */
export async function waitUntilFinal(runId: string, everyMs = 250): Promise<RunRow> {
  for (;;) {
    const run = await getRun(runId);
    if (!run) throw new Error(`run ${runId} disappeared`);
    if (isFinalRunStatus(run.status)) return run;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

function checkInput(input: OptimiseInput): void {
  if (input.targets.length === 0) throw new OptimiseInputError('targets', 'at least one provider:model');
  const seen = new Set<string>();
  for (const t of input.targets) {
    if (seen.has(targetKey(t))) throw new OptimiseInputError('targets', `${targetKey(t)} is given twice`);
    seen.add(targetKey(t));
  }
  input.targets.forEach((t, i) => {
    const r = RunSettings.safeParse({ ...(input.settings ?? {}), provider: t.provider, model: t.model });
    if (!r.success)
      throw new OptimiseInputError('targets', `#${i + 1} ${targetKey(t)}: ${r.error.issues.map((x) => `${x.path.join('.') || 'settings'}: ${x.message}`).join('; ')}`);
  });
  const k = input.maxCandidates ?? MAX_CANDIDATES;
  if (!Number.isInteger(k) || k < 1 || k > MAX_CANDIDATES) throw new OptimiseInputError('candidates', `a whole number from 1 to ${MAX_CANDIDATES} (got ${k})`);
  if (input.rule?.kind === 'top' && !(Number.isInteger(input.rule.m) && input.rule.m >= 1 && input.rule.m <= k))
    throw new OptimiseInputError('rule', `top m needs a whole m from 1 to the number of candidates (${k}); got ${input.rule.m}`);
  if (input.seed !== undefined && !(Number.isSafeInteger(input.seed) && input.seed >= 0 && input.seed <= 2 ** 31 - 1))
    throw new OptimiseInputError('seed', `a whole number from 0 to 2147483647 (got ${input.seed})`);
  const s = input.shares;
  if (s) {
    const ok = [s.tune, s.select, s.confirm].every((x) => Number.isInteger(x) && x >= 0 && x <= 100) && s.select >= 1 && s.confirm >= 1;
    if (!ok || s.tune + s.select + s.confirm !== 100)
      throw new OptimiseInputError(
        'split',
        `whole percentages tune/select/confirm adding up to 100, select and confirm at least 1 (got ${s.tune}/${s.select}/${s.confirm})`,
      );
  }
}

/** The tools a candidate changes against the baseline (description and parameters), for the record. */
function changesOf(baseline: Condition, c: Condition): OptimisationCandidate['changes'] {
  const out: OptimisationCandidate['changes'] = [];
  for (const [scenario, byLocale] of Object.entries(c.tools))
    for (const [locale, defs] of Object.entries(byLocale))
      for (const d of defs) {
        const b = baseline.tools[scenario]?.[locale]?.find((x) => x.tool === d.tool);
        if (b && JSON.stringify(b) === JSON.stringify(d)) continue;
        const text = (x: typeof d | undefined) => (x ? `${x.description}\n${JSON.stringify(x.parameters)}` : '');
        out.push({ scenario, locale, tool: d.tool, before: text(b), after: text(d) });
      }
  return out;
}

const descriptionLength = (c: Condition) =>
  Object.values(c.tools)
    .flatMap((byLocale) => Object.values(byLocale).flat())
    .reduce((a, d) => a + d.description.length, 0);

/**
 * The candidates of a study: its hand-written conditions (no generated variant, or a rule/model/hand one), then
 * the rule-driven fixes of the baseline, bounded to `max`; and the placebo — the study's own, else the
 * baseline padded to the longest candidate's length. Mutants and ablations are not candidates.
 */
export function gatherCandidates(spec: ExperimentSpec, study: Study, max: number): { conditions: Condition[]; candidates: OptimisationCandidate[] } {
  const baseline = baselineOf(study);
  const taken = new Set(study.conditions.map((c) => c.id));
  const own = study.conditions.filter((c) => !c.baseline);
  const hand = own.filter((c) => !c.variant || /^(hand|rule:|model:)/.test(c.variant.kind));
  const rules = proposeRuleFixes(spec, study.id, baseline.id, taken).proposals.map((p) => p.condition);
  const chosen = [...hand, ...rules].slice(0, max);
  let placebo = own.find((c) => c.variant?.kind === 'placebo') ?? null;
  if (!placebo && chosen.length > 0) {
    const longest = [...chosen].sort((a, b) => descriptionLength(b) - descriptionLength(a))[0];
    const proposal = proposePlacebo({ ...study, conditions: [baseline, ...chosen] }, longest.id, taken);
    placebo = proposal?.condition ?? null;
  }
  const conditions = [...chosen, ...(placebo ? [placebo] : [])];
  const candidates = conditions.map((c): OptimisationCandidate => ({
    condition: c.id,
    label: c.label,
    provenance: c === placebo ? 'placebo' : (c.variant?.kind ?? 'hand'),
    of: c.variant?.of ?? null,
    placebo: c === placebo,
    changes: changesOf(baseline, c),
  }));
  return { conditions, candidates };
}

/** `<source>.<study>.<stage>`, shortened to an id's length (the source's id first, then the study's). */
export function derivedId(sourceId: string, studyId: string, stage: 'select' | 'confirm'): string {
  const tail = `.${studyId.slice(0, 30)}.${stage}`;
  return `${sourceId.slice(0, TEXT_MAX.id - tail.length)}${tail}`;
}

/** A version of the source holding one study: these conditions (baseline first) and these cases only. */
function derivedSpec(spec: ExperimentSpec, study: Study, conditions: Condition[], caseIds: readonly string[], stage: 'select' | 'confirm'): ExperimentSpec {
  const keep = new Set(conditions.map((c) => c.id));
  // a variant made from a condition this version does not hold (the confirmation's placebo, length-matched to a
  // candidate that was not frozen) names the baseline instead: the record keeps what it was made from
  const baselineId = conditions.find((c) => c.baseline)?.id ?? conditions[0].id;
  const held = conditions.map((c) => (c.variant && !keep.has(c.variant.of) ? { ...c, variant: { ...c.variant, of: baselineId } } : c));
  const withConditions: ExperimentSpec = {
    ...spec,
    studies: spec.studies.map((s) => (s.id === study.id ? { ...s, conditions: held } : s)),
    prechecks: spec.prechecks.filter((p) => p.study !== study.id || keep.has(p.condition)),
  };
  const restricted = restrictToCases(withConditions, study.id, caseIds);
  const [only] = restricted.studies;
  const { splits: _dropped, ...rest } = only;
  void _dropped;
  return {
    ...restricted,
    id: derivedId(spec.id, study.id, stage),
    name: `${spec.name} — ${stage} split of ${study.id}`.slice(0, TEXT_MAX.short),
    studies: [rest],
  };
}

/** Paired counts of `treatment` against `baseline`, one cluster per case. */
function clustersOf(baseline: string, treatment: string, trials: readonly TrialUsage[]): PairCluster[] {
  return pairClusters(baseline, treatment, trials).map((c) => ({ pairs: c.improved + c.regressed + c.same, improved: c.improved, regressed: c.regressed }));
}

/**
 * Each candidate's side effects on the select run (lib/analysis/side-effects.ts): its new confusions, read from
 * the run's choices as the expected × chosen matrices are, its tokens and cost per request at the price
 * table's row for the run's provider and model, and in a catalog study its funnel pairs (the run's funnel).
 */
async function sideEffectsOf(run: RunRow, baseline: string, trials: readonly TrialUsage[]) {
  const [version, table] = await Promise.all([getExperiment(run.experimentId), getPriceTable()]);
  if (!version) throw new Error(`the select version ${run.experimentId} is gone`);
  const resolve = choiceResolver(version.spec);
  const choices: Choice[] = [];
  for await (const row of iterateChoiceRows(run.id)) choices.push(resolve(row));
  const row = priceOf(table, run.provider, run.model);
  const { pairs } = await runFunnel(run, version.spec);
  return {
    baseline: perRequest(baseline, trials, row),
    currency: row ? table.currency : null,
    of: (candidate: string) => ({
      newConfusions: newConfusions(baseline, candidate, choices),
      perRequest: perRequest(candidate, trials, row),
      funnel: candidateFunnel(pairs, candidate),
    }),
  };
}

/** How one advance waits and what it reports (the CLI prints the events; the worker passes nothing). */
export interface AdvanceOptions {
  onEvent?: (e: OptimiseEvent) => void;
  /** Waits until a run is final (default: read PostgreSQL until it is). A worker must be running. */
  waitForRun?: (runId: string) => Promise<RunRow>;
}

/** Checks the input (an OptimiseInputError names the field, nothing stored) and stores the record at stage `select`. */
export async function storeOptimisation(input: OptimiseInput): Promise<OptimisationRow> {
  checkInput(input);
  let budget = loopBudgetOf(input.budget);
  if (budget?.cost != null) await checkPricedForCost(input);
  // before anything is sent: what the whole loop sends to paid models, the rewriter's request included
  await checkLoopSpend(input);
  if (input.rewriter) {
    const { experiment, condition, spent } = await proposeModelRewrite({
      experimentId: input.experimentId,
      study: input.study,
      target: input.rewriter,
      shares: input.shares,
      seed: input.seed,
      settings: input.settings,
      actor: input.actor,
    });
    input.onEvent?.({ kind: 'rewritten', experimentId: experiment.id, condition: condition.id, rewriter: targetKey(input.rewriter), spent });
    if (budget) {
      const used = { requests: 1, tokens: (spent.inputTokens ?? 0) + (spent.outputTokens ?? 0), cost: spent.cost ?? 0 };
      const after = budgetLeft(budget, used, 1, "the rewriter's request", 'the select run (its rewrite is stored as ' + experiment.id + ')');
      if ('exhausted' in after) throw new OptimiseInputError('budget', after.exhausted);
      budget = after.left;
    }
    input = { ...input, experimentId: experiment.id, rewriter: undefined };
  }
  const { source, study } = await sourceStudy(input);
  const { shares, seed } = splitOf(input, study);
  // a model's rewrite was prompted with the tune split of the study's declared split: any other split could
  // put the cases it saw into the confirm split (lib/optimise/rewriter.ts)
  const rewritten = study.conditions.find((c) => c.variant?.kind.startsWith('model:'));
  const s = study.splits;
  if (rewritten && (!s || s.seed !== seed || s.tune !== shares.tune || s.select !== shares.select || s.confirm !== shares.confirm))
    throw new OptimiseInputError(
      'split',
      `condition "${rewritten.id}" is a model's rewrite prompted from ${s ? `the study's declared split (${s.tune}/${s.select}/${s.confirm}, seed ${s.seed})` : 'a split the study does not declare'}: the loop uses that split alone`,
    );
  let split: StudySplit;
  try {
    split = splitStudy(study, { seed, ...shares });
  } catch (e) {
    if (e instanceof SplitError) throw new OptimiseInputError('split', e.message);
    throw e;
  }
  const max = input.maxCandidates ?? MAX_CANDIDATES;
  const { candidates } = gatherCandidates(source.spec, study, max);
  if (candidates.every((c) => c.placebo))
    throw new OptimiseInputError('candidates', `study "${study.id}" has no candidate: no hand-written condition and no linter finding a rule can fix`);
  const rule: SelectionRule = input.rule ?? { kind: 'best' };
  input.onEvent?.({ kind: 'sealed', split });
  const request: OptimisationRequest = { actor: input.actor, settings: input.settings ?? {}, confirm: input.confirm ?? null, maxCandidates: max, budget };
  // the rule and the candidates are stored before the select stage runs
  return insertOptimisation({
    actor: input.actor,
    experimentId: source.id,
    studyId: study.id,
    splitSeed: seed,
    splitShares: shares,
    sealed: split.sealed,
    rule,
    targets: input.targets.map(targetKey),
    candidates,
    request,
  });
}

/** The version to improve and its study, or an OptimiseInputError naming the field. */
async function sourceStudy(input: Pick<OptimiseInput, 'experimentId' | 'study'>) {
  const source = await getExperiment(input.experimentId);
  if (!source) throw new OptimiseInputError('experimentId', `no experiment "${input.experimentId}"`);
  const study = source.spec.studies.find((s) => s.id === input.study);
  if (!study) throw new OptimiseInputError('study', `no study "${input.study}" in ${source.id} (its studies: ${source.spec.studies.map((s) => s.id).join(', ')})`);
  return { source, study };
}

/** The split the loop uses: the one given, else the study's declared one, else 40/30/30 with seed 0. */
function splitOf(input: Pick<OptimiseInput, 'shares' | 'seed'>, study: Study): { shares: SplitShares; seed: number } {
  const shares = input.shares ?? (study.splits ? { tune: study.splits.tune, select: study.splits.select, confirm: study.splits.confirm } : { ...DEFAULT_SHARES });
  return { shares, seed: input.seed ?? study.splits?.seed ?? DEFAULT_SEED };
}

/**
 * What the whole loop would send to paid models (docs/spend-guards.md "The improve loop"): the rewriter's one
 * request, the select run (baseline and every candidate on the select cases, the first target) and the
 * confirmation (baseline, as many winners as the rule keeps and the placebo on the sealed cases, every target).
 * Before the rewriter answers its condition is counted as the baseline's definitions under its id.
 */
export async function estimateLoopSpend(
  input: OptimiseInput,
): Promise<SpendEstimate & { parts: string[]; stages: { rewriter: number; select: number; confirm: number } }> {
  const { source, study: original } = await sourceStudy(input);
  const { shares, seed } = splitOf(input, original);
  let split: StudySplit;
  try {
    split = splitStudy(original, { seed, ...shares });
  } catch (e) {
    if (e instanceof SplitError) throw new OptimiseInputError('split', e.message);
    throw e;
  }
  const study: Study = input.rewriter ? { ...original, conditions: [...original.conditions, rewriteCondition(original, input.rewriter, new Map())] } : original;
  const spec: ExperimentSpec = { ...source.spec, studies: source.spec.studies.map((s) => (s.id === study.id ? study : s)) };
  const { conditions, candidates } = gatherCandidates(spec, study, input.maxCandidates ?? MAX_CANDIDATES);
  const baseline = baselineOf(study);
  const prices = await getPriceTable();
  const selectEst = await estimateSpend(derivedSpec(spec, study, [baseline, ...conditions], split.select, 'select'), [input.targets[0]], prices);
  const placebo = candidates.find((c) => c.placebo)?.condition;
  const m = input.rule?.kind === 'top' ? input.rule.m : 1;
  const kept = new Set(
    candidates
      .filter((c) => !c.placebo)
      .slice(0, m)
      .map((c) => c.condition),
  );
  const confirmConditions = conditions.filter((c) => kept.has(c.id) || c.id === placebo);
  const confirmEst = await estimateSpend(derivedSpec(spec, study, [baseline, ...confirmConditions], split.confirm, 'confirm'), input.targets, prices);
  const rewriterEst = input.rewriter ? await rewriterSpend(source.spec, original, split, input.rewriter, input.settings, prices) : null;
  const parts = [
    ...(rewriterEst ? [`the rewriter ${rewriterEst.paidRequests}`] : []),
    `select ${selectEst.paidRequests}`,
    `confirm ${confirmEst.paidRequests} (${input.targets.length} target${input.targets.length === 1 ? '' : 's'}, up to ${kept.size} winner${kept.size === 1 ? '' : 's'})`,
  ];
  const costs = [selectEst.cost, confirmEst.cost, rewriterEst?.cost ?? null].filter((c): c is number => c !== null);
  return {
    paidRequests: (rewriterEst?.paidRequests ?? 0) + selectEst.paidRequests + confirmEst.paidRequests,
    cost: costs.length > 0 ? costs.reduce((a, c) => a + c, 0) : null,
    currency: prices.currency,
    parts,
    stages: { rewriter: rewriterEst?.paidRequests ?? 0, select: selectEst.paidRequests, confirm: confirmEst.paidRequests },
  };
}

/** The rewriter's one request: its prompt's tokens (without the tune failures it may add) and its output bound, priced where the table knows the model. */
async function rewriterSpend(
  spec: ExperimentSpec,
  study: Study,
  split: StudySplit,
  rewriter: RunTarget,
  settings: OptimiseInput['settings'],
  prices: PriceTable,
): Promise<SpendEstimate> {
  if (isSimulatedProvider(rewriter.provider)) return { paidRequests: 0, cost: null, currency: prices.currency };
  const row = priceOf(prices, rewriter.provider, rewriter.model);
  if (!row || split.tune.length === 0) return { paidRequests: 1, cost: null, currency: prices.currency };
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  const request = rewriteRequest(spec, study, split);
  const parsed = RunSettings.safeParse({ ...(settings ?? {}), provider: rewriter.provider, model: rewriter.model });
  const output = parsed.success && parsed.data.maxOutputTokens !== null ? parsed.data.maxOutputTokens : prices.outputTokensPerRequest;
  return { paidRequests: 1, cost: costAt(row, countTokens(JSON.stringify(request)), output), currency: prices.currency };
}

/** Refuses the loop (SpendConfirmationRequired, nothing sent or stored) when its whole spend passes a threshold unconfirmed. */
async function checkLoopSpend(input: OptimiseInput): Promise<void> {
  const est = await estimateLoopSpend(input);
  checkSpendConfirmation(est, input.confirm ?? {}, undefined, `this loop (${est.parts.join(', ')})`);
}

/** A cost budget is counted at the price table's rows: every paid target and the rewriter need one (an error names `budget`). */
async function checkPricedForCost(input: OptimiseInput): Promise<void> {
  const prices = await getPriceTable();
  const unpriced = [...input.targets, ...(input.rewriter ? [input.rewriter] : [])].filter(
    (t) => !isSimulatedProvider(t.provider) && !priceOf(prices, t.provider, t.model),
  );
  if (unpriced.length > 0)
    throw new OptimiseInputError(
      'budget',
      `a cost budget needs a price for ${unpriced.map(targetKey).join(', ')} in the price table (or give a request or token budget)`,
    );
}

/** The door's use case: the record stored, its advance queued for the worker. Returns the record at stage `select`. */
export async function startOptimisation(actor: Actor, input: Omit<OptimiseInput, 'actor' | 'onEvent' | 'waitForRun'>): Promise<OptimisationRow> {
  const record = await storeOptimisation({ ...input, actor });
  await enqueueOptimisation(record.id);
  return record;
}

/**
 * Runs the whole loop in-process (the CLI) and returns the stored record. Bad input throws an
 * OptimiseInputError naming the field before anything is stored; a run that does not complete marks the
 * record `failed` with the reason (kept beside everything stored before it) and throws OptimiseFailed.
 */
export async function optimise(input: OptimiseInput): Promise<OptimisationRow> {
  const record = await storeOptimisation(input);
  const done = await advanceOptimisation(record.id, { onEvent: input.onEvent, waitForRun: input.waitForRun });
  return done ?? (await getOptimisation(record.id)) ?? record;
}

const FINAL_STAGES = new Set(['confirmed', 'no-winner', 'failed']);

/**
 * Continues a stored record from its stage until it is final, and returns it; null when another advance holds
 * the record (a job delivered twice: the first one goes on). A run id stored on the record is waited for, not
 * started again. A run that does not complete marks the record `failed` and throws OptimiseFailed.
 */
export async function advanceOptimisation(id: string, opts: AdvanceOptions = {}): Promise<OptimisationRow | null> {
  const hold = await holdOptimisation(id);
  if (!hold) return null;
  try {
    return await advanceHeld(id, opts);
  } finally {
    await hold.release();
  }
}

async function advanceHeld(id: string, opts: AdvanceOptions): Promise<OptimisationRow> {
  let record = await getOptimisation(id);
  if (!record) throw new Error(`no optimisation "${id}"`);
  if (FINAL_STAGES.has(record.stage)) return record;
  try {
    const request = await getOptimisationRequest(id);
    if (!request) throw new Error('the record keeps no request to continue from (stored before the loop ran in the worker)');
    const source = await getExperiment(record.experimentId);
    const study = source?.spec.studies.find((s) => s.id === record!.studyId);
    if (!source || !study) throw new Error(`the source ${record.experimentId} or its study ${record.studyId} is gone`);
    const split = splitStudy(study, { seed: record.splitSeed, ...record.splitShares });
    if (split.sealed.sha256 !== record.sealed.sha256) throw new Error('the split dealt again does not match the sealed one');
    const { conditions } = gatherCandidates(source.spec, study, request.maxCandidates);
    const { candidates } = record;
    if (conditions.map((c) => c.id).join('\n') !== candidates.map((c) => c.condition).join('\n'))
      throw new Error('the candidates gathered again do not match the stored ones');
    const baseline = baselineOf(study);
    const targets = record.targets.map((t) => {
      const parsed = parseRunTarget(t);
      if (typeof parsed === 'string') throw new Error(`stored target ${t}: ${parsed}`);
      return parsed;
    });
    const run = (experimentId: string, on: RunTarget[], ids: readonly string[], stage: 'select' | 'confirm', budget: RunBudgetInput | null) =>
      startOnTargets(request, opts, experimentId, on, ids, stage, budget);
    const wait = (ids: string[], stage: 'select' | 'confirm') => waitForRuns(opts, ids, stage);

    let ranked: NonNullable<OptimisationResult['select']>['ranked'];
    let winners: string[];
    let selected: OptimisationResult;
    if (record.stage === 'select') {
      // select: baseline + every candidate, the select split's cases only (a select run already stored is reused)
      // the run's id is stored before the run exists, so a crash at any point leaves nothing the next advance cannot find
      if (!record.selectRunId) {
        const selectVersion = await saveExperiment(derivedSpec(source.spec, study, [baseline, ...conditions], split.select, 'select'));
        record = await setSelectRun(id, selectVersion.id, newRunId());
      }
      await run(record.selectExperimentId!, [targets[0]], [record.selectRunId!], 'select', request.budget ?? null);
      const [selectRun] = await wait([record.selectRunId!], 'select');
      const trials = await storedTrialUsage(selectRun.id);
      const effects = await sideEffectsOf(selectRun, baseline.id, trials);
      ranked = rankCandidates(candidates.map((c) => ({ candidate: c.condition, placebo: c.placebo, clusters: clustersOf(baseline.id, c.condition, trials) }))).map(
        (r) => ({ ...r, sideEffects: effects.of(r.candidate) }),
      );
      winners = selectWinners(ranked, record.rule).map((w) => w.candidate);
      selected = {
        select: { runId: selectRun.id, ranked, baseline: { condition: baseline.id, perRequest: effects.baseline }, currency: effects.currency },
        confirm: [],
        transfer: [],
        earlierLookPs: [],
      };
      // the freeze comes before anything of the confirm split is derived, stored or sent
      record = await freezeWinners(id, winners, selected, new Date());
      opts.onEvent?.({ kind: 'frozen', record });
      if (winners.length === 0) return record;
    } else {
      ranked = record.result!.select!.ranked;
      winners = record.winners ?? [];
      selected = { select: record.result!.select, confirm: [], transfer: [], earlierLookPs: [] };
    }

    // confirm: baseline + winner(s) + placebo, the sealed split's cases, on every target
    const placebo = candidates.find((c) => c.placebo)?.condition ?? null;
    if (record.look === null) {
      const confirmConditions = conditions.filter((c) => winners.includes(c.id) || c.id === placebo);
      const confirmVersion = await saveExperiment(derivedSpec(source.spec, study, [baseline, ...confirmConditions], split.confirm, 'confirm'));
      record = await takeLook(id, confirmVersion.id);
    }
    const earlier = await earlierLooks(source.id, study.id, split.sealed.sha256, record.look!);
    const earlierLookPs = earlier.flatMap((o) =>
      o.result?.confirm.length
        ? o.result.confirm.flatMap((c) => c.readings.map((r) => r.pExact))
        : // a look whose readings were never stored still looked: each of its claims counts, as p = 1
          (o.winners ?? []).flatMap(() => o.targets.map(() => 1)),
    );
    if (!record.confirmRunIds)
      record = await setConfirmRuns(
        id,
        targets.map(() => newRunId()),
      );
    await run(record.confirmExperimentId!, targets, record.confirmRunIds!, 'confirm', await confirmBudget(request, record.selectRunId!, targets.length));
    const confirmRuns = await wait(record.confirmRunIds!, 'confirm');
    const selectEstimate = new Map(ranked.map((r) => [r.candidate, r.difference.estimate]));
    const confirm: OptimisationResult['confirm'] = [];
    for (const r of confirmRuns) {
      const t = await storedTrialUsage(r.id);
      const readings = confirmReadings(
        winners.map((w) => ({
          candidate: w,
          selectEstimate: selectEstimate.get(w) ?? null,
          clusters: clustersOf(baseline.id, w, t),
          vsPlacebo: placebo ? clustersOf(placebo, w, t) : null,
        })),
        earlierLookPs,
      );
      confirm.push({ target: `${r.provider}:${r.model}`, runId: r.id, readings: readings.map((x): StoredConfirm => ({ ...x, sentence: confirmSentence(x) })) });
    }
    const transfer = winners.map((w) => {
      const perTarget = confirm.map((c) => ({ target: c.target, difference: c.readings.find((r) => r.candidate === w)!.difference }));
      const heterogeneity =
        perTarget.length >= 2
          ? cochranQ(
              perTarget
                .filter((p) => p.difference.estimate !== null && p.difference.se !== null)
                .map((p) => ({ estimate: p.difference.estimate!, se: p.difference.se! })),
            )
          : null;
      return { candidate: w, perTarget, heterogeneity };
    });
    return await storeConfirmation(id, { ...selected, confirm, transfer, earlierLookPs });
  } catch (e) {
    const failed = await failOptimisation(id, e instanceof Error ? e.message : String(e));
    throw new OptimiseFailed(failed ?? (await getOptimisation(id)) ?? record, e);
  }
}

/** Each confirmation run's budget: what the select run left of the loop's, shared equally by the targets. */
async function confirmBudget(request: OptimisationRequest, selectRunId: string, targets: number): Promise<RunBudgetInput | null> {
  if (!request.budget) return null;
  const spent = await budgetSpent(selectRunId);
  const used = { requests: spent?.requests ?? 0, tokens: (spent?.inputTokens ?? 0) + (spent?.outputTokens ?? 0), cost: spent?.cost ?? 0 };
  const after = budgetLeft(request.budget, used, targets, 'the select run', `the confirmation on ${targets} target${targets === 1 ? '' : 's'}`);
  if ('exhausted' in after) throw new Error(after.exhausted);
  return after.left;
}

/**
 * Makes the stage's runs exist and start, under the ids stored on the record (docs/optimise.md "In the worker"):
 * a run not created yet is created with its id through the one start use case (lib/runs/start.ts), a run
 * created but never started (the process stopped in between) is started, and a run already started is left
 * to its workers. So an advance that stopped anywhere is continued by the next without a second run.
 */
async function startOnTargets(
  request: OptimisationRequest,
  opts: AdvanceOptions,
  experimentId: string,
  targets: RunTarget[],
  ids: readonly string[],
  stage: 'select' | 'confirm',
  budget: RunBudgetInput | null,
): Promise<void> {
  const stored = await Promise.all(ids.map((runId) => getRun(runId)));
  const missing = ids.flatMap((_, i) => (stored[i] ? [] : [i]));
  if (missing.length > 0) {
    const on = missing.map((i) => targets[i]);
    // the confirmation's runs are one group; runs created again after a stop join the group of those that exist
    const groupId = ids.length > 1 ? (stored.find((r) => r)?.groupId ?? newRunGroupId()) : null;
    const started = await startRuns(
      request.actor,
      {
        experimentId,
        settings: { ...request.settings, ...on[0] } as RunSettingsInput,
        targets: ids.length > 1 ? on : [],
        confirm: request.confirm ?? undefined,
        auditDetail: { optimise: stage },
        budget,
        ids: missing.map((i) => ids[i]),
        groupId,
      },
      'here',
      (created) => {
        for (const r of created) opts.onEvent?.({ kind: 'run', stage, runId: r.id, target: `${r.provider}:${r.model}`, experimentId });
      },
    );
    for (const { run, start } of started) if (!start.ok) throw new Error(`the ${stage} run ${run.id} did not start: ${start.reason}`);
  }
  for (const r of stored) {
    if (!r || r.status !== 'created') continue;
    const start = await startRun(r.id);
    if (!start.ok) throw new Error(`the ${stage} run ${r.id} did not start: ${start.reason}`);
  }
}

/** The stage's runs once final; a run that did not complete stops the loop. */
async function waitForRuns(opts: AdvanceOptions, ids: string[], stage: 'select' | 'confirm'): Promise<RunRow[]> {
  const wait = opts.waitForRun ?? ((id: string) => waitUntilFinal(id));
  const finals: RunRow[] = [];
  for (const id of ids) {
    const final = await wait(id);
    if (final.status !== 'completed' && final.status !== 'completed_with_unresolved')
      throw new Error(`the ${stage} run ${id} ended ${final.status}${final.statusReason ? `: ${final.statusReason}` : ''}`);
    finals.push(final);
  }
  return finals;
}

export { getOptimisation };
